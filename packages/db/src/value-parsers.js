/**
 * The value parsers both Db implementations register (types.ts explains the conventions). Plain
 * JavaScript so that the PGlite worker (pglite-worker.js, run by Node as is) imports the same functions
 * as the TypeScript side; value-parsers.d.ts types them.
 */

/** int8 -> number; a value outside the safe integer range throws instead of losing precision. */
export function parseInt8(text) {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`int8 value ${text} is outside the safe integer range of a JavaScript number`);
  }
  return value;
}

/** date -> its ISO text `YYYY-MM-DD` (a Date would shift by the process's zone on pg). */
export function parseDate(text) {
  return text;
}
