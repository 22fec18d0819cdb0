import { describe, expect, it } from 'vitest';
import { FORM_RULES, rule, VALIDATION_ERROR_KEYS } from './rule-sets';
import type { Rule } from './types';
import { hasErrors, validate, validateObject } from './validate';

const UUID_A = '123e4567-e89b-12d3-a456-426614174000';
const UUID_B = 'a3bb189e-8bf9-3888-9912-ace4e6543002';

type Row = readonly [
  label: string,
  value: unknown,
  rules: readonly Rule[],
  key: string | null,
  params?: object,
];

// Spec section 5: key `error.` + first failing validator, params for bounds; empty passes all rules
// except required, decimal and uuid-multiple.
const ROWS: Row[] = [
  ['required empty', '', ['required'], 'error.required'],
  ['required blank', '   ', ['required'], 'error.required'],
  ['required null', null, ['required'], 'error.required'],
  ['required empty list', [], ['required'], 'error.required'],
  ['required zero is filled', 0, ['required'], null],
  ['required text', 'x', ['required'], null],
  ['email ok', 'a.b@example.com', ['email'], null],
  ['email without dot domain', 'a@example', ['email'], 'error.email'],
  ['email with space', 'a b@example.com', ['email'], 'error.email'],
  ['email empty passes', '', ['email'], null],
  ['required before email', '', ['required', 'email'], 'error.required'],
  ['email-multiple newline', 'a@x.de\nb@x.de', ['email-multiple'], null],
  ['email-multiple semicolon', 'a@x.de;b@x.de', ['email-multiple'], null],
  ['email-multiple comma and space', 'a@x.de, b@x.de c@x.de', ['email-multiple'], null],
  ['email-multiple one bad', 'a@x.de;b@', ['email-multiple'], 'error.email-multiple'],
  ['email-multiple duplicate', 'a@x.de;A@x.de', ['email-multiple'], 'error.duplicate-values'],
  ['email-multiple empty passes', '', ['email-multiple'], null],
  ['integer', '-12', ['integer'], null],
  ['integer plus sign fails', '+12', ['integer'], 'error.integer'],
  ['integer decimal fails', '1.5', ['integer'], 'error.integer'],
  ['integer number', 7, ['integer'], null],
  ['integer empty passes', '', ['integer'], null],
  ['decimal comma', '3,5', ['decimal'], null],
  ['decimal dot', '-3.5', ['decimal'], null],
  ['decimal text', 'abc', ['decimal'], 'error.decimal'],
  ['decimal empty fails', '', ['decimal'], 'error.decimal'],
  ['decimal two commas', '1,000,5', ['decimal'], 'error.decimal'],
  ['uuid', UUID_A, ['uuid'], null],
  ['uuid upper case', UUID_A.toUpperCase(), ['uuid'], null],
  ['uuid short', '123e4567-e89b-12d3-a456', ['uuid'], 'error.uuid'],
  ['uuid empty passes', '', ['uuid'], null],
  ['uuid-multiple semicolon', `${UUID_A};${UUID_B}`, ['uuid-multiple'], null],
  ['uuid-multiple line break', `${UUID_A}\r\n${UUID_B}`, ['uuid-multiple'], null],
  ['uuid-multiple comma is no separator', `${UUID_A},${UUID_B}`, ['uuid-multiple'], 'error.uuid-multiple'],
  [
    'uuid-multiple duplicate',
    `${UUID_A};${UUID_A.toUpperCase()}`,
    ['uuid-multiple'],
    'error.duplicate-values',
  ],
  ['uuid-multiple empty fails', '', ['uuid-multiple'], 'error.uuid-multiple'],
  ['password ok', 'Abcdefgh1!', ['password'], null],
  ['password no uppercase first', 'abc', ['password'], 'error.password-uppercase'],
  ['password no lowercase', 'ABCDEFGH1!', ['password'], 'error.password-lowercase'],
  ['password no number', 'Abcdefghi!', ['password'], 'error.password-number'],
  ['password no special', 'Abcdefghi1', ['password'], 'error.password-special-char'],
  ['password 9 of 10', 'Abcdefg1!', ['password'], 'error.password-minlength', { min: 10 }],
  ['password minlength 8 from field', 'Abcdef1!', ['password', rule.minLength(8)], null],
  [
    'password minlength 12 from field',
    'Abcdefgh1!',
    ['password', rule.minLength(12)],
    'error.password-minlength',
    { min: 12 },
  ],
  ['password own minlength', 'Abcdef1!', [rule.password(8)], null],
  ['password special from the list', 'Abcdefgh1"', ['password'], null],
  ['password dash is not special', 'Abcdefgh1-', ['password'], 'error.password-special-char'],
  ['password empty passes', '', ['password'], null],
  ['phone DE landline', '0761 1234567', ['phone'], null],
  ['phone DE mobile', '0171 1234567', ['phone'], null],
  ['phone garbage', '12', ['phone'], 'error.phone'],
  ['phone Swiss number on DE field', '+41 79 123 45 67', ['phone'], 'error.phone'],
  ['phone Swiss number with CH', '+41 79 123 45 67', [rule.phone('CH')], null],
  ['phone detected without country', '+41 79 123 45 67', [rule.phone(null)], null],
  ['mobile ok', '+49 171 1234567', ['mobile'], null],
  ['mobile landline', '0761 1234567', ['mobile'], 'error.phone-mobile'],
  ['mobile garbage', 'abc', ['mobile'], 'error.phone'],
  ['mobile empty passes', '', ['mobile'], null],
  ['min', '4', [rule.min(5)], 'error.min', { min: 5 }],
  ['min ok at bound', '5', [rule.min(5)], null],
  ['max', 6, [rule.max(5)], 'error.max', { max: 5 }],
  ['max comma', '5,5', [rule.max(5)], 'error.max', { max: 5 }],
  ['range low', 0, [rule.range(1, 5)], 'error.range', { min: 1, max: 5 }],
  ['range high', 6, [rule.range(1, 5)], 'error.range', { min: 1, max: 5 }],
  ['range in', '3', [rule.range(1, 5)], null],
  ['range not a number', 'x', [rule.range(1, 5)], 'error.range', { min: 1, max: 5 }],
  ['minlength', 'ab', [rule.minLength(3)], 'error.minlength', { min: 3 }],
  ['maxlength', 'abcd', [rule.maxLength(3)], 'error.maxlength', { max: 3 }],
  ['maxlength counts code points', '😀😀😀', [rule.maxLength(3)], null],
  ['minlength empty passes', '', [rule.minLength(3)], null],
  ['schedule ok', { start: '08:00', end: '17:00', weekdays: [1, 2] }, ['schedule'], null],
  [
    'schedule start after end',
    { start: '17:00', end: '08:00', weekdays: [1] },
    ['schedule'],
    'error.schedule-time',
  ],
  [
    'schedule start equals end',
    { start: '08:00', end: '08:00', weekdays: [1] },
    ['schedule'],
    'error.schedule-time',
  ],
  ['schedule bad time', { start: '24:00', end: '25:00', weekdays: [1] }, ['schedule'], 'error.schedule-time'],
  [
    'schedule no weekday',
    { start: '08:00', end: '17:00', weekdays: [] },
    ['schedule'],
    'error.schedule-weekdays',
  ],
  [
    'schedule weekday map',
    { start: '08:00', end: '17:00', weekdays: { mon: false, tue: true } },
    ['schedule'],
    null,
  ],
  [
    'schedule weekday map all off',
    { start: '08:00', end: '17:00', weekdays: { mon: false } },
    ['schedule'],
    'error.schedule-weekdays',
  ],
  ['sort value 1', 1, ['sort-value'], null],
  ['sort value 99999', '99999', ['sort-value'], null],
  ['sort value 0', 0, ['sort-value'], 'error.sort-value', { min: 1, max: 99999 }],
  ['sort value 100000', 100000, ['sort-value'], 'error.sort-value', { min: 1, max: 99999 }],
  ['sort value 1.5', 1.5, ['sort-value'], 'error.sort-value', { min: 1, max: 99999 }],
  ['network server address', 'https://chirpstack.example.com:8080', ['network-server-url'], null],
  [
    'network server address with a path',
    'http://chirpstack:8080/api',
    ['network-server-url'],
    'error.network-server-url',
  ],
  [
    'network server address without scheme',
    'chirpstack:8080',
    ['network-server-url'],
    'error.network-server-url',
  ],
  ['virtual field name', `virtual.${UUID_A}.flow`, ['virtual-field-name'], null],
  ['virtual field name bad uuid', 'virtual.1234.flow', ['virtual-field-name'], 'error.virtual-field-name'],
  [
    'virtual field name without name',
    `virtual.${UUID_A}.`,
    ['virtual-field-name'],
    'error.virtual-field-name',
  ],
  ['virtual field name without prefix', `${UUID_A}.flow`, ['virtual-field-name'], 'error.virtual-field-name'],
  ['accepted true', true, ['accepted'], null],
  ['accepted false', false, ['accepted'], 'error.accepted'],
  ['accepted missing', undefined, ['accepted'], 'error.accepted'],
  ['unknown rule', 'x', ['no-such-rule' as Rule], 'error.unknown'],
  ['first failing wins', '1.5', ['integer', rule.min(5)], 'error.integer'],
];

