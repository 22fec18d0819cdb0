import { type Db, withTenant } from '@iot/db';
import { DEFAULT_TIME_ZONE, fieldDefinition } from '@iot/domain';
import type { ActionContext } from './context';
import { formatCompanyTime } from './format-time';
import type { NotifyActionPayload } from './jobs/notify-action.job';

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
}

/**
 * Reads the action, its rule, the device and the company for one job, all within the payload's company
 * (company_id in every query, and row-level security as the tenant): a payload naming another company's
 * action or device finds nothing. Returns undefined then.
 */
export async function loadAction(
  db: Db,
  payload: NotifyActionPayload,
  idempotencyKey: string,
): Promise<LoadedAction | undefined> {
  return withTenant(db, payload.companyId, async (tx) => {
    const actions = await tx.query<RuleActionRow>(
      `SELECT a.id, a.type, a.recipients, a.cc, a.subject, a.body, a.voice_language, a.url, a.http_method,
              a.target_device_id, a.command, a.command_params, a.settings, r.name AS rule_name
       FROM rule_actions a JOIN rules r ON r.id = a.rule_id AND r.company_id = a.company_id
       WHERE a.id = $1 AND a.rule_id = $2 AND a.company_id = $3`,
      [payload.actionId, payload.ruleId, payload.companyId],
    );
    const devices = await tx.query<{ id: number; uuid: string; name: string }>(
      'SELECT id, uuid, name FROM devices WHERE id = $1 AND company_id = $2',
      [payload.deviceId, payload.companyId],
    );
    const companies = await tx.query<{ id: number; name: string; timezone: string }>(
      'SELECT id, name, timezone FROM companies WHERE id = $1',
      [payload.companyId],
    );
    const action = actions.rows[0];
    const device = devices.rows[0];
    const company = companies.rows[0];
    if (!action || !device || !company) return undefined;
    const at = new Date(payload.firedAt);
    const timeZone = company.timezone || DEFAULT_TIME_ZONE;
    return {
      action,
      ctx: {
        company: { id: company.id, name: company.name, timeZone },
        device: { id: device.id, uuid: device.uuid, name: device.name },
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
  });
}
