import { FORM_RULES } from '@iot/domain';
import { describe, expect, it } from 'vitest';
import { summarizeForm } from './form-state';

describe('summarizeForm (spec section 4 form state)', () => {
  const rules = FORM_RULES.login;

  it('untouched required empty fields carry their initial mark, count as errors, block submit', () => {
    const s = summarizeForm({ email: '', password: '' }, rules, new Set());
    expect(s.requiredMarks).toEqual(['email', 'password']);
    expect(s.visibleErrors).toEqual({});
    expect(s.errorCount).toBe(2);
    expect(s.canSubmit).toBe(false);
  });

  it('the first edit replaces the mark with the field error, shown as error.<first failing validator>', () => {
    const s = summarizeForm({ email: 'not-an-address', password: '' }, rules, new Set(['email']));
    expect(s.requiredMarks).toEqual(['password']);
    expect(s.visibleErrors.email?.key).toBe('error.email');
    expect(s.errorCount).toBe(2);
  });

  it('an edited field emptied again shows error.required', () => {
    const s = summarizeForm({ email: '', password: 'x' }, rules, new Set(['email', 'password']));
    expect(s.visibleErrors.email?.key).toBe('error.required');
    expect(s.errorCount).toBe(1);
  });

  it('submit is enabled only with zero errors and no unfilled required field', () => {
    const s = summarizeForm({ email: 'a@b.de', password: 'x' }, rules, new Set(['email', 'password']));
    expect(s.errorCount).toBe(0);
    expect(s.canSubmit).toBe(true);
  });

  it('prefilled required fields carry no mark', () => {
    const s = summarizeForm({ email: 'a@b.de', password: 'x' }, rules, new Set());
    expect(s.canSubmit).toBe(true);
  });

  it('password rules report the first failing check', () => {
    const r = FORM_RULES.resetPassword;
    const edited = new Set(['password', 'password_confirmation']);
    expect(
      summarizeForm({ password: 'abc', password_confirmation: 'abc' }, r, edited).visibleErrors.password?.key,
    ).toBe('error.password-uppercase');
    const mismatch = summarizeForm({ password: 'Abcdefgh1!', password_confirmation: 'x' }, r, edited);
    expect(mismatch.visibleErrors.password_confirmation?.key).toBe('error.confirmation');
  });
});
