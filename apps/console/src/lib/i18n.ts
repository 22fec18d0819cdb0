import { domainMessages, FALLBACK_LANGUAGE, flattenMessages } from '@iot/domain';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { de } from '../locales/de';
import { en } from '../locales/en';
import { fr } from '../locales/fr';

/**
 * i18next with flat keys ('login.title', 'error.required', 'api.response-2'): the console's own
 * strings merged over the domain's messages (validation errors, API error catalogue, labels).
 * French covers the login area only (with the domain messages it shows there); other keys fall
 * back to the domain's fallback language.
 */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: {
    en: { translation: { ...flattenMessages(domainMessages.en), ...en } },
    de: { translation: { ...flattenMessages(domainMessages.de), ...de } },
    fr: { translation: fr },
  },
  lng: 'en',
  fallbackLng: FALLBACK_LANGUAGE,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  initImmediate: false,
  showSupportNotice: false,
});

export function setLanguage(lang: string): void {
  if (i18n.language !== lang) void i18n.changeLanguage(lang);
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}
