/**
 * Validation rules of spec section 5, shared by the console's forms and the API. A field carries a
 * list of rules; the first failing one gives the message key `error.<name>` (or a more precise
 * variant such as `error.password-uppercase`), with params for the bounds.
 */
export type SimpleRuleName =
  | 'required'
  | 'email'
  | 'email-multiple'
  | 'integer'
  | 'decimal'
  | 'uuid'
  | 'uuid-multiple'
  | 'password'
  | 'phone'
  | 'mobile'
  | 'schedule'
  | 'sort-value'
  | 'virtual-field-name'
  | 'network-server-url'
  | 'accepted';

export type RuleObject =
  | { name: SimpleRuleName }
  | { name: 'password'; minlength?: number }
  | {
      name: 'phone' | 'mobile' /** ISO alpha-2/3; null detects the country from a + number. */;
      country?: string | null;
    }
  | { name: 'min'; min: number }
  | { name: 'max'; max: number }
  | { name: 'range'; min: number; max: number }
  | { name: 'minlength'; min: number }
  | { name: 'maxlength'; max: number }
  | { name: 'confirmation' /** The field whose value this one must repeat, e.g. password. */; field: string };

export type Rule = SimpleRuleName | RuleObject;
export type RuleName = RuleObject['name'];

export interface ValidationError {
  /** i18n key, e.g. `error.required`, `error.range`. */
  key: string;
  /** Interpolation values for the key, e.g. `{ min: 1, max: 5 }`. */
  params?: Record<string, number | string>;
}

/** What a validator may look at besides the value: the other values of the same form or body. */
export interface ValidationContext {
  values?: Readonly<Record<string, unknown>>;
}

/** Empty means not filled in: nothing, blank text or an empty list. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

export function fail(key: string, params?: Record<string, number | string>): ValidationError {
  return params === undefined ? { key } : { key, params };
}
