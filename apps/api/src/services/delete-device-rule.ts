import type { Db } from '@iot/db';
import { deleteRule, findDevice, withTenant } from '@iot/db';
import { isApiError } from '@iot/domain';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

/** DELETE /core/devices/{device_id}/rules/{rule_id}: 90004 without the role, 10 device, 50 rule, 83 failure. */
export async function deleteDeviceRule(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  ruleId: number,
): Promise<void> {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_RULES');
  try {
    await withTenant(db, auth.companyId, async (tx) => {
      if (!(await findDevice(tx, auth.companyId, deviceId))) throw apiError('DEVICE_NOT_FOUND');
      if (!(await deleteRule(tx, auth.companyId, deviceId, ruleId))) throw apiError('RULE_NOT_FOUND');
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    throw apiError('RULE_DELETE_FAILED');
  }
}
