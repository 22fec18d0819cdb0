import { isVirtualFieldName } from '../fields/virtual-field-name';
import { validateEmail, validateEmailMultiple } from './email';
import { validateMaxLength, validateMinLength } from './length';
import { normaliseNetworkServerUrl } from './network-server-url';
import { validateDecimal, validateInteger, validateMax, validateMin, validateRange } from './numbers';
import { validatePassword } from './password';
import { validateMobile, validatePhone } from './phone';
import { validateSchedule } from './schedule';
import { validateSortValue } from './sort-value';
import {
  fail,
  isEmpty,
  type Rule,
  type RuleObject,
  type ValidationContext,
  type ValidationError,
} from './types';
import { validateUuid, validateUuidMultiple } from './uuid';

/** Rules that judge an empty value themselves; every other rule passes it (spec section 5). */
const CHECKS_EMPTY = new Set<string>(['required', 'decimal', 'uuid-multiple', 'accepted']);

function toObject(rule: Rule): RuleObject {
  return typeof rule === 'string' ? { name: rule } : rule;
}

function checkRule(
  value: unknown,
  rule: RuleObject,
  rules: readonly RuleObject[],
  context: ValidationContext,
) {
  switch (rule.name) {
    case 'required':
      return isEmpty(value) ? fail('error.required') : null;
    case 'email':
      return validateEmail(value);
    case 'email-multiple':
      return validateEmailMultiple(value);
    case 'integer':
      return validateInteger(value);
    case 'decimal':
      return validateDecimal(value);
    case 'uuid':
      return validateUuid(value);
    case 'uuid-multiple':
      return validateUuidMultiple(value);
    case 'password': {
      // The password's length comes from its own option, else the field's minlength rule, else 10.
      const own = 'minlength' in rule ? rule.minlength : undefined;
      const fieldMin = rules.find(
        (r): r is { name: 'minlength'; min: number } => r.name === 'minlength',
      )?.min;
      return validatePassword(value, own ?? fieldMin);
    }
    case 'phone':
      return validatePhone(value, 'country' in rule ? rule.country : undefined);
    case 'mobile':
      return validateMobile(value, 'country' in rule ? rule.country : undefined);
    case 'min':
      return 'min' in rule ? validateMin(value, rule.min) : fail('error.unknown');
    case 'max':
      return 'max' in rule ? validateMax(value, rule.max) : fail('error.unknown');
    case 'range':
      return 'min' in rule && 'max' in rule
        ? validateRange(value, rule.min, rule.max)
        : fail('error.unknown');
    case 'minlength':
      // With a password rule beside it, minlength only sets the password's length, checked in order there.
      if (rules.some((r) => r.name === 'password')) return null;
      return 'min' in rule ? validateMinLength(value, rule.min) : fail('error.unknown');
    case 'maxlength':
      return 'max' in rule ? validateMaxLength(value, rule.max) : fail('error.unknown');
    case 'schedule':
      return validateSchedule(value);
    case 'sort-value':
      return validateSortValue(value);
    case 'virtual-field-name':
      return typeof value === 'string' && isVirtualFieldName(value) ? null : fail('error.virtual-field-name');
    case 'network-server-url':
      return typeof value === 'string' && normaliseNetworkServerUrl(value) !== null
        ? null
        : fail('error.network-server-url');
    case 'accepted':
      return value === true ? null : fail('error.accepted');
    case 'confirmation':
      return 'field' in rule && context.values?.[rule.field] === value ? null : fail('error.confirmation');
    default:
      // A rule name from stored or remote configuration that this version does not know.
      return fail('error.unknown');
  }
}

/**
 * Validates one value against a field's rules and returns the first failure, or null when valid.
 * The key is `error.<rule>` or a precise variant (`error.password-uppercase`, `error.duplicate-values`),
 * `error.unknown` for an unknown rule.
 */
export function validate(
  value: unknown,
  rules: readonly Rule[],
  context: ValidationContext = {},
): ValidationError | null {
  const objects = rules.map(toObject);
  const empty = isEmpty(value);
  for (const rule of objects) {
    if (empty && !CHECKS_EMPTY.has(rule.name)) continue;
    const error = checkRule(value, rule, objects, context);
    if (error) return error;
  }
  return null;
}

/** Field name -> rules, e.g. `{ email: ['required', 'email'] }`. */
export type FieldRules = Readonly<Record<string, readonly Rule[]>>;

/**
 * Validates a whole form or request body. Returns field -> first error for the failing fields only,
 * so an empty object means valid; the console shows the count, the API answers 422 with it.
 */
export function validateObject(values: Readonly<Record<string, unknown>>, fieldRules: FieldRules) {
  const errors: Record<string, ValidationError> = {};
  for (const [field, rules] of Object.entries(fieldRules)) {
    const error = validate(values[field], rules, { values });
    if (error) errors[field] = error;
  }
  return errors;
}

export function hasErrors(errors: Readonly<Record<string, ValidationError>>): boolean {
  return Object.keys(errors).length > 0;
}
