/**
 * A valve or pump a member shares with its water association with control (issue #26): the association
 * and its admin members (main users and admins) switch it with the spec's valve and pump commands, and
 * nothing more. The share is found as the acting company (row-level security: the association and its
 * admins see the association's shares); only then is the owner's device loaded and the command sent in
 * the owner's name (its downlink history shows who sent it). 90055 not shared, 90057 read-only share,
 * 90058 any other command; then the downlink codes 92 to 95 as for one's own devices.
 */
import { type Db, findSharedDevice } from '@iot/db';
import { type DownlinkPublish, loadDownlinkDevice } from '@iot/delivery';
import { apiError, isWaterShareCommand, parseActionCommand } from '@iot/domain';
import type { AuthContext } from '../types';
import { sendAndPresent } from './device-downlinks';
import { inWaterScope, requireWaterManager } from './water-access';

export async function switchSharedDevice(
  db: Db,
  auth: AuthContext,
  nwaId: number,
  deviceId: number,
  input: { command: string; params?: Record<string, unknown> },
  publish: DownlinkPublish | undefined,
  allowPrivateTargets = false,
) {
  const share = await inWaterScope(db, auth, async (tx) => {
    await requireWaterManager(tx, auth, nwaId);
    const found = await findSharedDevice(tx, nwaId, deviceId);
    if (!found) throw apiError('SHARED_DEVICE_NOT_FOUND');
    return found;
  });
  if (share.access !== 'control') throw apiError('SHARED_DEVICE_READ_ONLY');
  const parsed = parseActionCommand({ ...(input.params ?? {}), command: input.command });
  if (!parsed.ok && parsed.parameter === 'command')
    throw apiError('DOWNLINK_COMMAND_UNKNOWN', { command: input.command });
  if (!isWaterShareCommand(input.command))
    throw apiError('WATER_COMMAND_NOT_ALLOWED', { command: input.command });
  if (!parsed.ok) throw apiError('DOWNLINK_PARAMETER_INVALID', { parameter: parsed.parameter });
  const device = await loadDownlinkDevice(db, share.ownerCompanyId, deviceId);
  if (!device) throw apiError('SHARED_DEVICE_NOT_FOUND');
  const { command, ...params } = parsed.value;
  // In the owner's name: the owner's device, its driver and its downlink route.
  return sendAndPresent({ db, device, command, params, publish, userId: auth.user.id, allowPrivateTargets });
}
