import type { DataRecord } from '@iot/codecs';

const MAX_FIELDS = 256;
const MAX_DEPTH = 8;

/**
 * Turns a JSON object of data fields (an MQTT/HTTP JSON payload without a driver, ChirpStack's
 * `object`, TTS's `decoded_payload`) into the stored flat shape: nested objects become dotted names
 * (`battery.level`), arrays get their index (`geo.0`); null values are left out with a warning.
 * Same shape as the codec sandbox's output, so a field has one name whoever decoded it.
 */
export function flattenFields(value: Record<string, unknown>, warnings: string[]): DataRecord {
  const out: DataRecord = {};
  let count = 0;
  const visit = (prefix: string, item: unknown, depth: number): void => {
    if (typeof item === 'number' || typeof item === 'string' || typeof item === 'boolean') {
      if (typeof item === 'number' && !Number.isFinite(item)) return;
      if (count === MAX_FIELDS) {
        warnings.push(`more than ${MAX_FIELDS} fields; the rest are dropped`);
        count++;
        return;
      }
      if (count > MAX_FIELDS) return;
      out[prefix] = item;
      count++;
    } else if (item === null || item === undefined) {
      warnings.push(`${prefix}: no value, dropped`);
    } else if (depth >= MAX_DEPTH) {
      warnings.push(`${prefix}: nested deeper than ${MAX_DEPTH} levels, dropped`);
    } else if (Array.isArray(item)) {
      for (const [index, element] of item.entries()) visit(`${prefix}.${index}`, element, depth + 1);
    } else if (typeof item === 'object') {
      for (const [key, element] of Object.entries(item))
        visit(prefix === '' ? key : `${prefix}.${key}`, element, depth + 1);
    }
  };
  visit('', value, 0);
  return out;
}
