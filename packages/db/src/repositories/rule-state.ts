/**
 * The rules, virtual fields and sensor checks of devices with their evaluation states, as the rules
 * worker (apps/rules-worker) reads, locks and saves them. Like the ingestion writer it runs as the
 * owner role and crosses tenants by design, so every statement takes (device id, company id) pairs from
 * the uplink envelopes and joins on both: an uplink of company A can only ever reach A's rules, fields,
 * checks and alarms. Reads of definitions and states lock the rows (`FOR UPDATE`) inside the batch's
 * transaction, so the timer (another worker, another process) and the uplink path never overwrite each
 * other's states. Writes are one multi-row statement per table per batch (`jsonb_to_recordset`).
 */
import type { Queryable } from '../db';
import { jsonParam } from './json-param';
import {
  readVirtualDevicesRow,
  VIRTUAL_DEVICES_COLUMNS,
  type VirtualDevicesOfInputs,
  type VirtualDevicesRow,
  virtualDevicesOfPairsSql,
} from './virtual-devices';

export interface DeviceRef {
  deviceId: number;
  companyId: number;
}

export interface RulesWorkerDevice {
  id: number;
  companyId: number;
  name: string;
  timeZone: string;
  /** device_details.data_fields: the names formulas may read. */
  dataFields: string[];
  lastOnlineAt: Date | null;
}

export interface RulesWorkerAction {
  id: number;
  type: string;
}

export interface RulesWorkerRule {
  id: number;
  companyId: number;
  deviceId: number;
  name: string;
  trigger: 'data' | 'click' | 'no_data';
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
  state: Record<string, unknown>;
  actions: RulesWorkerAction[];
}

export interface RulesWorkerVirtualField {
  id: number;
  companyId: number;
  deviceId: number;
  uuid: string;
  name: string;
  unit: string | null;
  formula: string | null;
  function: string | null;
  mapping: Record<string, string | number>;
  store: boolean;
  state: Record<string, unknown>;
}

export interface RulesWorkerSensorCheck {
  id: number;
  companyId: number;
  deviceId: number;
  kind: 'no_data' | 'implausible_value' | 'battery_low';
  dataField: string | null;
  maxSilenceSeconds: number | null;
  minValue: number | null;
  maxValue: number | null;
  state: Record<string, unknown>;
}

const pairsParam = (refs: readonly DeviceRef[]) =>
  jsonParam(refs.map((r) => ({ device_id: r.deviceId, company_id: r.companyId })));

const PAIRS = `jsonb_to_recordset($1::jsonb) AS p(device_id bigint, company_id bigint)`;

/**
 * A batch's devices (`p`: the pairs) that exist in the company their uplinks name, with the company's zone.
 * A blocked or deleted company's devices are left out: its rules, fields and checks do not act (issue #27).
 */
const DEVICES_OF_PAIRS = `SELECT d.id, d.company_id AS "companyId", d.name, c.timezone AS "timeZone",
            COALESCE(ARRAY(SELECT jsonb_array_elements_text(
              CASE WHEN jsonb_typeof(d.device_details->'data_fields') = 'array'
                   THEN d.device_details->'data_fields' ELSE '[]'::jsonb END)), '{}') AS "dataFields",
            s.last_online_at AS "lastOnlineAt"
       FROM p
       JOIN devices d ON d.id = p.device_id AND d.company_id = p.company_id
       JOIN companies c ON c.id = d.company_id
       LEFT JOIN device_current s ON s.device_id = d.id AND s.company_id = d.company_id
      WHERE NOT c.blocked AND c.deleted_at IS NULL`;

/** The row's company is neither blocked nor deleted (alias `x` names the row). */
const COMPANY_ACTIVE = (alias: string) =>
  `EXISTS (SELECT 1 FROM companies c WHERE c.id = ${alias}.company_id AND NOT c.blocked AND c.deleted_at IS NULL)`;

