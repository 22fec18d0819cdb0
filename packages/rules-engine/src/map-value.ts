import { nearlyEqual } from './evaluate-condition';

/** Longest mapping key a virtual field may save (see prepareVirtualFields); real keys are a few characters. */
export const MAPPING_KEY_MAX = 100;

interface Range {
  min: number;
  max: number;
}

const isSpace = (char: string | undefined) => char !== undefined && char.trim() === '';
const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';

/**
 * Reads an optional number (`-?[\d.]+` and an exponent) from `start`. A dot followed by another dot is the
 * range separator, not part of the number. Returns the number's end and its value (undefined when absent,
 * NaN when malformed such as "1.2.3").
 */
function readNumber(text: string, start: number): { end: number; value: number | undefined } {
  let at = start;
  if (text[at] === '-') at++;
  const digitsFrom = at;
  while (isDigit(text[at]) || (text[at] === '.' && text[at + 1] !== '.')) at++;
  if (at === digitsFrom) return { end: start, value: at === start ? undefined : Number.NaN };
  if (text[at] === 'e' || text[at] === 'E') {
    const exponentFrom = text[at + 1] === '+' || text[at + 1] === '-' ? at + 2 : at + 1;
    if (isDigit(text[exponentFrom])) {
      at = exponentFrom;
      while (isDigit(text[at])) at++;
    }
  }
  return { end: at, value: Number(text.slice(start, at)) };
}

/**
 * Parses "min..max" (either end open, spaces around) in one pass: the regular expression it replaces
 * backtracked on long keys of dots and took seconds per uplink. Null when the key is no valid range.
 */
function parseRange(key: string): Range | null {
  const text = key.trim();
  const min = readNumber(text, 0);
  let at = min.end;
  while (isSpace(text[at])) at++;
  if (!text.startsWith('..', at)) return null;
  at += 2;
  while (isSpace(text[at])) at++;
  const max = readNumber(text, at);
  if (max.end !== text.length || Number.isNaN(min.value) || Number.isNaN(max.value)) return null;
  return { min: min.value ?? Number.NEGATIVE_INFINITY, max: max.value ?? Number.POSITIVE_INFINITY };
}

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
    const range = parseRange(key);
    if (range) {
      if (rangeLabel === undefined && value >= range.min && value < range.max) rangeLabel = label;
      continue;
    }
    const exact = key === 'true' ? 1 : key === 'false' ? 0 : Number(key);
    if (key.trim() !== '' && Number.isFinite(exact) && nearlyEqual(exact, value)) return label;
  }
  return rangeLabel ?? value;
}
