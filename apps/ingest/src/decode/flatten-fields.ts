import { type DataRecord, flattenData } from '@iot/codecs';

const MAX_FIELDS = 256;

/**
 * Turns a JSON object of data fields (an MQTT/HTTP JSON payload without a driver, ChirpStack's
 * `object`, TTS's `decoded_payload`) into the stored flat shape, with the codec sandbox's own
 * flattening, so a field has one name whoever decoded it.
 */
export function flattenFields(
  value: Record<string, unknown>,
  warnings: string[],
  /** The caller hands over an object nobody else holds: when it is flat already it is returned as it is. */
  owned = false,
): DataRecord {
  // The common case, a flat object of numbers, strings and booleans, copied in one loop; anything
  // else (nesting, null, non-finite numbers, too many fields) goes the general way from the start.
  const keys = Object.keys(value);
  if (keys.length > MAX_FIELDS) return flattenData(value, MAX_FIELDS, warnings, 'payload has');
  if (owned && isFlat(value, keys)) return value as DataRecord;
  const out: DataRecord = {};
  for (const key of keys) {
    const item = value[key];
    if (
      typeof item === 'string' ||
      typeof item === 'boolean' ||
      (typeof item === 'number' && Number.isFinite(item))
    )
      out[key] = item;
    else return flattenData(value, MAX_FIELDS, warnings, 'payload has');
  }
  return out;
}

/** Only strings, booleans and finite numbers, and no own `__proto__` (which a copy drops). */
function isFlat(value: Record<string, unknown>, keys: readonly string[]): boolean {
  for (const key of keys) {
    const item = value[key];
    if (key === '__proto__') return false;
    if (typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item !== 'number' || !Number.isFinite(item)) return false;
  }
  return true;
}
