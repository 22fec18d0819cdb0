/**
 * `data_fields=a,b` of the data routes: comma-separated field names. Names are bound as SQL parameters,
 * never spliced; the pattern only keeps typos and oversized lists out (virtual fields look like
 * `virtual.<uuid>.<name>`). Empty or absent: every field.
 */
import { apiError } from '../../../../../lib/errors';

const FIELD_NAME = /^[A-Za-z0-9_.:\- ]{1,200}$/;
const MAX_DATA_FIELDS = 50;

export function parseDataFields(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  const names = [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  if (names.length === 0) return null;
  if (names.length > MAX_DATA_FIELDS || names.some((n) => !FIELD_NAME.test(n))) {
    throw apiError('INPUT_ERROR', { fields: { data_fields: { key: 'error.unknown' } } });
  }
  return names;
}
