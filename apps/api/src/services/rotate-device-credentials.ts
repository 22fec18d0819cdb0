/**
 * POST /core/devices/{id}/credentials: a new access token for a device (ROLE_ADMIN or ROLE_MAINUSER,
 * else 90001). 256 random bits; only its sha-256 (hex) is stored in devices.credentials_hash, so the token
 * is shown exactly once, in this answer. The previous token stops working at once.
 */
import type { Db } from '@iot/db';
import { recordAuditEvent, setDeviceCredentialsHash, withTenant } from '@iot/db';
import { apiError } from '../lib/errors';
import { randomToken, sha256 } from '../lib/tokens';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

export async function rotateDeviceCredentials(db: Db, auth: AuthContext, id: number): Promise<string> {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_EDIT_DEVICES');
  const token = randomToken();
  await withTenant(db, auth.companyId, async (tx) => {
    if (!(await setDeviceCredentialsHash(tx, auth.companyId, id, sha256(token)))) {
      throw apiError('DEVICE_NOT_FOUND');
    }
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'device.credentials.rotate',
      details: { device_id: id },
    });
  });
  return token;
}
