import { type DecodeResult, getDriver } from '@iot/codecs';
import { metrics, secondsSince } from '@iot/runtime';
import type { DeviceDirectory, IngestDevice } from '../devices/device-directory.js';
import type { CodecRunner } from './codec-runner.js';
import { flattenFields } from './flatten-fields.js';

/** An uplink's payload as a front door received it. */
export interface UplinkPayload {
  /** Raw bytes for the device's decoder (MQTT/HTTP body, LoRaWAN FRMPayload). */
  bytes?: Uint8Array;
  /** A JSON object of data fields (MQTT/HTTP JSON body). */
  json?: Record<string, unknown>;
  /** Already decoded by the network server (ChirpStack `object`, TTS `decoded_payload`). */
  decoded?: Record<string, unknown>;
  fPort?: number;
}

// Bound once: the hot path observes without looking its labels up.
const driverSeconds = metrics.codecSeconds.labels('driver');
const userCodecSeconds = metrics.codecSeconds.labels('sandbox');

const failed = (message: string): DecodeResult => ({ data: {}, warnings: [], errors: [message] });

/**
 * Decodes one uplink for its device, in this order: what the network server decoded; the device's
 * built-in driver (`devices.driver_id`, which also checks JSON fields against the catalogue); its user
 * codec (`devices.codec_id`, run off the event loop by the CodecRunner); a JSON object taken as
 * data fields. Bytes with no decoder are a decode failure. Never throws: failures come back in `errors`.
 */
export async function decodeUplink(options: {
  device: IngestDevice;
  payload: UplinkPayload;
  receivedAt: Date;
  directory: DeviceDirectory;
  codecs: CodecRunner;
}): Promise<DecodeResult> {
  const { device, payload, receivedAt } = options;
  const decoded = decodeUplinkSync(options);
  if (decoded) return decoded;
  const bytes = payload.bytes ?? new Uint8Array();
  const codecId = device.codecId as number;
  const codec = await options.directory.codec(device.companyId, codecId);
  if (codec === null) return failed(`codec ${codecId} not found`);
  const started = performance.now();
  const result = await options.codecs.decodeUplink(device, codecId, codec, {
    bytes,
    fPort: payload.fPort,
    recvTime: receivedAt,
  });
  userCodecSeconds.observe(secondsSince(started));
  return result;
}

/** The uplink goes to the device's user codec in the sandbox (asynchronous): bytes, no driver, a codec. */
export function needsUserCodec(device: IngestDevice, payload: UplinkPayload): boolean {
  return !payload.decoded && !device.driverId && device.codecId !== null && !payload.json;
}

/**
 * decodeUplink without the user codec: the result when the uplink needs no sandbox (what the network
 * server decoded, a built-in driver, JSON fields, a failure), else undefined: the device's user codec
 * decodes it (asynchronously, in the sandbox).
 */
export function decodeUplinkSync(options: {
  device: IngestDevice;
  payload: UplinkPayload;
  receivedAt: Date;
}): DecodeResult | undefined {
  const { device, payload, receivedAt } = options;
  if (payload.decoded) {
    const warnings: string[] = [];
    return { data: flattenFields(payload.decoded, warnings), warnings, errors: [] };
  }
  if (device.driverId) {
    const driver = getDriver(device.driverId);
    if (!driver) return failed(`unknown driver ${device.driverId}`);
    const bytes = payload.bytes ?? new Uint8Array();
    const started = performance.now();
    try {
      return driver.decodeUplink({ bytes, fPort: payload.fPort, json: payload.json, receivedAt });
    } catch (error) {
      return failed(`driver ${device.driverId} failed: ${(error as Error).message}`);
    } finally {
      driverSeconds.observe(secondsSince(started));
    }
  }
  if (needsUserCodec(device, payload)) return undefined;
  if (payload.json) {
    const warnings: string[] = [];
    // The front doors' payload JSON is their own copy (prepareUplink), read by nobody after this: a flat
    // one becomes the data as it is instead of being copied once more.
    const data = flattenFields(payload.json, warnings, true);
    return Object.keys(data).length > 0
      ? { data, warnings, errors: [] }
      : failed('no data field could be read');
  }
  return failed('the device has no driver or codec to decode its bytes');
}
