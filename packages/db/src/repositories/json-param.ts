/**
 * Rows as one JSON parameter, for the multi-row statements fed by `jsonb_to_recordset($1::jsonb)`.
 * jsonb cannot hold the NUL character, and one device sending "\u0000" in a text value would otherwise
 * fail its whole batch again and again; it is dropped from the text. (An escaped backslash before "u0000"
 * is text, not a NUL, and stays.)
 */
export function jsonParam(rows: unknown): string {
  return JSON.stringify(rows).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1');
}
