import { domainMessages, FALLBACK_LANGUAGE, flattenMessages } from '@iot/domain';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * i18next with flat keys ('login.title', 'error.required', 'api.response-2'): the console's own
 * strings merged over the domain's messages (validation errors, API error catalogue, labels).
 * French covers the login area only (with the domain messages it shows there); other keys fall
 * back to the domain's fallback language.
 *
 * Each language's strings are a chunk of their own, loaded when the language is first used: the first
 * screen loads one language, not all three (some 20 kB of gzipped JS each for German and English).
 * main.tsx awaits `languageReady()` before it mounts, so the first render is in the user's language; a
 * later change (switcher, sign-in as a user of another language) switches once its strings are in.
 */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: {},
  lng: FALLBACK_LANGUAGE,
  fallbackLng: FALLBACK_LANGUAGE,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  initImmediate: false,
  showSupportNotice: false,
});

const LOADERS: Record<string, () => Promise<Record<string, string>>> = {
  en: () => import('../locales/en').then((m) => ({ ...flattenMessages(domainMessages.en), ...m.en })),
  de: () => import('../locales/de').then((m) => ({ ...flattenMessages(domainMessages.de), ...m.de })),
  fr: () => import('../locales/fr').then((m) => m.fr),
};

const loads = new Map<string, Promise<void>>();

/** Loads a language's strings once (a failed load is tried again next time). */
function loadBundle(lang: string): Promise<void> {
  const load = LOADERS[lang];
  if (!load) return Promise.resolve();
  let pending = loads.get(lang);
  if (!pending) {
    pending = load().then(
      (strings) => {
        i18n.addResourceBundle(lang, 'translation', strings);
      },
      (error: unknown) => {
        loads.delete(lang);
        throw error;
      },
    );
    loads.set(lang, pending);
  }
  return pending;
}

/**
 * The language, and for French (the login area only) the fallback its missing keys are taken from; German
 * and English are complete (locales.test.ts).
 */
function loadLanguage(lang: string): Promise<void> {
  const needed = lang === 'fr' ? [lang, FALLBACK_LANGUAGE] : [lang];
  return Promise.all(needed.map(loadBundle)).then(() => undefined);
}

let requested: string = FALLBACK_LANGUAGE;
let ready: Promise<void> = Promise.resolve();

/** Switches to a language once its strings are in (at once when they are). */
export function setLanguage(lang: string): void {
  requested = lang;
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  ready = loadLanguage(lang).then(
    () => {
      if (requested === lang && i18n.language !== lang) void i18n.changeLanguage(lang);
    },
    // Without its strings the console stays in the language it has.
    () => undefined,
  );
}

/** Resolves once the language asked for last is loaded and in use. */
export function languageReady(): Promise<void> {
  return ready;
}
