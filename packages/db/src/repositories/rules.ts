/**
 * Rules and their actions (migration 0003), for the API. Every call takes the acting company and filters
 * by it; a rule of another company or device is simply absent. The rules worker reads these tables itself.
 */
import type { Queryable } from '../db';

export type RuleTriggerColumn = 'data' | 'click' | 'no_data';
export type RuleActionType =
  | 'email'
  | 'sms'
  | 'voice_message'
  | 'system'
  | 'http'
  | 'remote_control'
  | 'farming_task';

export interface RuleActionRecord {
  id: number;
  position: number;
  type: RuleActionType;
  recipients: string[];
  cc: string[];
  subject: string | null;
  body: string | null;
  voiceLanguage: string | null;
  url: string | null;
  httpMethod: 'GET' | 'POST' | 'PUT' | null;
  targetDeviceId: number | null;
  command: string | null;
  commandParams: Record<string, unknown>;
  settings: Record<string, unknown>;
}

export type RuleActionValues = Omit<RuleActionRecord, 'id' | 'position'>;

/** The columns of a rule the API writes. */
export interface RuleValues {
  name: string;
  isActive: boolean;
  trigger: RuleTriggerColumn;
  dataField: string | null;
  operator: string | null;
  value: number | null;
  rangeMin: number | null;
  rangeMax: number | null;
  timeWindowSeconds: number;
  scheduleStart: string | null;
  scheduleEnd: string | null;
  scheduleWeekdays: number[];
  maxActions: number | null;
  maxActionsPeriodSeconds: number | null;
  clickType: number | null;
  maxClicks: number | null;
}

export interface RuleRecord extends RuleValues {
  id: number;
  deviceId: number;
  state: Record<string, unknown>;
  lastFiredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  actions: RuleActionRecord[];
}

const RULE_COLUMNS = `r.id::int AS id, r.device_id::int AS device_id, r.name, r.is_active, r.trigger,
  r.data_field, r.operator, r.value, r.range_min, r.range_max, r.time_window_seconds,
  to_char(r.schedule_start, 'HH24:MI:SS') AS schedule_start, to_char(r.schedule_end, 'HH24:MI:SS') AS schedule_end,
  r.schedule_weekdays::int[] AS schedule_weekdays, r.max_actions, r.max_actions_period_seconds,
  r.click_type::int AS click_type, r.max_clicks, r.state, r.last_fired_at, r.created_at, r.updated_at`;

