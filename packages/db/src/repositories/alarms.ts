/**
 * Alarms (migration 0003) for the console's alarm page: the open and recently cleared alarms of the acting
 * company with device, rule and sensor check, and acknowledging one. The rules worker raises and clears them.
 */
import type { Queryable } from '../db';

export type AlarmState = 'raised' | 'acknowledged' | 'cleared';

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

interface AlarmRow {
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

function toAlarm(row: AlarmRow): AlarmRecord {
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
  const { rows } = await q.query<AlarmRow>(
    `${SELECT} WHERE ${where.join(' AND ')} ORDER BY a.raised_at DESC, a.id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map(toAlarm);
}

export async function findAlarm(q: Queryable, companyId: number, id: number): Promise<AlarmRecord | null> {
  const { rows } = await q.query<AlarmRow>(`${SELECT} WHERE a.company_id = $1 AND a.id = $2`, [
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
