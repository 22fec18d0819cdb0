/**
 * POST /core/devices/{id}/downlink and GET /core/devices/{id}/downlinks. A command is checked with the
 * domain's parseActionCommand first (92 unknown command, 94 bad parameter, nothing recorded), then sent
 * through the notifier's sendDownlink (the device's driver encodes it; 93 when it cannot, or when a LoRaWAN
 * device has no downlink route; a `downlinks` row queued -> sent, or failed with 95 when the broker or
 * network server does not take it). ROLE_ADMIN/ROLE_MAINUSER (90003); a
 * device outside the acting company is 10.
 */
import type { Db } from '@iot/db';
import { type DownlinkRecord, findDevice, listDownlinks, withTenant } from '@iot/db';
import { type DownlinkPublish, loadDownlinkDevice, sendDownlink } from '@iot/delivery';
import { apiError, parseActionCommand } from '@iot/domain';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

export async function sendDeviceDownlink(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  input: { command: string; params?: Record<string, unknown> },
  publish: DownlinkPublish | undefined,
  /** HTTP_ACTIONS_ALLOW_PRIVATE: a network server (TTS push URL, ChirpStack API) may be a private address. */
  allowPrivateTargets = false,
) {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_SEND_COMMANDS');
  const device = await loadDownlinkDevice(db, auth.companyId, deviceId);
  if (!device) throw apiError('DEVICE_NOT_FOUND');
  const parsed = parseActionCommand({ ...(input.params ?? {}), command: input.command });
  if (!parsed.ok) {
    throw parsed.parameter === 'command'
      ? apiError('DOWNLINK_COMMAND_UNKNOWN', { command: input.command })
      : apiError('DOWNLINK_PARAMETER_INVALID', { parameter: parsed.parameter });
  }
  const { command, ...params } = parsed.value;
  return sendAndPresent({ db, device, command, params, publish, userId: auth.user.id, allowPrivateTargets });
}

/** Sends a checked command to a loaded device and answers as the downlink routes do. */
export async function sendAndPresent(request: Parameters<typeof sendDownlink>[0]) {
  const sent = await sendDownlink(request);
  return {
    id: sent.id,
    state: sent.state,
    command: request.command,
    params: request.params,
    fport: sent.fPort,
    encoded: Buffer.from(sent.bytes).toString('hex'),
    via: sent.via,
    topic: sent.topic,
    reference: sent.reference,
  };
}

export async function listDeviceDownlinks(db: Db, auth: AuthContext, deviceId: number, limit: number) {
  return withTenant(db, auth.companyId, async (tx) => {
    if (!(await findDevice(tx, auth.companyId, deviceId))) throw apiError('DEVICE_NOT_FOUND');
    return listDownlinks(tx, auth.companyId, deviceId, limit);
  });
}

export function presentDownlink(d: DownlinkRecord) {
  return {
    id: d.id,
    device_id: d.deviceId,
    command: d.command,
    params: d.params,
    encoded: d.encoded,
    fport: d.fport,
    state: d.state,
    attempts: d.attempts,
    error: d.error,
    reference: d.reference,
    created_by: d.createdBy,
    rule_id: d.ruleId,
    created_at: d.createdAt.toISOString(),
    sent_at: d.sentAt ? d.sentAt.toISOString() : null,
    acknowledged_at: d.acknowledgedAt ? d.acknowledgedAt.toISOString() : null,
  };
}
