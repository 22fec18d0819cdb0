import type { InterfaceLanguage } from '../constants/session';
import { de } from './de';
import { type DomainMessages, en } from './en';

/** i18next resources of the domain namespace: `i18next.addResourceBundle(lang, 'translation', domainMessages[lang], true)`. */
export const domainMessages: Record<InterfaceLanguage, DomainMessages> = { en, de };

/** Flattens nested resources to dotted keys (`display.battery.full`), for lookups outside i18next and tests. */
export function flattenMessages(messages: object, prefix = ''): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (typeof value === 'string') flat[path] = value;
    else if (typeof value === 'object' && value !== null) Object.assign(flat, flattenMessages(value, path));
  }
  return flat;
}

const flatByLanguage = { en: flattenMessages(en), de: flattenMessages(de) };

/**
 * Looks a key up and fills `{{name}}` placeholders, for places without i18next (API error texts,
 * emails, tests). Returns undefined for an unknown key so callers can fall back.
 */
export function domainMessage(
  language: InterfaceLanguage,
  key: string,
  params: Record<string, string | number> = {},
): string | undefined {
  const text = flatByLanguage[language][key];
  return text?.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
