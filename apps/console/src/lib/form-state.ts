import { type FieldRules, isEmpty, type ValidationError, validateObject } from '@iot/domain';

/**
 * Form state of spec section 4, pure: a form has errors while any field carries an error or an
 * unfilled required mark; submit is enabled only with none. Required fields start marked and lose
 * that initial mark on their first edit, after which the field shows its own validation error.
 */
export interface FormSummary {
  /** field -> error shown above it (edited fields only) */
  visibleErrors: Record<string, ValidationError>;
  /** fields still carrying their initial required mark (not edited, required, empty) */
  requiredMarks: string[];
  /** fields with an error or an unfilled required mark */
  errorCount: number;
  canSubmit: boolean;
}

export function isRequiredField(rules: FieldRules, field: string): boolean {
  return (rules[field] ?? []).some((rule) => (typeof rule === 'string' ? rule : rule.name) === 'required');
}

export function summarizeForm(
  values: Readonly<Record<string, unknown>>,
  rules: FieldRules,
  edited: ReadonlySet<string>,
): FormSummary {
  const errors = validateObject(values, rules);
  const visibleErrors: Record<string, ValidationError> = {};
  const requiredMarks: string[] = [];
  let errorCount = 0;
  for (const field of Object.keys(rules)) {
    if (!edited.has(field)) {
      if (isRequiredField(rules, field) && isEmpty(values[field])) {
        requiredMarks.push(field);
        errorCount += 1;
      }
      continue;
    }
    const error = errors[field];
    if (error) {
      visibleErrors[field] = error;
      errorCount += 1;
    }
  }
  return { visibleErrors, requiredMarks, errorCount, canSubmit: errorCount === 0 };
}
