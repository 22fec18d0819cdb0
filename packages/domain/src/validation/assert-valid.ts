import { apiError } from '../errors/api-error';
import { type FieldRules, hasErrors, validateObject } from './validate';

/**
 * For the API: validates a request body against the same field rules the console's form uses and
 * throws INPUT_ERROR (code 422, HTTP 422) with `details.fields` = field -> { key, params } when
 * anything fails, so bad input changes nothing and the console can show each field's message.
 */
export function assertValid(values: Readonly<Record<string, unknown>>, fieldRules: FieldRules): void {
  const fields = validateObject(values, fieldRules);
  if (hasErrors(fields)) throw apiError('INPUT_ERROR', { fields });
}
