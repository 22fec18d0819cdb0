import { INTERFACE_LANGUAGES, type InterfaceLanguage, type LOGIN_LANGUAGES } from '../constants/session';

export type LoginLanguage = (typeof LOGIN_LANGUAGES)[number];

function primary(tag: string): string {
  return tag.toLowerCase().split(/[-_]/)[0] ?? '';
}

/**
 * Login-area default (spec section 9): the first three browser languages are checked for de, then
 * for fr; otherwise en.
 */
export function loginLanguage(browserLanguages: readonly string[]): LoginLanguage {
  const firstThree = browserLanguages.slice(0, 3).map(primary);
  if (firstThree.includes('de')) return 'de';
  if (firstThree.includes('fr')) return 'fr';
  return 'en';
}

/** Start-up language (spec section 9): the browser language if the interface has it, else en. */
export function startupLanguage(browserLanguage: string | undefined): InterfaceLanguage {
  const language = primary(browserLanguage ?? '');
  return (INTERFACE_LANGUAGES as readonly string[]).includes(language)
    ? (language as InterfaceLanguage)
    : 'en';
}

/**
 * The interface language for a signed-in user: the user's saved locale if the interface has it,
 * else the start-up choice (spec section 1: the user's locale setting drives the language).
 */
export function userLanguage(locale: string | null | undefined, browserLanguage?: string): InterfaceLanguage {
  const language = primary(locale ?? '');
  return (INTERFACE_LANGUAGES as readonly string[]).includes(language)
    ? (language as InterfaceLanguage)
    : startupLanguage(browserLanguage);
}
