import { createHash } from 'node:crypto';
import type { DecodeResult } from '@iot/codecs';
import type { UplinkEnvelope, UplinkSource } from '@iot/contracts/uplinks';
import type { CodecRunner } from '../decode/codec-runner.js';
import { decodeUplink, decodeUplinkSync, type UplinkPayload } from '../decode/decode-uplink.js';
import { readGeo } from '../decode/read-geo.js';
import type { DeviceDirectory, IngestDevice } from '../devices/device-directory.js';

/** One uplink as a front door understood it, before decoding. */
export interface IncomingUplink {
  device: IngestDevice;
  source: UplinkSource;
  payload: UplinkPayload;
  receivedAt: Date;
  /** The network server's time of the uplink, when it gives one. */
  measuredAt?: Date | undefined;
  /** The source's id of this uplink; when absent one is derived (see below). */
  messageId?: string | undefined;
  fcnt?: number | undefined;
  rssi?: number | undefined;
  snr?: number | undefined;
  metadata?: Record<string, unknown> | undefined;
}

const ID_KEYS = ['message_id', 'messageId', 'id'] as const;
const TIME_KEYS = ['time', 'timestamp', 'ts'] as const;
const ID_KEY_SET: ReadonlySet<string> = new Set(ID_KEYS);
const TIME_KEY_SET: ReadonlySet<string> = new Set(TIME_KEYS);
// A device clock far in the future would pin device_current's fields; such a time is not believed.
const MAX_CLOCK_AHEAD_MS = 24 * 3600_000;
// Nor one before 2000: an unset clock (epoch 0) or a hostile date the database cannot hold (before
// 4713 BC), which the storage writer would refuse after the uplink was acknowledged.
const EARLIEST_BELIEVED_MS = Date.UTC(2000, 0, 1);

/** The time when a clock could have told it, else undefined (the receive time counts instead). */
function believable(date: Date | undefined, receivedAt: Date): Date | undefined {
  if (!date) return undefined;
  const ms = date.getTime();
  if (Number.isNaN(ms) || ms < EARLIEST_BELIEVED_MS || ms - receivedAt.getTime() > MAX_CLOCK_AHEAD_MS)
    return undefined;
  return date;
}

function readTime(value: unknown, receivedAt: Date): Date | undefined {
  let date: Date | undefined;
  if (typeof value === 'number' && Number.isFinite(value))
    date = new Date(value < 1e11 ? value * 1000 : value);
  else if (typeof value === 'string' && value !== '') date = new Date(value);
  return believable(date, receivedAt);
}

/**
 * A JSON body may name its own message id (`message_id`, `messageId`, `id`) and measurement time
 * (`time`, `timestamp`, `ts`: ISO text or epoch seconds/milliseconds). They are taken out of the data.
 */
function takeJsonEnvelopeFields(json: Record<string, unknown>, receivedAt: Date) {
  let messageId: string | undefined;
  let measuredAt: Date | undefined;
  for (const key of ID_KEYS) {
    const value = json[key];
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') {
      messageId = String(value);
      break;
    }
  }
  for (const key of TIME_KEYS) {
    if (!Object.hasOwn(json, key)) continue;
    measuredAt = readTime(json[key], receivedAt);
    if (measuredAt) break;
  }
  // The data: the object without those fields, copied in one loop (no spread and deletes, which
  // turn the copy into a slow dictionary object). A `__proto__` key is copied as an own property.
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(json)) {
    const value = json[key];
    if (isEnvelopeField(key, value)) continue;
    if (key === '__proto__')
      Object.defineProperty(data, key, { value, enumerable: true, writable: true, configurable: true });
    else data[key] = value;
  }
  return { data, messageId, measuredAt };
}

/** A message id taken out of the data (non-empty string or number), or any time field. */
function isEnvelopeField(key: string, value: unknown): boolean {
  if (TIME_KEY_SET.has(key)) return true;
  return ID_KEY_SET.has(key) && ((typeof value === 'string' && value !== '') || typeof value === 'number');
}

