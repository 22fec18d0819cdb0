import { describe, expect, it } from 'vitest';
import { loginLanguage, startupLanguage, userLanguage } from './language';

describe('language choice (spec section 9)', () => {
  it.each([
    [['de-DE', 'en'], 'de'],
    [['en-US', 'fr-FR', 'de'], 'de'],
    [['en-US', 'fr-FR'], 'fr'],
    [['en', 'es', 'it', 'de'], 'en'],
    [['fr', 'de'], 'de'],
    [[], 'en'],
  ] as const)('login area %j -> %s', (languages, language) => {
    expect(loginLanguage(languages)).toBe(language);
  });

  it.each([
    ['de-AT', 'de'],
    ['en-GB', 'en'],
    ['fr-FR', 'en'],
    [undefined, 'en'],
  ] as const)('start-up %s -> %s', (browser, language) => {
    expect(startupLanguage(browser)).toBe(language);
  });

  it('prefers the user locale, then the browser', () => {
    expect(userLanguage('de', 'en-US')).toBe('de');
    expect(userLanguage('pl', 'de-DE')).toBe('de');
    expect(userLanguage(null, 'fr')).toBe('en');
  });
});
