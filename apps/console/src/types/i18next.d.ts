import 'i18next';
import type { en } from '../locales/en';

/** Keys the domain package brings (validation errors, API catalogue, messages, display labels). */
type DomainKey = `error.${string}` | `api.${string}` | `message.${string}` | `display.${string}`;

/** Typed keys: a misspelt key in t() is a compile error; the console's own keys come from locales/en.ts. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    keySeparator: false;
    nsSeparator: false;
    resources: { translation: typeof en & Record<DomainKey, string> };
  }
}
