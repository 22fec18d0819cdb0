/**
 * GET /core/devices/{id}: one of the acting company's devices. Credentials (whether a device token is
 * set) and the integration info are for ROLE_ADMIN and ROLE_MAINUSER only (spec section 6: they edit
 * devices); other users get the device without them. The integration info says how a command would
 * leave (its MQTT topic, The Things Stack, ChirpStack, or nowhere: a LoRaWAN device without a route), so
 * the console's command dialog can say so before anything is sent.
 */
import type { Db } from '@iot/db';
import {
  countActiveIntegrationTokens,
  type DeviceRecord,
  findDevice,
  findVirtualDeviceDefinition,
  withTenant,
} from '@iot/db';
import { findDownlinkRoute } from '@iot/delivery';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

export interface DeviceDetails {
  device: DeviceRecord;
  /** Only for managers. */
  restricted: { activeIntegrationTokens: number; downlinkVia: 'mqtt' | 'tts' | 'chirpstack' | null } | null;
  /** A virtual device's formulas and inputs (issue 23), shown in the info drawer. */
  virtual: Awaited<ReturnType<typeof findVirtualDeviceDefinition>>;
}

export async function getDevice(db: Db, auth: AuthContext, id: number): Promise<DeviceDetails> {
  return withTenant(db, auth.companyId, async (tx) => {
    const device = await findDevice(tx, auth.companyId, id);
    if (!device) throw apiError('DEVICE_NOT_FOUND');
    const restricted = isManager(auth)
      ? {
          activeIntegrationTokens: await countActiveIntegrationTokens(tx, auth.companyId),
          downlinkVia: (await findDownlinkRoute(tx, device))?.via ?? null,
        }
      : null;
    const virtual = await findVirtualDeviceDefinition(tx, auth.companyId, id);
    return { device, restricted, virtual };
  });
}
