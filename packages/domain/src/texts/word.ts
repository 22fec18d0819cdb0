import type { InterfaceLanguage } from '../constants/session';
import { fieldLabel, fieldLabelWithUnit } from '../fields/labels';

/** A stored text's parameters: whatever the writer knew, as JSON (numbers, strings, booleans, null). */
export type TextParams = Readonly<Record<string, unknown>>;

/** What a kind words to: a subject where the text has one (message, mail), and the text itself. */
export interface WordedText {
  subject?: string;
  text: string;
}

const NUMBER: Record<InterfaceLanguage, Intl.NumberFormat> = {
  de: new Intl.NumberFormat('de-DE', { maximumFractionDigits: 2 }),
  en: new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 }),
};

/** A parameter as text; `–` when the writer did not know it. */
export function str(p: TextParams, key: string): string {
  const value = p[key];
  return value === null || value === undefined || value === '' ? '–' : String(value);
}

/** A numeric parameter in the language's number format; other values as they are. */
export function num(p: TextParams, key: string, language: InterfaceLanguage): string {
  const value = p[key];
  return typeof value === 'number' && Number.isFinite(value) ? NUMBER[language].format(value) : str(p, key);
}

/** An ISO time parameter as a reader of `language` writes it (UTC unless `timeZone` is a parameter). */
export function time(p: TextParams, key: string, language: InterfaceLanguage): string {
  const value = p[key];
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return str(p, key);
  const zone = typeof p.timeZone === 'string' ? p.timeZone : 'UTC';
  return new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone: zone,
  }).format(new Date(value));
}

/** A data field parameter as its label in `language` (a virtual field keeps its given name). */
export function field(p: TextParams, key: string, language: InterfaceLanguage, withUnit = true): string {
  const value = p[key];
  if (typeof value !== 'string' || value === '') return '–';
  return withUnit ? fieldLabelWithUnit(value, language) : fieldLabel(value, language);
}

/** Picks the language's variant. */
export function pick<T>(language: InterfaceLanguage, de: T, en: T): T {
  return language === 'de' ? de : en;
}
