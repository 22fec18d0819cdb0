/**
 * Limits per client (issue #27): creating one more device, user or dashboard than the client's limit
 * allows is refused (90040–90042), as is saving more rules on one device (90043). Call inside the
 * transaction that creates the row, so the refusal leaves nothing behind.
 */
import type { Queryable } from '@iot/db';
import { type ClientLimitKey, countClientUsage, countDeviceRules, findClientLimits } from '@iot/db';
import { apiError } from '../lib/errors';

const COUNTED = {
  max_devices: { usage: 'devices', error: 'DEVICE_LIMIT_REACHED' },
  max_users: { usage: 'users', error: 'USER_LIMIT_REACHED' },
  max_dashboards: { usage: 'dashboards', error: 'DASHBOARD_LIMIT_REACHED' },
} as const satisfies Partial<Record<ClientLimitKey, unknown>>;

/** Refuses when the company already has as many devices, users or dashboards as its limit allows. */
export async function refuseAtLimit(
  q: Queryable,
  companyId: number,
  key: keyof typeof COUNTED,
): Promise<void> {
  const limit = (await findClientLimits(q, companyId))[key];
  if (limit === undefined) return;
  const used = (await countClientUsage(q, companyId))[COUNTED[key].usage];
  if (used >= limit) throw apiError(COUNTED[key].error, { limit, used });
}

/** After rules were saved: refuses (rolling the transaction back) when the device has more than allowed. */
export async function refuseTooManyRules(q: Queryable, companyId: number, deviceId: number): Promise<void> {
  const limit = (await findClientLimits(q, companyId)).max_rules_per_device;
  if (limit === undefined) return;
  const used = await countDeviceRules(q, companyId, deviceId);
  if (used > limit) throw apiError('RULE_LIMIT_REACHED', { limit, used });
}
