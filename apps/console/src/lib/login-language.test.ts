import { loginLanguage, startupLanguage, userLanguage } from '@iot/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * Language choice of spec section 9 as the console applies it: the login area checks the first
 * three browser languages for de, then fr, else en; an explicit switch wins; start-up uses the
 * browser language if supported, else en; after sign-in the user's locale applies.
 */
describe('login area language', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  async function withBrowser(languages: string[]) {
    vi.stubGlobal('navigator', { languages, language: languages[0] ?? '' });
    return import('./login-language');
  }

  it.each([
    [['en-US', 'fr-FR', 'de-DE'], 'de'],
    [['fr-CA', 'en-US'], 'fr'],
    [['it', 'es', 'pt', 'de'], 'en'],
    [['nl', 'fr', 'de'], 'de'],
    [[], 'en'],
  ])('browser %j -> %s', async (languages, expected) => {
    const { loginAreaLanguage } = await withBrowser(languages);
    expect(loginAreaLanguage()).toBe(expected);
  });

  it('an explicit choice in the switcher wins over the browser', async () => {
    const { loginAreaLanguage, rememberLoginLanguage } = await withBrowser(['de-DE']);
    rememberLoginLanguage('fr');
    expect(loginAreaLanguage()).toBe('fr');
  });

  it('the domain rules the console calls', () => {
    expect(loginLanguage(['fr', 'de'])).toBe('de');
    expect(startupLanguage('de-AT')).toBe('de');
    expect(startupLanguage('fr-FR')).toBe('en');
    expect(userLanguage('en', 'de')).toBe('en');
  });
});
