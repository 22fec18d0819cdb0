import type { UplinkEnvelope } from '@iot/contracts/uplinks';
import { type Logger, metrics } from '@iot/runtime';
import type { CodecRunner } from '../decode/codec-runner.js';
import type { DeviceDirectory, IngestCompany } from '../devices/device-directory.js';
import { buildUplinkEnvelope, type IncomingUplink } from './build-uplink-envelope.js';
import type { UplinkGate, UplinkRefusal } from './uplink-gate.js';
import { OverloadedError, type UplinkPublisher } from './uplink-publisher.js';

/** What every front door shares: lookups, the company gate, decoding, the publisher and the logger. */
export interface IngestContext {
  directory: DeviceDirectory;
  codecs: CodecRunner;
  gate: UplinkGate;
  publisher: UplinkPublisher;
  log: Logger;
}

interface GatedDevice {
  id: number;
  companyId: number;
}

function judge(
  ctx: IngestContext,
  device: GatedDevice,
  company: IngestCompany | null,
  door: string,
): UplinkRefusal | null {
  const refusal = ctx.gate.admit(device.companyId, company);
  if (refusal) ctx.gate.refused(refusal, device, door);
  return refusal;
}

/**
 * The company's verdict on one uplink of the device (uplink-gate.ts): null lets it pass (and counts it
 * against the minute's limit); a refusal is counted and logged. Call before anything is written.
 */
export async function gateUplink(
  ctx: IngestContext,
  device: GatedDevice,
  door: string,
): Promise<UplinkRefusal | null> {
  return judge(ctx, device, await ctx.directory.company(device.companyId), door);
}

/** gateUplink without a lookup: undefined when the company is not cached (then call gateUplink). */
export function gateUplinkCached(
  ctx: IngestContext,
  device: GatedDevice,
  door: string,
): UplinkRefusal | null | undefined {
  const company = ctx.directory.cachedCompany(device.companyId);
  return company === undefined ? undefined : judge(ctx, device, company, door);
}

/** Whether the device's company may send at all (for connects: counts nothing against the limit). */
export async function companyMaySend(ctx: IngestContext, device: GatedDevice): Promise<boolean> {
  const company = await ctx.directory.company(device.companyId);
  return company !== null && company.refusal === null;
}

/**
 * Decodes an uplink and hands it to the event log. `wait` (MQTT) waits as long as the log needs;
 * `refuse` (HTTP) throws `OverloadedError` when the log does not accept within the publisher's timeout.
 * Resolves only once the log accepted the envelope.
 */
export async function acceptUplink(
  ctx: IngestContext,
  uplink: IncomingUplink,
  mode: 'wait' | 'refuse',
): Promise<UplinkEnvelope> {
  const envelope = await buildUplinkEnvelope(uplink, ctx);
  return publishEnvelope(ctx, envelope, mode);
}

/** Hands a built envelope to the event log (see acceptUplink); resolves once the log accepted it. */
export async function publishEnvelope(
  ctx: IngestContext,
  envelope: UplinkEnvelope,
  mode: 'wait' | 'refuse',
): Promise<UplinkEnvelope> {
  metrics.uplinksReceived.inc({ front_door: envelope.source });
  try {
    if (mode === 'wait') await ctx.publisher.publish([envelope]);
    else await ctx.publisher.publishOrRefuse([envelope]);
  } catch (error) {
    countRefused(envelope.source, error);
    throw error;
  }
  metrics.uplinksAccepted.inc({ front_door: envelope.source });
  warnIfNotDecoded(ctx, envelope);
  return envelope;
}

function countRefused(frontDoor: string, error: unknown): void {
  metrics.uplinksRefused.inc({
    front_door: frontDoor,
    reason: error instanceof OverloadedError ? 'overloaded' : 'event_log',
  });
}

/** Says so in the service log when an accepted envelope is a failed decode (kept in the device log). */
function warnIfNotDecoded(ctx: IngestContext, envelope: UplinkEnvelope): void {
  if (envelope.kind !== 'decode_failed') return;
  metrics.decodeErrors.inc();
  ctx.log.warn(
    { deviceId: envelope.deviceId, messageId: envelope.messageId, errors: envelope.errors },
    'uplink not decoded, kept in the device log',
  );
}

/**
 * publishEnvelope with a callback (the MQTT front door's hot path, no promise per uplink): `done()`
 * once the log accepted the envelope, `done(error)` when it did not. Waits as long as the log needs.
 */
export function submitEnvelope(
  ctx: IngestContext,
  envelope: UplinkEnvelope,
  done: (error?: unknown) => void,
): void {
  metrics.uplinksReceived.inc({ front_door: envelope.source });
  ctx.publisher.submit([envelope], (error) => {
    if (error === undefined) {
      metrics.uplinksAccepted.inc({ front_door: envelope.source });
      warnIfNotDecoded(ctx, envelope);
    } else countRefused(envelope.source, error);
    done(error);
  });
}

/** A device that may send: it exists and is not disposed. */
export function refusalFor(device: { state: string } | null): 'unknown_device' | 'disposed' | null {
  if (!device) return 'unknown_device';
  if (device.state === 'disposed') return 'disposed';
  return null;
}
