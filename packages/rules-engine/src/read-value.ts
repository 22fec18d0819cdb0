/**
 * Reads a field from uplink data as a number: numbers as they are, booleans as 1 / 0, numeric text
 * parsed; anything else (missing, null, other text, objects, NaN, infinities) is no value (null).
 * A name is looked up as a flat key first (`virtual.<uuid>.<name>`, `battery_level`), then as a dotted
 * path into nested objects (`battery.level`).
 */
export function readValue(data: Readonly<Record<string, unknown>>, field: string): number | null {
  let raw: unknown = data[field];
  if (raw === undefined && field.includes('.')) raw = readPath(data, field);
  return toNumber(raw);
}

export function toNumber(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'boolean') return raw ? 1 : 0;
  if (typeof raw === 'string' && raw.trim() !== '') {
    const parsed = Number(raw);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

function readPath(data: Readonly<Record<string, unknown>>, path: string): unknown {
  let current: unknown = data;
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