/** The devices of a batch that exist in the company their uplinks name, with the company's zone. */
export async function loadRulesWorkerDevices(
  q: Queryable,
  refs: readonly DeviceRef[],
): Promise<RulesWorkerDevice[]> {
  if (refs.length === 0) return [];
  const { rows } = await q.query<RulesWorkerDevice>(
    `WITH p AS (SELECT * FROM ${PAIRS}) ${DEVICES_OF_PAIRS}`,
    [pairsParam(refs)],
  );
  return rows;
}

const RULE_COLUMNS = `r.id, r.company_id AS "companyId", r.device_id AS "deviceId", r.name, r.trigger,
  r.data_field AS "dataField", r.operator, r.value, r.range_min AS "rangeMin", r.range_max AS "rangeMax",
  r.time_window_seconds AS "timeWindowSeconds", to_char(r.schedule_start, 'HH24:MI:SS') AS "scheduleStart",
  to_char(r.schedule_end, 'HH24:MI:SS') AS "scheduleEnd", r.schedule_weekdays::int[] AS "scheduleWeekdays",
  r.max_actions AS "maxActions", r.max_actions_period_seconds AS "maxActionsPeriodSeconds",
  r.click_type::int AS "clickType", r.max_clicks AS "maxClicks", r.state,
  (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', a.id, 'type', a.type) ORDER BY a.position, a.id), '[]')
     FROM rule_actions a WHERE a.rule_id = r.id AND a.company_id = r.company_id) AS actions`;

/** Active rules of the devices with their action ids and states, locked for this transaction. */
export async function lockDeviceRules(q: Queryable, refs: readonly DeviceRef[]): Promise<RulesWorkerRule[]> {
  if (refs.length === 0) return [];
  const { rows } = await q.query<RulesWorkerRule>(
    `SELECT ${RULE_COLUMNS}
       FROM ${PAIRS}
       JOIN rules r ON r.device_id = p.device_id AND r.company_id = p.company_id
      WHERE r.is_active
      ORDER BY r.id
        FOR UPDATE OF r`,
    [pairsParam(refs)],
  );
  return rows;
}

const VIRTUAL_FIELD_COLUMNS = `v.id, v.company_id AS "companyId", v.device_id AS "deviceId", v.uuid::text AS uuid,
  v.name, v.unit, v.formula, v.function, v.mapping, v.store, v.state`;

/** Virtual data fields of the devices with their states, locked for this transaction. */
export async function lockDeviceVirtualFields(
  q: Queryable,
  refs: readonly DeviceRef[],
): Promise<RulesWorkerVirtualField[]> {
  if (refs.length === 0) return [];
  const { rows } = await q.query<RulesWorkerVirtualField>(
    `SELECT ${VIRTUAL_FIELD_COLUMNS}
       FROM ${PAIRS}
       JOIN virtual_data_fields v ON v.device_id = p.device_id AND v.company_id = p.company_id
      ORDER BY v.id
        FOR UPDATE OF v`,
    [pairsParam(refs)],
  );
  return rows;
}

const CHECK_COLUMNS = `s.id, s.company_id AS "companyId", s.device_id AS "deviceId", s.kind,
  s.data_field AS "dataField", s.max_silence_seconds AS "maxSilenceSeconds", s.min_value AS "minValue",
  s.max_value AS "maxValue", s.state`;

/** Active sensor checks of the devices with their states, locked for this transaction. */
export async function lockDeviceSensorChecks(
  q: Queryable,
  refs: readonly DeviceRef[],
): Promise<RulesWorkerSensorCheck[]> {
  if (refs.length === 0) return [];
  const { rows } = await q.query<RulesWorkerSensorCheck>(
    `SELECT ${CHECK_COLUMNS}
       FROM ${PAIRS}
       JOIN sensor_checks s ON s.device_id = p.device_id AND s.company_id = p.company_id
      WHERE s.is_active
      ORDER BY s.id
        FOR UPDATE OF s`,
    [pairsParam(refs)],
  );
  return rows;
}

