import { isVirtualFieldName } from './virtual-field-name';

/**
 * Data points are stored flat: a codec's nested `data` is flattened into dotted names
 * (`alarm.level`, `history.0.t`; see @iot/codecs flattenData). This turns such a record back into the
 * shape the codec returned: dotted names become nested objects, and an object whose keys are exactly
 * 0..n-1 becomes an array. Names that cannot be nested stay as they are: virtual fields
 * (`virtual.<uuid>.<name>`, whose name may hold dots), names with an empty part (`a..b`, `.a`), and a
 * name whose prefix is itself a value (`alarm` = 1 beside `alarm.level` = 2 keeps both flat).
 * A record without dotted names is returned as it is.
 */
export function nestDataFields<T>(flat: Record<string, T>): Record<string, unknown> {
  const keys = Object.keys(flat);
  if (!keys.some((key) => key.includes('.'))) return flat;
  const nestable = (key: string) =>
    key.includes('.') && !isVirtualFieldName(key) && key.split('.').every((part) => part !== '');
  const out: Record<string, unknown> = {};
  const tree: Record<string, unknown> = {};
  // A prefix that is a value of its own, or a leaf that is a prefix of another name: both stay flat.
  const leaves = new Set(keys);
  const clashes = (key: string) => {
    const parts = key.split('.');
    for (let i = 1; i < parts.length; i++) if (leaves.has(parts.slice(0, i).join('.'))) return true;
    return false;
  };
  const prefixes = new Set<string>();
  for (const key of keys)
    if (nestable(key) && !clashes(key)) {
      const parts = key.split('.');
      for (let i = 1; i < parts.length; i++) prefixes.add(parts.slice(0, i).join('.'));
    }
  for (const key of keys) {
    const value = flat[key];
    if (!nestable(key) || clashes(key)) {
      if (prefixes.has(key)) continue;
      out[key] = value;
      continue;
    }
    const parts = key.split('.');
    let node = tree;
    for (const part of parts.slice(0, -1)) {
      const next = Object.hasOwn(node, part) ? node[part] : undefined;
      if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
      else {
        const created: Record<string, unknown> = {};
        Object.defineProperty(node, part, {
          value: created,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        node = created;
      }
    }
    Object.defineProperty(node, parts[parts.length - 1]!, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  for (const [key, value] of Object.entries(tree))
    Object.defineProperty(out, key, {
      value: toArrays(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

function toArrays(node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return node;
  const record = node as Record<string, unknown>;
  const keys = Object.keys(record);
  for (const key of keys) record[key] = toArrays(record[key]);
  const isList = keys.length > 0 && keys.every((key, i) => key === String(i));
  return isList ? keys.map((key) => record[key]) : record;
}
