import { FORM_RULES } from '@iot/domain';
import type { ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { domainResolver } from './use-domain-form';

const options = { fields: {}, shouldUseNativeValidation: false } as unknown as ResolverOptions<
  Record<string, unknown>
>;

describe('domainResolver (react-hook-form over the domain rules)', () => {
  it('valid values pass through', async () => {
    const resolve = domainResolver<Record<string, unknown>>(() => FORM_RULES.login);
    const result = await resolve({ email: 'a@b.de', password: 'x' }, undefined, options);
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ email: 'a@b.de', password: 'x' });
  });

  it('each failing field carries error.<first failing validator> as its message', async () => {
    const resolve = domainResolver<Record<string, unknown>>(() => FORM_RULES.login);
    const result = await resolve({ email: 'nope', password: '' }, undefined, options);
    expect(result.values).toEqual({});
    expect(result.errors).toEqual({
      email: { type: 'error.email', message: 'error.email' },
      password: { type: 'error.required', message: 'error.required' },
    });
  });

  it('rules may depend on the values (a typed password must be confirmed)', async () => {
    const resolve = domainResolver<Record<string, unknown>>(() => (values) => ({
      password: ['password'],
      password_confirmation: values.password ? ['required', { name: 'confirmation', field: 'password' }] : [],
    }));
    expect((await resolve({ password: '', password_confirmation: '' }, undefined, options)).errors).toEqual(
      {},
    );
    const typed = await resolve({ password: 'Abcdefgh1!', password_confirmation: '' }, undefined, options);
    expect(typed.errors).toEqual({
      password_confirmation: { type: 'error.required', message: 'error.required' },
    });
  });
});