/** A rule's row version (rules worker's rule cache, apps/rules-worker). */
export interface RuleVersionRow {
  id: number;
  device_id: number;
  /**
   * The rule row's xmin, which every UPDATE of the row changes; a change of the rule's actions touches
   * the row too (trigger rule_actions_touch_rule, migration 0012), so this covers them.
   */
  rule_v: string;
}

export interface RulesWorkerBatchInputs {
  devices: RulesWorkerDevice[];
  ruleVersions: RuleVersionRow[];
  fields: RulesWorkerVirtualField[];
  checks: RulesWorkerSensorCheck[];
  /** The virtual devices reading the batch's devices (their devices, rules, fields, checks are above). */
  virtual: VirtualDevicesOfInputs;
}

/**
 * For a worker with a rule cache: in one statement (one round trip instead of four), the batch's
 * devices as loadRulesWorkerDevices reads them, the versions of their active rules (locked FOR NO KEY
 * UPDATE when `lockRuleRows`, see apps/rules-worker rule-cache.ts), and their virtual fields and active
 * sensor checks as lockDeviceVirtualFields and lockDeviceSensorChecks read and lock them. The rows come
 * back as jsonb arrays; the CTEs run in the order the select list names them, so the rows are locked in
 * the same order (rules, fields, checks; each by id) as the separate statements did. The virtual
 * devices that read the batch's devices (migration 0028) come with it, with their inputs' latest values,
 * and count as devices of the batch: their points are computed from this batch's uplinks and evaluated
 * in the same transaction, so a batch asks nothing more for them.
 */
export async function lockRulesWorkerBatch(
  q: Queryable,
  refs: readonly DeviceRef[],
  options: { lockRuleRows: boolean },
): Promise<RulesWorkerBatchInputs> {
  if (refs.length === 0)
    return {
      devices: [],
      ruleVersions: [],
      fields: [],
      checks: [],
      virtual: { devices: [], latest: new Map() },
    };
  const { rows } = await q.query<
    VirtualDevicesRow & {
      devices: (Omit<RulesWorkerDevice, 'lastOnlineAt'> & { lastOnlineAt: string | null })[];
      rule_versions: RuleVersionRow[];
      fields: RulesWorkerVirtualField[];
      checks: RulesWorkerSensorCheck[];
    }
  >(
    `WITH p0 AS MATERIALIZED (SELECT * FROM ${PAIRS}),
     ${virtualDevicesOfPairsSql('p0')},
     p AS MATERIALIZED (SELECT device_id, company_id FROM p0 UNION SELECT id, company_id FROM vd),
     rv AS (
       SELECT r.id, r.device_id, r.xmin::text AS rule_v
         FROM p JOIN rules r ON r.device_id = p.device_id AND r.company_id = p.company_id
        WHERE r.is_active
        ORDER BY r.id
        ${options.lockRuleRows ? 'FOR NO KEY UPDATE OF r' : ''}),
     dv AS (${DEVICES_OF_PAIRS}),
     vf AS (
       SELECT ${VIRTUAL_FIELD_COLUMNS}
         FROM p JOIN virtual_data_fields v ON v.device_id = p.device_id AND v.company_id = p.company_id
        ORDER BY v.id
          FOR UPDATE OF v),
     sc AS (
       SELECT ${CHECK_COLUMNS}
         FROM p JOIN sensor_checks s ON s.device_id = p.device_id AND s.company_id = p.company_id
        WHERE s.is_active
        ORDER BY s.id
          FOR UPDATE OF s)
     SELECT
       (SELECT COALESCE(jsonb_agg(to_jsonb(dv)), '[]') FROM dv) AS devices,
       (SELECT COALESCE(jsonb_agg(to_jsonb(rv) ORDER BY rv.id), '[]') FROM rv) AS rule_versions,
       (SELECT COALESCE(jsonb_agg(to_jsonb(vf) ORDER BY vf.id), '[]') FROM vf) AS fields,
       (SELECT COALESCE(jsonb_agg(to_jsonb(sc) ORDER BY sc.id), '[]') FROM sc) AS checks,
       ${VIRTUAL_DEVICES_COLUMNS}`,
    [pairsParam(refs)],
  );
  const row = rows[0]!;
  return {
    devices: row.devices.map((d) => ({
      ...d,
      lastOnlineAt: d.lastOnlineAt === null ? null : new Date(d.lastOnlineAt),
    })),
    ruleVersions: row.rule_versions,
    fields: row.fields,
    checks: row.checks,
    virtual: readVirtualDevicesRow(row),
  };
}

