/**
 * GET /core/devices/{id}: one of the acting company's devices. Credentials (whether a device token is
 * set) and the integration info are for ROLE_ADMIN and ROLE_MAINUSER only (spec section 6: they edit
 * devices); other users get the device without them.
 */
import type { Db } from '@iot/db/db';
import { type DeviceRecord, findDevice } from '@iot/db/repositories/devices';
import { countActiveIntegrationTokens } from '@iot/db/repositories/integration-tokens';
import { withTenant } from '@iot/db/tenant';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

export interface DeviceDetails {
  device: DeviceRecord;
  /** Only for managers. */
  restricted: { activeIntegrationTokens: number } | null;
}

export async function getDevice(db: Db, auth: AuthContext, id: number): Promise<DeviceDetails> {
  return withTenant(db, auth.companyId, async (tx) => {
    const device = await findDevice(tx, auth.companyId, id);
    if (!device) throw apiError('DEVICE_NOT_FOUND');
    const restricted = isManager(auth)
      ? { activeIntegrationTokens: await countActiveIntegrationTokens(tx, auth.companyId) }
      : null;
    return { device, restricted };
  });
}
