/**
 * Result value conventions shared by both `Db` implementations, so that code and tests see the same
 * JavaScript types whichever database runs underneath:
 * - int8 / bigint (every id, counters, count(*)) -> `number`. A value outside the safe integer range throws
 *   instead of silently losing precision; no id or counter of this platform gets near 2^53.
 * - int8[] -> `number[]`.
 * - timestamptz / timestamp -> `Date` (the default of both drivers; the schema uses timestamptz only).
 * - date -> the ISO text `YYYY-MM-DD` (date[] -> string[]), because a `Date` would shift it by the process's zone on `pg`
 *   (local midnight) but not on PGlite (UTC midnight).
 * - numeric -> `string` (exact decimal text, as both drivers return it); json / jsonb -> parsed value.
 */
export const INT8_OID = 20;
export const INT8_ARRAY_OID = 1016;
export const DATE_OID = 1082;
export const DATE_ARRAY_OID = 1182;

// Plain JavaScript, shared with the PGlite worker thread (pglite-worker.js).
export { parseDate, parseInt8 } from './value-parsers.js';
