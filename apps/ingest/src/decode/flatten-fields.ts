import { type DataRecord, flattenData } from '@iot/codecs';

const MAX_FIELDS = 256;

/**
 * Turns a JSON object of data fields (an MQTT/HTTP JSON payload without a driver, ChirpStack's
 * `object`, TTS's `decoded_payload`) into the stored flat shape, with the codec sandbox's own
 * flattening, so a field has one name whoever decoded it.
 */
export function flattenFields(value: Record<string, unknown>, warnings: string[]): DataRecord {
  return flattenData(value, MAX_FIELDS, warnings, 'payload has');
}