export interface TimerWork {
  rules: RulesWorkerRule[];
  sensorChecks: RulesWorkerSensorCheck[];
  devices: RulesWorkerDevice[];
}

/**
 * What the timer judges: active no_data rules and no_data checks of every company that is neither blocked
 * nor deleted, locked with
 * SKIP LOCKED, so a row an uplink batch (or another worker's tick) holds is simply left for the next
 * tick instead of being waited on or evaluated twice. At most `limit` rows of each kind per tick.
 */
export async function lockTimerWork(q: Queryable, limit: number): Promise<TimerWork> {
  const rules = await q.query<RulesWorkerRule>(
    `SELECT ${RULE_COLUMNS}
       FROM rules r
      WHERE r.is_active AND r.trigger = 'no_data' AND r.time_window_seconds > 0 AND ${COMPANY_ACTIVE('r')}
      ORDER BY r.id
      LIMIT $1
        FOR UPDATE OF r SKIP LOCKED`,
    [limit],
  );
  const checks = await q.query<RulesWorkerSensorCheck>(
    `SELECT ${CHECK_COLUMNS}
       FROM sensor_checks s
      WHERE s.is_active AND s.kind = 'no_data' AND ${COMPANY_ACTIVE('s')}
      ORDER BY s.id
      LIMIT $1
        FOR UPDATE OF s SKIP LOCKED`,
    [limit],
  );
  const refs = new Map<number, DeviceRef>();
  for (const row of [...rules.rows, ...checks.rows])
    refs.set(row.deviceId, { deviceId: row.deviceId, companyId: row.companyId });
  const devices = await loadRulesWorkerDevices(q, [...refs.values()]);
  return { rules: rules.rows, sensorChecks: checks.rows, devices };
}

export interface StateRow {
  id: number;
  company_id: number;
  state: unknown;
}

/**
 * New rule states; `last_fired_at` moves forward for rules that fired. Returns each written row's new
 * version (`xmin`), which the rules worker's rule cache keeps: no read of the versions after the update.
 */
export async function saveRuleStates(
  q: Queryable,
  rows: readonly (StateRow & { last_fired_at: string | null })[],
): Promise<{ id: number; version: string }[]> {
  if (rows.length === 0) return [];
  const result = await q.query<{ id: number; version: string }>(
    `UPDATE rules t SET state = r.state, updated_at = now(),
            last_fired_at = GREATEST(t.last_fired_at, r.last_fired_at)
       FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, company_id bigint, state jsonb, last_fired_at timestamptz)
      WHERE t.id = r.id AND t.company_id = r.company_id
     RETURNING t.id, t.xmin::text AS version`,
    [jsonParam(rows)],
  );
  return result.rows;
}

export async function saveVirtualFieldStates(q: Queryable, rows: readonly StateRow[]): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `UPDATE virtual_data_fields t SET state = r.state
       FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, company_id bigint, state jsonb)
      WHERE t.id = r.id AND t.company_id = r.company_id`,
    [jsonParam(rows)],
  );
}

export async function saveSensorCheckStates(q: Queryable, rows: readonly StateRow[]): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `UPDATE sensor_checks t SET state = r.state, last_checked_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, company_id bigint, state jsonb)
      WHERE t.id = r.id AND t.company_id = r.company_id`,
    [jsonParam(rows)],
  );
}
