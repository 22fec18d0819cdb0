import { nearlyEqual } from './evaluate-condition';

const RANGE = /^\s*(-?[\d.]+(?:[eE][+-]?\d+)?)?\s*\.\.\s*(-?[\d.]+(?:[eE][+-]?\d+)?)?\s*$/;

/**
 * Applies a value mapping. Keys are exact values ("0", "1", "2.5"; "true"/"false" mean 1/0) or ranges
 * "min..max" with min inclusive and max exclusive, either end open ("..0", "30.."). Exact keys win over
 * ranges; among ranges the first in the mapping's order that contains the value wins. A value no key
 * matches stays the number it is.
 */
export function mapValue(
  value: number,
  mapping: Readonly<Record<string, string | number>> | null | undefined,
): string | number {
  if (!mapping) return value;
  let rangeLabel: string | number | undefined;
  for (const [key, label] of Object.entries(mapping)) {
    const range = RANGE.exec(key);
    if (range) {
      if (rangeLabel !== undefined) continue;
      const min = range[1] === undefined ? Number.NEGATIVE_INFINITY : Number(range[1]);
      const max = range[2] === undefined ? Number.POSITIVE_INFINITY : Number(range[2]);
      if (value >= min && value < max) rangeLabel = label;
      continue;
    }
    const exact = key === 'true' ? 1 : key === 'false' ? 0 : Number(key);
    if (key.trim() !== '' && Number.isFinite(exact) && nearlyEqual(exact, value)) return label;
  }
  return rangeLabel ?? value;
}
