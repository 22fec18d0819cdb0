import type { UplinkPayload } from '../decode/decode-uplink.js';
import { isRecord } from '../lns/lns-uplink.js';

/** Largest MQTT uplink payload, the same as the HTTP body limit. */
export const MAX_MQTT_PAYLOAD = 64 * 1024;

/**
 * An MQTT payload is a JSON object of data fields or raw bytes for the device's decoder: a payload
 * that starts with `{` and parses as an object is JSON, anything else is bytes.
 */
export function readMqttPayload(payload: Uint8Array): UplinkPayload {
  let start = 0;
  while (
    start < payload.length &&
    (payload[start] === 0x20 || payload[start] === 0x0a || payload[start] === 0x0d || payload[start] === 0x09)
  )
    start++;
  if (payload[start] === 0x7b) {
    try {
      // A view, not a copy, of the bytes as text.
      const parsed: unknown = JSON.parse(
        Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('utf8'),
      );
      if (isRecord(parsed)) return { json: parsed };
    } catch {
      // Not JSON after all: the device's decoder gets the bytes.
    }
  }
  return { bytes: new Uint8Array(payload) };
}
