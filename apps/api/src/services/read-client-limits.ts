/** The client's limits with its current use (issue #27), for company settings and the super admin. */
import type { Queryable } from '@iot/db';
import { CLIENT_LIMIT_KEYS, countClientUsage, findClientLimits } from '@iot/db';

export async function readClientLimits(q: Queryable, companyId: number) {
  // One after the other: q may be a transaction, which runs one query at a time anyway.
  const limits = await findClientLimits(q, companyId);
  const usage = await countClientUsage(q, companyId);
  const used = {
    max_devices: usage.devices,
    max_users: usage.users,
    max_dashboards: usage.dashboards,
    max_rules_per_device: usage.maxRulesOnOneDevice,
    // Uplinks are counted by ingest, not here.
    max_uplinks_per_minute: null,
    // The retention the company set itself, beside the cap.
    max_data_retention_days: usage.dataRetentionDays,
  };
  return CLIENT_LIMIT_KEYS.map((key) => ({ key, limit: limits[key] ?? null, used: used[key] }));
}