interface RuleRow {
  id: number;
  device_id: number;
  name: string;
  is_active: boolean;
  trigger: RuleTriggerColumn;
  data_field: string | null;
  operator: string | null;
  value: number | null;
  range_min: number | null;
  range_max: number | null;
  time_window_seconds: number;
  schedule_start: string | null;
  schedule_end: string | null;
  schedule_weekdays: number[];
  max_actions: number | null;
  max_actions_period_seconds: number | null;
  click_type: number | null;
  max_clicks: number | null;
  state: Record<string, unknown>;
  last_fired_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface ActionRow {
  id: number;
  rule_id: number;
  position: number;
  type: RuleActionType;
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
}

export function toAction(row: ActionRow): RuleActionRecord {
  return {
    id: row.id,
    position: row.position,
    type: row.type,
    recipients: row.recipients,
    cc: row.cc,
    subject: row.subject,
    body: row.body,
    voiceLanguage: row.voice_language,
    url: row.url,
    httpMethod: row.http_method,
    targetDeviceId: row.target_device_id,
    command: row.command,
    commandParams: row.command_params,
    settings: row.settings,
  };
}

function toRule(row: RuleRow, actions: RuleActionRecord[]): RuleRecord {
  return {
    id: row.id,
    deviceId: row.device_id,
    name: row.name,
    isActive: row.is_active,
    trigger: row.trigger,
    dataField: row.data_field,
    operator: row.operator,
    value: row.value,
    rangeMin: row.range_min,
    rangeMax: row.range_max,
    timeWindowSeconds: row.time_window_seconds,
    scheduleStart: row.schedule_start,
    scheduleEnd: row.schedule_end,
    scheduleWeekdays: row.schedule_weekdays,
    maxActions: row.max_actions,
    maxActionsPeriodSeconds: row.max_actions_period_seconds,
    clickType: row.click_type,
    maxClicks: row.max_clicks,
    state: row.state,
    lastFiredAt: row.last_fired_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    actions,
  };
}

/** The rules of one device with their actions in position order, oldest rule first. */
export async function listDeviceRules(
  q: Queryable,
  companyId: number,
  deviceId: number,
): Promise<RuleRecord[]> {
  const rules = await q.query<RuleRow>(
    `SELECT ${RULE_COLUMNS} FROM rules r WHERE r.company_id = $1 AND r.device_id = $2 ORDER BY r.id`,
    [companyId, deviceId],
  );
  if (rules.rows.length === 0) return [];
  const actions = await q.query<ActionRow>(
    `SELECT a.id::int AS id, a.rule_id::int AS rule_id, a.position::int AS position, a.type, a.recipients, a.cc,
            a.subject, a.body, a.voice_language, a.url, a.http_method, a.target_device_id::int AS target_device_id,
            a.command, a.command_params, a.settings
       FROM rule_actions a JOIN rules r ON r.id = a.rule_id AND r.company_id = a.company_id
      WHERE a.company_id = $1 AND r.device_id = $2
      ORDER BY a.rule_id, a.position, a.id`,
    [companyId, deviceId],
  );
  const byRule = new Map<number, RuleActionRecord[]>();
  for (const row of actions.rows) {
    const list = byRule.get(row.rule_id) ?? [];
    list.push(toAction(row));
    byRule.set(row.rule_id, list);
  }
  return rules.rows.map((row) => toRule(row, byRule.get(row.id) ?? []));
}

function ruleParams(values: RuleValues): unknown[] {
  return [
    values.name,
    values.isActive,
    values.trigger,
    values.dataField,
    values.operator,
    values.value,
    values.rangeMin,
    values.rangeMax,
    values.timeWindowSeconds,
    values.scheduleStart,
    values.scheduleEnd,
    values.scheduleWeekdays,
    values.maxActions,
    values.maxActionsPeriodSeconds,
    values.clickType,
    values.maxClicks,
  ];
}

export async function insertRule(
  q: Queryable,
  companyId: number,
  deviceId: number,
  values: RuleValues,
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO rules (company_id, device_id, name, is_active, trigger, data_field, operator, value, range_min,
       range_max, time_window_seconds, schedule_start, schedule_end, schedule_weekdays, max_actions,
       max_actions_period_seconds, click_type, max_clicks)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::time, $13::time, $14::smallint[], $15, $16, $17, $18)
     RETURNING id::int AS id`,
    [companyId, deviceId, ...ruleParams(values)],
  );
  return rows[0]!.id;
}

/**
 * Updates a rule of the device. When the condition changes (trigger, field, operator, threshold, range,
 * time window, click type or count) the evaluation state is reset to `{}`, so an episode, edge or click
 * count of the old condition never fires the new one; `conditionChanged` tells the caller to clear the
 * rule's open alarm, which belonged to the old condition. Null when the rule is not the device's.
 */
export async function updateRule(
  q: Queryable,
  companyId: number,
  deviceId: number,
  ruleId: number,
  values: RuleValues,
): Promise<{ conditionChanged: boolean } | null> {
  const { rows } = await q.query<{ changed: boolean }>(
    `WITH old AS (
       SELECT id, (trigger, data_field, operator, value, range_min, range_max, time_window_seconds, click_type,
                   max_clicks) IS DISTINCT FROM
              ($5::text, $6::text, $7::text, $8::float8, $9::float8, $10::float8, $11::int, $17::smallint, $18::int)
                AS changed
         FROM rules WHERE company_id = $1 AND device_id = $2 AND id = $19 FOR UPDATE)
     UPDATE rules r SET name = $3, is_active = $4, trigger = $5, data_field = $6, operator = $7, value = $8,
       range_min = $9, range_max = $10, time_window_seconds = $11, schedule_start = $12::time,
       schedule_end = $13::time, schedule_weekdays = $14::smallint[], max_actions = $15,
       max_actions_period_seconds = $16, click_type = $17, max_clicks = $18, updated_at = now(),
       state = CASE WHEN old.changed THEN '{}'::jsonb ELSE r.state END
       FROM old WHERE r.id = old.id AND r.company_id = $1
     RETURNING old.changed AS changed`,
    [companyId, deviceId, ...ruleParams(values), ruleId],
  );
  const row = rows[0];
  return row ? { conditionChanged: row.changed } : null;
}

/** Replaces a rule's actions by `actions` (positions 0..n-1). */
export async function replaceRuleActions(
  q: Queryable,
  companyId: number,
  ruleId: number,
  actions: readonly RuleActionValues[],
): Promise<void> {
  await q.query('DELETE FROM rule_actions WHERE company_id = $1 AND rule_id = $2', [companyId, ruleId]);
  for (const [position, a] of actions.entries()) {
    await q.query(
      `INSERT INTO rule_actions (company_id, rule_id, position, type, recipients, cc, subject, body, voice_language,
         url, http_method, target_device_id, command, command_params, settings)
       VALUES ($1, $2, $3, $4, $5::text[], $6::text[], $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15::jsonb)`,
      [
        companyId,
        ruleId,
        position,
        a.type,
        a.recipients,
        a.cc,
        a.subject,
        a.body,
        a.voiceLanguage,
        a.url,
        a.httpMethod,
        a.targetDeviceId,
        a.command,
        JSON.stringify(a.commandParams),
        JSON.stringify(a.settings),
      ],
    );
  }
}

/** Deletes a rule of the device (its actions cascade; alarms and messages keep a NULL rule). */
export async function deleteRule(
  q: Queryable,
  companyId: number,
  deviceId: number,
  ruleId: number,
): Promise<boolean> {
  const { rowCount } = await q.query(
    'DELETE FROM rules WHERE company_id = $1 AND device_id = $2 AND id = $3',
    [companyId, deviceId, ruleId],
  );
  return rowCount > 0;
}

/** Ids of the device's rules among `ruleIds`. */
export async function existingRuleIds(
  q: Queryable,
  companyId: number,
  deviceId: number,
  ruleIds: readonly number[],
): Promise<Set<number>> {
  if (ruleIds.length === 0) return new Set();
  const { rows } = await q.query<{ id: number }>(
    'SELECT id::int AS id FROM rules WHERE company_id = $1 AND device_id = $2 AND id = ANY($3::bigint[])',
    [companyId, deviceId, ruleIds],
  );
  return new Set(rows.map((r) => r.id));
}

/** Renames a data field in the device's rules (a virtual field renamed keeps its rules). */
export async function renameRuleDataField(
  q: Queryable,
  companyId: number,
  deviceId: number,
  from: string,
  to: string,
): Promise<void> {
  await q.query(
    'UPDATE rules SET data_field = $4, updated_at = now() WHERE company_id = $1 AND device_id = $2 AND data_field = $3',
    [companyId, deviceId, from, to],
  );
}