/** Without an id from the source, the id is a hash of device, payload and the second of measurement. */
function derivedMessageId(deviceId: number, payload: UplinkPayload, second: number): string {
  const hash = createHash('sha256').update(`${deviceId}:${second}:`);
  if (payload.bytes) hash.update(payload.bytes);
  else hash.update(JSON.stringify(payload.json ?? payload.decoded ?? null));
  return `h:${hash.digest('hex').slice(0, 32)}`;
}

/**
 * Decodes an uplink and builds what goes to the event log: an `uplink` envelope with the data, or a
 * `decode_failed` one carrying the raw bytes and the errors (kept in the device log, never dropped).
 */
export async function buildUplinkEnvelope(
  uplink: IncomingUplink,
  deps: { directory: DeviceDirectory; codecs: CodecRunner },
): Promise<UplinkEnvelope> {
  const prepared = prepareUplink(uplink);
  const result = await decodeUplink({
    device: uplink.device,
    payload: prepared.payload,
    receivedAt: uplink.receivedAt,
    ...deps,
  });
  return envelopeOf(uplink, prepared, result);
}

/**
 * buildUplinkEnvelope without waiting, for the MQTT front door's hot path: the envelope, or undefined
 * when the uplink needs the device's user codec (then buildUplinkEnvelope builds it).
 */
export function buildUplinkEnvelopeSync(uplink: IncomingUplink): UplinkEnvelope | undefined {
  const prepared = prepareUplink(uplink);
  const result = decodeUplinkSync({
    device: uplink.device,
    payload: prepared.payload,
    receivedAt: uplink.receivedAt,
  });
  return result && envelopeOf(uplink, prepared, result);
}

interface PreparedUplink {
  payload: UplinkPayload;
  messageId: string;
  measuredAt: Date;
}

function prepareUplink(uplink: IncomingUplink): PreparedUplink {
  const { device, receivedAt } = uplink;
  let payload = uplink.payload;
  let messageId = uplink.messageId;
  let measuredAt = believable(uplink.measuredAt, receivedAt);
  if (payload.json) {
    const own = takeJsonEnvelopeFields(payload.json, receivedAt);
    payload = { ...payload, json: own.data };
    messageId ??= own.messageId;
    measuredAt ??= own.measuredAt;
  }
  // Without a time from the source the receive time counts, to the second: a retry of the same message
  // (QoS 1 DUP, HTTP retry) within that second meets the same (device, time, message id) and is stored once.
  measuredAt ??= new Date(Math.floor(receivedAt.getTime() / 1000) * 1000);
  messageId ??= derivedMessageId(device.id, payload, Math.floor(measuredAt.getTime() / 1000));
  return { payload, messageId, measuredAt };
}

function envelopeOf(uplink: IncomingUplink, prepared: PreparedUplink, result: DecodeResult): UplinkEnvelope {
  const { device, receivedAt } = uplink;
  const { payload, messageId, measuredAt } = prepared;
  const envelope: UplinkEnvelope = {
    v: 1,
    kind: result.errors.length > 0 ? 'decode_failed' : 'uplink',
    deviceId: device.id,
    companyId: device.companyId,
    source: uplink.source,
    receivedAt: receivedAt.toISOString(),
    measuredAt: measuredAt.toISOString(),
    messageId,
    data: result.errors.length > 0 ? {} : result.data,
  };
  const geo = envelope.kind === 'uplink' ? readGeo(result.data) : undefined;
  if (geo) envelope.geo = geo;
  if (uplink.fcnt !== undefined) envelope.fcnt = uplink.fcnt;
  if (payload.fPort !== undefined) envelope.fPort = payload.fPort;
  if (uplink.rssi !== undefined) envelope.rssi = uplink.rssi;
  if (uplink.snr !== undefined) envelope.snr = uplink.snr;
  if (result.warnings.length > 0) envelope.warnings = result.warnings;
  if (result.errors.length > 0) {
    envelope.errors = result.errors;
    const raw = payload.bytes ?? new TextEncoder().encode(JSON.stringify(payload.json ?? null));
    envelope.raw = Buffer.from(raw).toString('base64');
  }
  if (uplink.metadata) envelope.metadata = uplink.metadata;
  return envelope;
}
