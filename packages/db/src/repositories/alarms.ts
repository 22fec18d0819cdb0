/**
 * Alarms (migration 0003) for the console's alarm page: the open and recently cleared alarms of the acting
 * company with device, rule and sensor check, and acknowledging one. The rules worker raises and clears them.
 */
import type { Queryable } from '../db';
import { jsonParam } from './json-param';

export type AlarmState = 'raised' | 'acknowledged' | 'cleared';

/**
 * Announced (NOTIFY, delivered at COMMIT) by the transactions outside the API that raise or clear alarms:
 * the rules worker's batches and timer, parking readings. The API keeps its alarm poll's answers in
 * memory until then (apps/api `lib/answer-cache.ts`); changes through the API clear them there directly.
 */
export const ALARMS_CHANGED_CHANNEL = 'iot_alarms_changed';

/** Announces, in transaction `tx`, that alarms changed (ALARMS_CHANGED_CHANNEL). */
export async function announceAlarmsChanged(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [ALARMS_CHANGED_CHANNEL, '']);
}

export interface AlarmRecord {
  id: number;
  deviceId: number;
  deviceName: string;
  ruleId: number | null;
  ruleName: string | null;
  sensorCheckId: number | null;
  sensorCheckKind: string | null;
  state: AlarmState;
  level: number;
  dataField: string | null;
  value: number | null;
  details: Record<string, unknown>;
  message: string | null;
  raisedAt: Date;
  acknowledgedAt: Date | null;
  acknowledgedBy: { id: number; name: string } | null;
  clearedAt: Date | null;
}

export interface AlarmFilter {
  /** open = raised or acknowledged. Without a state: open ones plus those cleared within `clearedWithinSeconds`. */
  state?: AlarmState | 'open';
  deviceId?: number;
  clearedWithinSeconds: number;
  limit: number;
}

interface AlarmListRow {
  id: number;
  device_id: number;
  device_name: string;
  rule_id: number | null;
  rule_name: string | null;
  sensor_check_id: number | null;
  sensor_check_kind: string | null;
  state: AlarmState;
  level: number;
  data_field: string | null;
  value: number | null;
  details: Record<string, unknown>;
  message: string | null;
  raised_at: Date;
  acknowledged_at: Date | null;
  acknowledged_by: number | null;
  acknowledged_by_name: string | null;
  cleared_at: Date | null;
}

const SELECT = `SELECT a.id::int AS id, a.device_id::int AS device_id, d.name AS device_name,
    a.rule_id::int AS rule_id, r.name AS rule_name, a.sensor_check_id::int AS sensor_check_id,
    s.kind AS sensor_check_kind, a.state, a.level::int AS level, a.data_field, a.value, a.details, a.message,
    a.raised_at, a.acknowledged_at, a.acknowledged_by::int AS acknowledged_by, u.name AS acknowledged_by_name,
    a.cleared_at
  FROM alarms a
  JOIN devices d ON d.id = a.device_id AND d.company_id = a.company_id
  LEFT JOIN rules r ON r.id = a.rule_id AND r.company_id = a.company_id
  LEFT JOIN sensor_checks s ON s.id = a.sensor_check_id AND s.company_id = a.company_id
  LEFT JOIN users u ON u.id = a.acknowledged_by`;

function toAlarm(row: AlarmListRow): AlarmRecord {
  return {
    id: row.id,
    deviceId: row.device_id,
    deviceName: row.device_name,
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    sensorCheckId: row.sensor_check_id,
    sensorCheckKind: row.sensor_check_kind,
    state: row.state,
    level: row.level,
    dataField: row.data_field,
    value: row.value,
    details: row.details,
    message: row.message,
    raisedAt: row.raised_at,
    acknowledgedAt: row.acknowledged_at,
    acknowledgedBy:
      row.acknowledged_by === null ? null : { id: row.acknowledged_by, name: row.acknowledged_by_name ?? '' },
    clearedAt: row.cleared_at,
  };
}

/** The company's alarms, newest first. */
export async function listAlarms(
  q: Queryable,
  companyId: number,
  filter: AlarmFilter,
): Promise<AlarmRecord[]> {
  const params: unknown[] = [companyId];
  const where = ['a.company_id = $1'];
  if (filter.state === 'open') where.push(`a.state <> 'cleared'`);
  else if (filter.state) {
    params.push(filter.state);
    where.push(`a.state = $${params.length}`);
  } else {
    params.push(filter.clearedWithinSeconds);
    where.push(`(a.state <> 'cleared' OR a.cleared_at > now() - make_interval(secs => $${params.length}))`);
  }
  if (filter.deviceId !== undefined) {
    params.push(filter.deviceId);
    where.push(`a.device_id = $${params.length}`);
  }
  params.push(filter.limit);
  const { rows } = await q.query<AlarmListRow>(
    `${SELECT} WHERE ${where.join(' AND ')} ORDER BY a.raised_at DESC, a.id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map(toAlarm);
}

export async function findAlarm(q: Queryable, companyId: number, id: number): Promise<AlarmRecord | null> {
  const { rows } = await q.query<AlarmListRow>(`${SELECT} WHERE a.company_id = $1 AND a.id = $2`, [
    companyId,
    id,
  ]);
  return rows[0] ? toAlarm(rows[0]) : null;
}

/**
 * Records who acknowledged an alarm and when. A raised alarm becomes acknowledged; a cleared one stays
 * cleared but keeps the acknowledgement; an alarm acknowledged before keeps its first acknowledgement.
 * False when the company has no such alarm.
 */
export async function acknowledgeAlarm(
  q: Queryable,
  companyId: number,
  id: number,
  userId: number,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE alarms SET
       state = CASE WHEN state = 'raised' THEN 'acknowledged' ELSE state END,
       acknowledged_by = CASE WHEN acknowledged_at IS NULL THEN $3 ELSE acknowledged_by END,
       acknowledged_at = coalesce(acknowledged_at, now())
     WHERE company_id = $1 AND id = $2`,
    [companyId, id, userId],
  );
  return rowCount > 0;
}

