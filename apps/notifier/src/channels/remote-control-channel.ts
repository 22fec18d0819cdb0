import type { Db } from '@iot/db';
import { type DownlinkPublish, isDownlinkError, loadDownlinkDevice, sendDownlink } from '@iot/delivery';
import { type ActionContext, type NotificationChannel, PermanentDeliveryError } from '../context';

/** Remote control action: a command with its parameters to a device of the same company. */
export interface RemoteControlConfig {
  targetDeviceId: number;
  command: string;
  params: Record<string, unknown>;
}

/** A 95 whose network server refused in a way a retry meets again (sendDownlink's `permanent`). */
function refusedForGood(details: unknown): boolean {
  return (
    typeof details === 'object' && details !== null && (details as { permanent?: unknown }).permanent === true
  );
}

function reasonOf(details: unknown): string {
  const reason = (details as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? reason : JSON.stringify(details);
}

export function createRemoteControlChannel(
  db: Db,
  publish: () => Promise<DownlinkPublish | undefined>,
  /** HTTP_ACTIONS_ALLOW_PRIVATE: a network server (TTS push URL, ChirpStack API) may be a private address. */
  options: { allowPrivateTargets?: boolean } = {},
): NotificationChannel<RemoteControlConfig> {
  return {
    kind: 'remote_control',
    async send(ctx: ActionContext, config: RemoteControlConfig) {
      // The target is looked up within the acting company only: another company's device id is "not found".
      const device = await loadDownlinkDevice(db, ctx.company.id, config.targetDeviceId);
      if (!device) throw new PermanentDeliveryError(`device ${config.targetDeviceId} not found`);
      try {
        const sent = await sendDownlink({
          db,
          device,
          command: config.command,
          params: config.params,
          publish: await publish(),
          ruleId: ctx.rule?.id ?? null,
          jobKey: ctx.idempotencyKey,
          allowPrivateTargets: options.allowPrivateTargets ?? false,
        });
        return {
          recipient: device.uuid,
          status: 'sent',
          reference: String(sent.id),
          details: {
            command: config.command,
            bytes: Buffer.from(sent.bytes).toString('hex'),
            via: sent.via,
            ...(sent.reference === null ? {} : { networkServerReference: sent.reference }),
          },
        };
      } catch (error) {
        // 92 to 94 are the action's own fault and stay so; 95 (broker or network server unreachable) is
        // worth a retry, unless the network server refused in a way a retry meets again (token, device).
        // The log and the company's message (migration 0024) show the reason, not only the code's text.
        if (!isDownlinkError(error)) throw error;
        const text = `${error.code} ${error.message}: ${reasonOf(error.details)}`;
        if (error.code !== 95 || refusedForGood(error.details)) throw new PermanentDeliveryError(text);
        throw new Error(text);
      }
    },
  };
}
