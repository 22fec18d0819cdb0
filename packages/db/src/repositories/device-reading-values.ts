/**
 * A data object split into the value arrays of a reading (device_readings, migration 0043), in the storage
 * writer before its statement: what `device_reading_values` does in SQL, which split every row's JSONB in
 * the database and made inserts 10 to 20 times slower (tests/bench/README.md, "Storage per data point").
 * The rules here give exactly what that function gives, so a row reads back the same whichever wrote it:
 * - a number or boolean key has a position in its series' field list; booleans are 1 and 0 there;
 * - numbers of at most 6 significant digits (and 0) within 1e-30..1e30 fit a real[]; if every value of
 *   the row fits, the row is `narrow`, else all of its values are float8 (`wide`);
 * - `extra` keeps, as JSON, every value the arrays cannot give back as it was: booleans, text, objects,
 *   null, numbers beyond 1e-300..1e300 or of more than 15 significant digits; null when there is none.
 * Numbers travel as their shortest text (what JSON.stringify gave the JSONB before), so PostgreSQL parses
 * the same decimal either way.
 */
import { jsonParam } from './json-param';

/** Keys that get a position in a series: numbers (finite: JSON has no others) and booleans. */
export function isChartable(value: unknown): value is number | boolean {
  return typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** The value arrays of one reading as PostgreSQL array and JSON literals (null: SQL NULL). */
export interface ReadingValues {
  narrow: string | null;
  wide: string | null;
  extra: string | null;
}

/**
 * Significant digits of a number's shortest text (what JSON gave the database): "21.37" 4, "1e-7" 1,
 * "1200" 2, "0.000123" 3. Counted on the text the array literal needs anyway, instead of a toPrecision
 * round trip per value.
 */
function significantDigits(text: string): number {
  let first = -1;
  let last = -1;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 101) break; // 'e': the exponent
    if (code < 48 || code > 57) continue; // '-', '.'
    if (first < 0 && code === 48) continue; // leading zeros
    if (first < 0) first = count;
    count += 1;
    if (code !== 48) last = count;
  }
  return first < 0 ? 0 : last - first;
}

/**
 * What numeric::real::numeric keeps (float4, printed with 6 digits, migration 0043): a decimal of at most 6
 * significant digits comes back from float4 as it was, one of more does not.
 */
function fitsReal(n: number, digits: number): boolean {
  if (n === 0) return true;
  const abs = Math.abs(n);
  return abs >= 1e-30 && abs <= 1e30 && digits <= 6;
}

/** A number a position can hold at all (numeric to float8 range of device_reading_values). */
function inPositionRange(n: number): boolean {
  const abs = Math.abs(n);
  return n === 0 || (abs >= 1e-300 && abs <= 1e300);
}

/** What numeric::float8::numeric keeps (15 digits): other numbers are kept in `extra` as well. */
const EXACT_FLOAT8_DIGITS = 15;

function arrayLiteral(values: readonly (string | undefined)[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    text += (i === 0 ? '' : ',') + (v === undefined ? 'NULL' : v);
  }
  return `${text}}`;
}

/**
 * Splits `data` by the field positions of its series (every chartable key must have one; a key without
 * is kept in `extra`, as the SQL function keeps a key missing from its field list).
 */
export function splitReadingValues(
  positions: ReadonlyMap<string, number>,
  data: Readonly<Record<string, unknown>>,
): ReadingValues {
  const values: (string | undefined)[] = [];
  let fits = true;
  let extra: Record<string, unknown> | null = null;
  for (const key of Object.keys(data)) {
    const value = data[key];
    if (value === undefined) continue; // JSON leaves it out
    const pos = isChartable(value) ? positions.get(key) : undefined;
    let kept = false;
    if (typeof value === 'boolean' && pos !== undefined) {
      values[pos] = value ? '1' : '0';
    } else if (typeof value === 'number' && pos !== undefined && inPositionRange(value)) {
      const text = String(value);
      const digits = significantDigits(text);
      values[pos] = text;
      fits &&= fitsReal(value, digits);
      kept = digits <= EXACT_FLOAT8_DIGITS;
    }
    if (!kept) {
      extra ??= {};
      extra[key] = value;
    }
  }
  const array = values.length === 0 ? null : arrayLiteral(values);
  return {
    narrow: fits ? array : null,
    wide: fits ? null : array,
    extra: extra === null ? null : jsonParam(extra),
  };
}

/** A reading's position and label as stored (`meta`, NULL for nearly every row). */
export function readingMeta(
  latitude: number | null,
  longitude: number | null,
  metalabel: string | null,
): string | null {
  const meta: Record<string, unknown> = {};
  let any = false;
  if (latitude !== null && Number.isFinite(latitude)) {
    meta.latitude = latitude;
    any = true;
  }
  if (longitude !== null && Number.isFinite(longitude)) {
    meta.longitude = longitude;
    any = true;
  }
  if (metalabel !== null) {
    meta.metalabel = metalabel;
    any = true;
  }
  return any ? jsonParam(meta) : null;
}
