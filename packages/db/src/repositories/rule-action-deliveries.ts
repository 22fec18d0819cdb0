/**
 * Rule actions as their delivery reads them (rule_actions with the rule's name, the device and the
 * company the placeholders name). The rules worker reads them in the transaction that fires the rule
 * (`findActionDeliveries`), the notifier before a job sends (`loadCompanyActionDeliveries`). Every join
 * names the request's own company, so a request pointing at another company's rows finds nothing. Nor
 * does an action of a blocked or deleted company, nor an SMS or voice action of a company without the
 * paid messaging module (issue #27): such a job is refused, not sent.
 */
import type { Queryable } from '../db';
import { companyLanguageSql } from './text-languages';

export interface RuleActionDeliveryRow {
  id: number;
  type: 'email' | 'sms' | 'voice_message' | 'system' | 'http' | 'remote_control' | 'farming_task';
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

/** An action with what the placeholders need of its device and company. */
export interface ActionDeliveryRecord {
  action: RuleActionDeliveryRow;
  device: { uuid: string; name: string };
  /** `language`: the company's language (companyLanguageSql), for recipients that are no user. */
  company: { name: string; timeZone: string; language: string };
  /** Locale of each recipient (lower-case address, or phone number) that is a user of the company. */
  recipientLocales: Record<string, string>;
}

export interface ActionDeliveryRequest {
  actionId: number;
  ruleId: number;
  deviceId: number;
}

interface Row extends RuleActionDeliveryRow {
  ref: number;
  device_id: number;
  device_uuid: string;
  device_name: string;
  company_id: number;
  company_name: string;
  company_timezone: string;
  company_language: string;
  recipient_locales: Record<string, string> | null;
}

/** What both reads take of an action, its rule, device and company (aliases a, r, d, c). */
const ACTION_COLUMNS = `a.id, a.type, a.recipients, a.cc, a.subject, a.body, a.voice_language, a.url, a.http_method,
  a.target_device_id, a.command, a.command_params, a.settings, r.name AS rule_name,
  d.id AS device_id, d.uuid::text AS device_uuid, d.name AS device_name,
  c.id AS company_id, c.name AS company_name, c.timezone AS company_timezone,
  ${companyLanguageSql('c.id')} AS company_language,
  (SELECT jsonb_object_agg(t.k, t.locale) FROM (
     SELECT lower(u.email) AS k, u.locale FROM users u
      WHERE u.company_id = c.id AND u.deleted_at IS NULL
        AND lower(u.email) = ANY(SELECT lower(x) FROM unnest(a.recipients || a.cc) x)
     UNION ALL
     SELECT u.phone, u.locale FROM users u
      WHERE u.company_id = c.id AND u.deleted_at IS NULL AND u.phone = ANY(a.recipients)) t) AS recipient_locales`;

/**
 * The company may act (not blocked, not deleted), an SMS or voice action needs its paid messaging
 * licence and a farming task its farming licence (the super admin company, id 1, has every module).
 * Checked at firing as well as at save: a licence withdrawn later stops the action.
 */
const MAY_ACT = `NOT c.blocked AND c.deleted_at IS NULL
  AND (a.type NOT IN ('sms', 'voice_message') OR c.id = 1 OR 'paid_messaging' = ANY(c.modules))
  AND (a.type <> 'farming_task' OR c.id = 1 OR 'farming' = ANY(c.modules))`;

function toRecord(row: Row): ActionDeliveryRecord {
  const {
    ref: _ref,
    device_id: _deviceId,
    device_uuid,
    device_name,
    company_id: _companyId,
    company_name,
    company_timezone,
    company_language,
    recipient_locales,
    ...action
  } = row;
  return {
    action,
    device: { uuid: device_uuid, name: device_name },
    company: { name: company_name, timeZone: company_timezone, language: company_language },
    recipientLocales: recipient_locales ?? {},
  };
}

/**
 * One statement for requests of any companies (each names its own), in the caller's transaction. Index i
 * of the answer belongs to requests[i]; undefined: not found in its company.
 */
export async function findActionDeliveries(
  q: Queryable,
  requests: readonly (ActionDeliveryRequest & { companyId: number })[],
): Promise<(ActionDeliveryRecord | undefined)[]> {
  if (requests.length === 0) return [];
  const { rows } = await q.query<Row>(
    `SELECT p.ref, ${ACTION_COLUMNS}
       FROM jsonb_to_recordset($1::jsonb)
            AS p(ref int, company_id bigint, action_id bigint, rule_id bigint, device_id bigint)
       JOIN companies c ON c.id = p.company_id
       JOIN rule_actions a ON a.id = p.action_id AND a.rule_id = p.rule_id AND a.company_id = c.id
       JOIN rules r ON r.id = a.rule_id AND r.company_id = a.company_id
       JOIN devices d ON d.id = p.device_id AND d.company_id = c.id
      WHERE ${MAY_ACT}`,
    [
      JSON.stringify(
        requests.map((p, ref) => ({
          ref,
          company_id: p.companyId,
          action_id: p.actionId,
          rule_id: p.ruleId,
          device_id: p.deviceId,
        })),
      ),
    ],
  );
  const out: (ActionDeliveryRecord | undefined)[] = requests.map(() => undefined);
  for (const row of rows) out[row.ref] = toRecord(row);
  return out;
}

/**
 * One statement for requests of `companyId` (run it as that tenant): each action and, where `settled`
 * is asked, the recipients earlier attempts of its idempotency key need no further attempt for
 * (delivered, queued in the outbox, or failed for good). Index i of the answer belongs to requests[i].
 */
export async function loadCompanyActionDeliveries(
  q: Queryable,
  companyId: number,
  requests: readonly (ActionDeliveryRequest & { idempotencyKey: string; settled: boolean })[],
): Promise<({ delivery: ActionDeliveryRecord; settled: string[] | null } | undefined)[]> {
  const { rows } = await q.query<Row & { settled: string[] | null }>(
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
       JOIN devices d ON d.id = p.device_id AND d.company_id = c.id
      WHERE ${MAY_ACT}`,
    [
      JSON.stringify(
        requests.map((request, ref) => ({
          ref,
          action_id: request.actionId,
          rule_id: request.ruleId,
          device_id: request.deviceId,
          key: request.idempotencyKey,
          settled: request.settled,
        })),
      ),
      companyId,
    ],
  );
  const out: ({ delivery: ActionDeliveryRecord; settled: string[] | null } | undefined)[] = requests.map(
    () => undefined,
  );
  for (const { settled, ...row } of rows) out[row.ref] = { delivery: toRecord(row), settled };
  return out;
}