describe('validate (spec section 5)', () => {
  const cases = ROWS.map(([label, value, rules, key, params]) => ({ label, value, rules, key, params }));
  it.each(cases)('$label', ({ value, rules, key, params }) => {
    const result = validate(value, rules);
    if (key === null) expect(result).toBeNull();
    else expect(result).toEqual(params ? { key, params } : { key });
  });

  it('only returns keys that have messages', () => {
    for (const [, , , key] of ROWS) if (key !== null) expect(VALIDATION_ERROR_KEYS).toContain(key);
  });
});

describe('validateObject', () => {
  it('returns field -> first error for failing fields only', () => {
    const errors = validateObject(
      { email: 'nope', password: 'Abcdefgh1!', password_confirmation: 'Abcdefgh1?' },
      FORM_RULES.resetPassword,
    );
    expect(errors).toEqual({ password_confirmation: { key: 'error.confirmation' } });
    expect(hasErrors(errors)).toBe(true);
  });

  it('accepts a valid login and rejects a missing one', () => {
    expect(validateObject({ email: 'a@b.de', password: 'x' }, FORM_RULES.login)).toEqual({});
    expect(validateObject({}, FORM_RULES.login)).toEqual({
      email: { key: 'error.required' },
      password: { key: 'error.required' },
    });
    expect(hasErrors({})).toBe(false);
  });

  it('checks a metadata entry sort value 1..99999', () => {
    expect(
      validateObject({ data_field: 'temperature', label: 'T', sort: 0 }, FORM_RULES.metadataEntry),
    ).toEqual({
      sort: { key: 'error.sort-value', params: { min: 1, max: 99999 } },
    });
  });
});
