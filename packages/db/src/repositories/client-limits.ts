/** Limits per client and what the client uses of them (issue #27; migration 0040). */
import type { Queryable } from '../db';

export const CLIENT_LIMIT_KEYS = [
  'max_devices',
  'max_users',
  'max_dashboards',
  'max_rules_per_device',
  'max_uplinks_per_minute',
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
  devices: number;
  users: number;
  dashboards: number;
  /** The most rules any one device of the company has. */
  maxRulesOnOneDevice: number;
}

export async function countClientUsage(q: Queryable, companyId: number): Promise<ClientUsage> {
  const { rows } = await q.query<ClientUsage & { max_rules: number }>(
    `SELECT (SELECT count(*)::int FROM devices WHERE company_id = $1) AS devices,
            (SELECT count(*)::int FROM users WHERE company_id = $1 AND deleted_at IS NULL) AS users,
            (SELECT count(*)::int FROM dashboards WHERE company_id = $1) AS dashboards,
            (SELECT coalesce(max(n), 0)::int FROM (SELECT count(*) AS n FROM rules WHERE company_id = $1
               AND device_id IS NOT NULL GROUP BY device_id) per_device) AS max_rules`,
    [companyId],
  );
  const r = rows[0]!;
  return { devices: r.devices, users: r.users, dashboards: r.dashboards, maxRulesOnOneDevice: r.max_rules };
}

export async function countDeviceRules(q: Queryable, companyId: number, deviceId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM rules WHERE company_id = $1 AND device_id = $2',
    [companyId, deviceId],
  );
  return rows[0]?.n ?? 0;
}
