import { isUtf8 } from 'node:buffer';
import { unstorableJson } from '../accept/uplink-json.js';
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
    // A view, not a copy, of the bytes.
    const view = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
    try {
      // JSON the database cannot store (invalid UTF-8, lone surrogates, NUL, deep nesting) goes on as
      // bytes: MQTT 3.1.1 has no way to refuse a publish, and as bytes it is kept, not dropped later.
      const parsed: unknown = isUtf8(view) ? JSON.parse(view.toString('utf8')) : undefined;
      if (isRecord(parsed) && unstorableJson(parsed) === undefined) return { json: parsed };
    } catch {
      // Not JSON after all: the device's decoder gets the bytes.
    }
  }
  return { bytes: new Uint8Array(payload) };
}
