import type { NotifyActionPayload, PreloadedAction } from '@iot/contracts';
import { type Db, loadCompanyActionDeliveries, type RuleActionDeliveryRow, withTenant } from '@iot/db';
import { DEFAULT_TIME_ZONE, fieldDefinition, userLanguage } from '@iot/domain';
import { coalesce } from '@iot/runtime';
import type { ActionContext } from './context';
import { formatCompanyTime } from './format-time';
import type { RecipientLanguages } from './plan-deliveries';

export type RuleActionRow = RuleActionDeliveryRow;

export interface LoadedAction {
  action: RuleActionRow;
  /** `language` is the company's; each delivery sends with its recipient's (planDeliveries). */
  ctx: ActionContext;
  languages: RecipientLanguages;
  /**
   * Recipients this key needs no further attempt for: delivered (sent, queued in the outbox) or failed
   * for good. Empty when the request said no earlier attempt can have run (nothing was looked up).
   */
  settled: ReadonlySet<string>;
}

export interface ActionRequest {
  payload: NotifyActionPayload;
  idempotencyKey: string;
  /** Look up what earlier attempts of this key delivered (false on a job's first run: nothing yet). */
  withSettled: boolean;
}

/**
 * One statement per company for all requests of a flush (loadCompanyActionDeliveries), run as that
 * tenant (row-level security): a payload naming another company's action, rule or device finds nothing.
 */
async function loadCompanyActions(
  db: Db,
  companyId: number,
  requests: readonly ActionRequest[],
): Promise<(LoadedAction | undefined)[]> {
  const rows = await withTenant(db, companyId, (tx) =>
    loadCompanyActionDeliveries(
      tx,
      companyId,
      requests.map(({ payload, idempotencyKey, withSettled }) => ({
        actionId: payload.actionId,
        ruleId: payload.ruleId,
        deviceId: payload.deviceId,
        idempotencyKey,
        settled: withSettled,
      })),
    ),
  );
  return rows.map((row, i) => {
    const request = requests[i]!;
    if (!row) return undefined;
    return {
      ...fromPreloaded(request.payload, row.delivery, request.idempotencyKey),
      settled: new Set(row.settled ?? []),
    };
  });
}

/** A job's action from rows already read (its payload's `preloaded`, or the load above); nothing settled. */
export function fromPreloaded(
  payload: NotifyActionPayload,
  preloaded: PreloadedAction,
  idempotencyKey: string,
): LoadedAction {
  const { action, device, company } = preloaded;
  const at = new Date(payload.firedAt);
  const timeZone = company.timeZone || DEFAULT_TIME_ZONE;
  // A job of a version before the company language was read: the users' default locale.
  const companyLanguage = userLanguage(company.language ?? 'de', 'de');
  return {
    action,
    settled: new Set(),
    languages: { company: companyLanguage, locales: preloaded.recipientLocales ?? {} },
    ctx: {
      company: { id: payload.companyId, name: company.name, timeZone },
      language: companyLanguage,
      device: { id: payload.deviceId, uuid: device.uuid, name: device.name },
      rule: { id: payload.ruleId, name: action.rule_name },
      alarmId: payload.alarmId,
      field: payload.field,
      value: payload.value,
      unit: (payload.field && fieldDefinition(payload.field)?.unit) || '',
      at,
      time: formatCompanyTime(at, timeZone),
      idempotencyKey,
    },
  };
}

export type ActionLoader = (request: ActionRequest) => Promise<LoadedAction | undefined>;

/**
 * Loads what each job needs before it sends (action, rule name, device, company, settled recipients).
 * Jobs running at once share the round trip (coalesce): on PGlite every statement waits for the one
 * connection behind the storage writer's and the rules worker's batches, so one statement for many jobs
 * is what keeps a job's wait short. Resolves undefined for a payload whose rows are not all in its
 * company.
 */
export function createActionLoader(db: Db): ActionLoader {
  return coalesce<ActionRequest, LoadedAction | undefined>(
    async (requests) => {
      const byCompany = new Map<number, number[]>();
      requests.forEach((request, ref) => {
        const refs = byCompany.get(request.payload.companyId) ?? [];
        refs.push(ref);
        byCompany.set(request.payload.companyId, refs);
      });
      const loaded: (LoadedAction | undefined)[] = requests.map(() => undefined);
      for (const [companyId, refs] of byCompany) {
        const answers = await loadCompanyActions(
          db,
          companyId,
          refs.map((ref) => requests[ref]!),
        );
        refs.forEach((ref, i) => {
          loaded[ref] = answers[i];
        });
      }
      return loaded;
    },
    { maxBatch: 500 },
  );
}

/** One job's action without sharing a round trip (tools, tests). */
export function loadAction(
  db: Db,
  payload: NotifyActionPayload,
  idempotencyKey: string,
): Promise<LoadedAction | undefined> {
  return createActionLoader(db)({ payload, idempotencyKey, withSettled: true });
}
