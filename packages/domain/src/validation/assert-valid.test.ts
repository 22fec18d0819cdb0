import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error';
import { assertValid } from './assert-valid';
import { FORM_RULES } from './rule-sets';

describe('assertValid', () => {
  it('passes a valid body', () => {
    expect(() => assertValid({ email: 'a@b.de', password: 'x' }, FORM_RULES.login)).not.toThrow();
  });

  it('throws code 422 with the failing fields', () => {
    let thrown: unknown;
    try {
      assertValid({ email: 'a@b', password: '' }, FORM_RULES.login);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({
      code: 422,
      status: 422,
      details: { fields: { email: { key: 'error.email' }, password: { key: 'error.required' } } },
    });
  });
});
