/** Limits per client and what the client uses of them (issue #27; migration 0040). */
import type { Queryable } from '../db';

export const CLIENT_LIMIT_KEYS = [
  'max_devices',
  'max_users',
  'max_dashboards',
  'max_rules_per_device',
  'max_uplinks_per_minute',
  // Days device data is kept at most (issue #29): caps the company's data_retention_days.
  'max_data_retention_days',
] as const;
export type ClientLimitKey = (typeof CLIENT_LIMIT_KEYS)[number];
/** A missing key: no limit. */
export type ClientLimits = Partial<Record<ClientLimitKey, number>>;

export async function findClientLimits(q: Queryable, companyId: number): Promise<ClientLimits> {
  const { rows } = await q.query<{ limits: ClientLimits }>('SELECT limits FROM companies WHERE id = $1', [
    companyId,
  ]);
  return rows[0]?.limits ?? {};
}

/** Replaces the client's limits; null for a key removes that limit. */
export async function setClientLimits(
  q: Queryable,
  companyId: number,
  limits: Partial<Record<ClientLimitKey, number | null>>,
): Promise<void> {
  const current = await findClientLimits(q, companyId);
  const next: Record<string, number> = { ...current };
  for (const [key, value] of Object.entries(limits)) {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  }
  await q.query('UPDATE companies SET limits = $2, updated_at = now() WHERE id = $1', [
    companyId,
    JSON.stringify(next),
  ]);
}

export interface ClientUsage {
  /** The company's own data retention setting in days (null: unlimited). */
  dataRetentionDays: number | null;
  devices: number;
  users: number;
  dashboards: number;
  /** The most rules any one device of the company has. */
  maxRulesOnOneDevice: number;
}

export async function countClientUsage(q: Queryable, companyId: number): Promise<ClientUsage> {
  const { rows } = await q.query<
    Omit<ClientUsage, 'dataRetentionDays'> & { max_rules: number; data_retention_days: number | null }
  >(
    `SELECT (SELECT data_retention_days FROM companies WHERE id = $1) AS data_retention_days,
            (SELECT count(*)::int FROM devices WHERE company_id = $1) AS devices,
            (SELECT count(*)::int FROM users WHERE company_id = $1 AND deleted_at IS NULL) AS users,
            (SELECT count(*)::int FROM dashboards WHERE company_id = $1) AS dashboards,
            (SELECT coalesce(max(n), 0)::int FROM (SELECT count(*) AS n FROM rules WHERE company_id = $1
               AND device_id IS NOT NULL GROUP BY device_id) per_device) AS max_rules`,
    [companyId],
  );
  const r = rows[0]!;
  return {
    dataRetentionDays: r.data_retention_days,
    devices: r.devices,
    users: r.users,
    dashboards: r.dashboards,
    maxRulesOnOneDevice: r.max_rules,
  };
}

export async function countDeviceRules(q: Queryable, companyId: number, deviceId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM rules WHERE company_id = $1 AND device_id = $2',
    [companyId, deviceId],
  );
  return rows[0]?.n ?? 0;
}