/**
 * Clears the open alarm of a rule or sensor check whose condition the user changed: the alarm described
 * the old condition, and the engine's state (which remembered it as open) has been reset.
 */
export async function clearOpenAlarms(
  q: Queryable,
  companyId: number,
  source: { ruleId: number } | { sensorCheckId: number },
  reason: string,
): Promise<void> {
  const [column, id] =
    'ruleId' in source ? ['rule_id', source.ruleId] : ['sensor_check_id', source.sensorCheckId];
  await q.query(
    `UPDATE alarms SET state = 'cleared', cleared_at = now(), details = details || jsonb_build_object('cleared_by', $3::text)
      WHERE company_id = $1 AND ${column} = $2 AND state <> 'cleared'`,
    [companyId, id, reason],
  );
}

export interface AlarmRow {
  /** Caller's key, returned with the id. */
  ref: number;
  company_id: number;
  device_id: number;
  rule_id: number | null;
  sensor_check_id: number | null;
  data_field: string | null;
  value: number | null;
  details: unknown;
  message: string;
  raised_at: string;
  /** Set for an alarm raised and cleared within one batch: inserted as history, already cleared. */
  cleared_at: string | null;
}

/**
 * Inserts alarms. An open one (cleared_at null) collides with the open-alarm unique index when its rule
 * or check already has one (a replay, or another worker): that insert is skipped. Returns the ids of
 * the rows written, by `ref`.
 */
export async function insertAlarms(q: Queryable, rows: readonly AlarmRow[]): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  if (rows.length === 0) return ids;
  const { rows: written } = await q.query<{ id: number; ref: number }>(
    `INSERT INTO alarms (company_id, device_id, rule_id, sensor_check_id, state, data_field, value, details,
                         message, raised_at, cleared_at)
     SELECT r.company_id, r.device_id, r.rule_id, r.sensor_check_id,
            CASE WHEN r.cleared_at IS NULL THEN 'raised' ELSE 'cleared' END,
            r.data_field, r.value, r.details || jsonb_build_object('ref', r.ref), r.message, r.raised_at, r.cleared_at
       FROM jsonb_to_recordset($1::jsonb) AS r(ref int, company_id bigint, device_id bigint, rule_id bigint,
            sensor_check_id bigint, data_field text, value double precision, details jsonb, message text,
            raised_at timestamptz, cleared_at timestamptz)
       JOIN devices d ON d.id = r.device_id AND d.company_id = r.company_id
     ON CONFLICT DO NOTHING
     RETURNING id, (details->>'ref')::int AS ref`,
    [jsonParam(rows)],
  );
  for (const row of written) ids.set(row.ref, row.id);
  return ids;
}

export interface AlarmClearRow {
  company_id: number;
  device_id: number;
  rule_id: number | null;
  sensor_check_id: number | null;
  cleared_at: string;
  value: number | null;
  reason: string;
}

/** Clears the open alarm of each rule or check and device (state cleared, the clearing value in details). */
export async function clearAlarms(q: Queryable, rows: readonly AlarmClearRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await q.query(
    `UPDATE alarms a SET state = 'cleared', cleared_at = r.cleared_at,
            details = a.details || jsonb_build_object('cleared', jsonb_build_object('value', r.value, 'reason', r.reason))
       FROM jsonb_to_recordset($1::jsonb) AS r(company_id bigint, device_id bigint, rule_id bigint,
            sensor_check_id bigint, cleared_at timestamptz, value double precision, reason text)
      WHERE a.state <> 'cleared' AND a.company_id = r.company_id AND a.device_id = r.device_id
        AND (a.rule_id = r.rule_id OR a.sensor_check_id = r.sensor_check_id)`,
    [jsonParam(rows)],
  );
  return result.rowCount;
}

/** The open alarm of each rule (for the alarm id a notification names). */
export async function findOpenRuleAlarms(
  q: Queryable,
  refs: readonly { ruleId: number; deviceId: number; companyId: number }[],
): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  if (refs.length === 0) return ids;
  const { rows } = await q.query<{ id: number; rule_id: number }>(
    `SELECT a.id, a.rule_id
       FROM jsonb_to_recordset($1::jsonb) AS p(rule_id bigint, device_id bigint, company_id bigint)
       JOIN alarms a ON a.rule_id = p.rule_id AND a.device_id = p.device_id AND a.company_id = p.company_id
      WHERE a.state <> 'cleared'`,
    [jsonParam(refs.map((r) => ({ rule_id: r.ruleId, device_id: r.deviceId, company_id: r.companyId })))],
  );
  for (const row of rows) ids.set(row.rule_id, row.id);
  return ids;
}
