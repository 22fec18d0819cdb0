/**
 * Request bodies are validated with the same field rules the console's forms use (@iot/domain
 * FORM_RULES): a failure is 422 with `details.fields` = field -> { key, params }.
 */
import { assertValid, type FieldRules } from '@iot/domain';

/**
 * Validates the fields of `values` against `rules`. For a partial update (PUT with some fields) only
 * the fields present are checked, so an omitted required field is "unchanged", not "missing".
 */
export function validateBody(
  values: Readonly<Record<string, unknown>>,
  rules: FieldRules,
  options: { partial?: boolean } = {},
): void {
  const picked: FieldRules = options.partial
    ? Object.fromEntries(Object.entries(rules).filter(([field]) => values[field] !== undefined))
    : rules;
  assertValid(values, picked);
}
