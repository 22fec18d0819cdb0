import { MIN_PASSWORD_LENGTH } from '../constants/session';
import type { Rule } from './types';
import type { FieldRules } from './validate';

/** Builders for rules with parameters, so call sites read `rule.range(1, 5)`. */
export const rule = {
  min: (min: number): Rule => ({ name: 'min', min }),
  max: (max: number): Rule => ({ name: 'max', max }),
  range: (min: number, max: number): Rule => ({ name: 'range', min, max }),
  minLength: (min: number): Rule => ({ name: 'minlength', min }),
  maxLength: (max: number): Rule => ({ name: 'maxlength', max }),
  password: (minlength: number = MIN_PASSWORD_LENGTH): Rule => ({ name: 'password', minlength }),
  phone: (country?: string | null): Rule => (country === undefined ? 'phone' : { name: 'phone', country }),
  mobile: (country?: string | null): Rule => (country === undefined ? 'mobile' : { name: 'mobile', country }),
  confirmation: (field: string): Rule => ({ name: 'confirmation', field }),
};

// Text columns are varchar(255) by convention; longer input is a paste accident.
const NAME: readonly Rule[] = ['required', rule.maxLength(255)];

/**
 * Field rules shared by console forms and API bodies. Each entry is the rule list of spec section 5
 * for that field; the API validates the same map and answers 422 with the failing fields.
 */
export const FORM_RULES = {
  login: { email: ['required', 'email'], password: ['required'] },
  forgotPassword: { email: ['required', 'email'] },
  resetPassword: {
    password: ['required', 'password'],
    password_confirmation: ['required', rule.confirmation('password')],
  },
  user: {
    name: NAME,
    email: ['required', 'email', rule.maxLength(255)],
    password: ['password'],
    password_confirmation: [rule.confirmation('password')],
  },
  eula: { accepted: ['accepted'] },
  metadataEntry: { data_field: ['required'], label: NAME, sort: ['required', 'sort-value'] },
  virtualField: { name: ['required', 'virtual-field-name'] },
  ruleSchedule: { schedule: ['schedule'] },
  emailAction: {
    recipient: ['required', 'email'],
    cc: ['email-multiple'],
    subject: NAME,
    body: ['required'],
  },
  smsAction: { phone: ['required', 'mobile'], body: ['required', rule.maxLength(1600)] },
  voiceAction: { phone: ['required', 'phone'], message: ['required'] },
  group: { name: NAME },
  farmingField: { name: NAME },
  parkingArea: {
    name: NAME,
    capacity: ['required', 'integer', rule.min(0)],
    max_parking_time: ['integer', rule.min(0)],
    // The area's alarm notifications: addresses to mail, a mobile number to text.
    alarm_emails: ['email-multiple'],
    alarm_phone: ['mobile'],
  },
  company: { name: NAME, email: ['email'], phone: ['phone'] },
  integrationToken: { name: NAME },
  // The token is required only while none is stored (the API knows; the form asks for it then).
  networkServer: {
    api_url: ['required', 'network-server-url', rule.maxLength(2048)],
    api_token: [rule.maxLength(4096)],
  },
} as const satisfies Record<string, FieldRules>;

/** Every message key a validator can return (spec section 5 plus this package's additions). */
export const VALIDATION_ERROR_KEYS = [
  'error.required',
  'error.email',
  'error.email-multiple',
  'error.duplicate-values',
  'error.integer',
  'error.decimal',
  'error.uuid',
  'error.uuid-multiple',
  'error.password',
  'error.password-uppercase',
  'error.password-lowercase',
  'error.password-number',
  'error.password-special-char',
  'error.password-minlength',
  'error.phone',
  'error.phone-mobile',
  'error.range',
  'error.min',
  'error.max',
  'error.minlength',
  'error.maxlength',
  'error.unknown',
  'error.schedule-time',
  'error.schedule-weekdays',
  'error.sort-value',
  'error.virtual-field-name',
  'error.network-server-url',
  'error.accepted',
  'error.confirmation',
  'error.address-not-found',
] as const;
export type ValidationErrorKey = (typeof VALIDATION_ERROR_KEYS)[number];
