import { type Db, type Queryable, withTenant } from '@iot/db';
import { DEFAULT_TIME_ZONE, fieldDefinition } from '@iot/domain';
import { coalesce } from '@iot/runtime';
import type { ActionContext } from './context';
import { formatCompanyTime } from './format-time';
import type { NotifyActionPayload, PreloadedAction } from './jobs/notify-action.job';

export interface RuleActionRow {
  id: number;
  type: 'email' | 'sms' | 'voice_message' | 'system' | 'http' | 'remote_control';
  recipients: string[];
  cc: string[];
  subject: string | null;
  body: string | null;
  voice_language: string | null;
  url: string | null;
  http_method: 'GET' | 'POST' | 'PUT' | null;
  target_device_id: number | null;
  command: string | null;
  command_params: Record<string, unknown>;
  settings: Record<string, unknown>;
  rule_name: string;
}

export interface LoadedAction {
  action: RuleActionRow;
  ctx: ActionContext;
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

interface LoadedRow extends RuleActionRow {
  ref: number;
  device_id: number;
  device_uuid: string;
  device_name: string;
  company_id: number;
  company_name: string;
  company_timezone: string;
  settled: string[] | null;
}

/** What both loads read of an action, its rule, device and company (aliases a, r, d, c); see toPreloaded. */
const ACTION_COLUMNS = `a.id, a.type, a.recipients, a.cc, a.subject, a.body, a.voice_language, a.url, a.http_method,
  a.target_device_id, a.command, a.command_params, a.settings, r.name AS rule_name,
  d.id AS device_id, d.uuid::text AS device_uuid, d.name AS device_name,
  c.id AS company_id, c.name AS company_name, c.timezone AS company_timezone`;

/**
 * One statement per company for all requests of a flush: the action with its rule's name, the device,
 * the company and (where asked) the recipients earlier attempts of the key settled. Every join names
 * the payload's company, and the statement runs as that tenant (row-level security): a payload naming
 * another company's action, rule or device finds nothing.
 */
async function loadCompanyActions(
  db: Db,
  companyId: number,
  requests: readonly { ref: number; request: ActionRequest }[],
): Promise<Map<number, LoadedRow>> {
  const { rows } = await withTenant(db, companyId, (tx) =>
    tx.query<LoadedRow>(
      `SELECT p.ref, ${ACTION_COLUMNS},
              CASE WHEN p.settled THEN ARRAY(
                SELECT n.recipient FROM notification_log n
                 WHERE n.company_id = c.id AND n.idempotency_key = p.key
                   AND (n.status IN ('sent', 'queued') OR (n.status = 'failed' AND n.details->>'permanent' = 'true')))
              END AS settled
         FROM jsonb_to_recordset($1::jsonb)
              AS p(ref int, action_id bigint, rule_id bigint, device_id bigint, key text, settled boolean)
         JOIN companies c ON c.id = $2::bigint
         JOIN rule_actions a ON a.id = p.action_id AND a.rule_id = p.rule_id AND a.company_id = c.id
         JOIN rules r ON r.id = a.rule_id AND r.company_id = a.company_id
         JOIN devices d ON d.id = p.device_id AND d.company_id = c.id`,
      [
        JSON.stringify(
          requests.map(({ ref, request }) => ({
            ref,
            action_id: request.payload.actionId,
            rule_id: request.payload.ruleId,
            device_id: request.payload.deviceId,
            key: request.idempotencyKey,
            settled: request.withSettled,
          })),
        ),
        companyId,
      ],
    ),
  );
  return new Map(rows.map((row) => [row.ref, row]));
}

/** One row of ACTION_COLUMNS split into the action and what the placeholders need of device and company. */
function toPreloaded(row: Omit<LoadedRow, 'settled'>): PreloadedAction {
  const {
    ref: _ref,
    device_id: _deviceId,
    device_uuid,
    device_name,
    company_id: _companyId,
    company_name,
    company_timezone,
    ...action
  } = row;
  return {
    action,
    device: { uuid: device_uuid, name: device_name },
    company: { name: company_name, timeZone: company_timezone },
  };
}

function toLoaded(row: LoadedRow, request: ActionRequest): LoadedAction {
  const { settled, ...rest } = row;
  return {
    ...fromPreloaded(request.payload, toPreloaded(rest), request.idempotencyKey),
    settled: new Set(settled ?? []),
  };
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
  return {
    action,
    settled: new Set(),
    ctx: {
      company: { id: payload.companyId, name: company.name, timeZone },
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

/**
 * Reads, in the caller's transaction (the rules worker's, which fired the rules), what each job's
 * first run would load: one statement for all jobs. Every join names the payload's own company (as
 * the notifier's load does), so a payload pointing at another company's rows gets nothing and its job
 * loads (and refuses) as before. Index i of the answer belongs to payloads[i]; undefined: not found.
 */
export async function preloadActions(
  tx: Queryable,
  payloads: readonly NotifyActionPayload[],
): Promise<(PreloadedAction | undefined)[]> {
  if (payloads.length === 0) return [];
  const { rows } = await tx.query<Omit<LoadedRow, 'settled'>>(
    `SELECT p.ref, ${ACTION_COLUMNS}
       FROM jsonb_to_recordset($1::jsonb)
            AS p(ref int, company_id bigint, action_id bigint, rule_id bigint, device_id bigint)
       JOIN companies c ON c.id = p.company_id
       JOIN rule_actions a ON a.id = p.action_id AND a.rule_id = p.rule_id AND a.company_id = c.id
       JOIN rules r ON r.id = a.rule_id AND r.company_id = a.company_id
       JOIN devices d ON d.id = p.device_id AND d.company_id = c.id`,
    [
      JSON.stringify(
        payloads.map((p, ref) => ({
          ref,
          company_id: p.companyId,
          action_id: p.actionId,
          rule_id: p.ruleId,
          device_id: p.deviceId,
        })),
      ),
    ],
  );
  const out: (PreloadedAction | undefined)[] = payloads.map(() => undefined);
  for (const row of rows) out[row.ref] = toPreloaded(row);
  return out;
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
      const byCompany = new Map<number, { ref: number; request: ActionRequest }[]>();
      requests.forEach((request, ref) => {
        const list = byCompany.get(request.payload.companyId) ?? [];
        list.push({ ref, request });
        byCompany.set(request.payload.companyId, list);
      });
      const loaded = new Map<number, LoadedRow>();
      for (const [companyId, list] of byCompany) {
        for (const [ref, row] of await loadCompanyActions(db, companyId, list)) loaded.set(ref, row);
      }
      return requests.map((request, ref) => {
        const row = loaded.get(ref);
        return row ? toLoaded(row, request) : undefined;
      });
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
