import { loginLanguage } from '@iot/domain';

/** The login area's language: the visitor's explicit choice in the switcher, else the browser rule. */
let explicitChoice: string | null = null;

export function rememberLoginLanguage(lang: string): void {
  explicitChoice = lang;
}

export function loginAreaLanguage(): string {
  if (explicitChoice) return explicitChoice;
  const languages = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return loginLanguage(languages);
}
