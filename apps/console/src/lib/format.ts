/** Numbers and dates per interface language through Intl. */
const LOCALE_TAGS: Record<string, string> = { de: 'de-DE', en: 'en-GB', fr: 'fr-FR' };

export function localeTag(lang: string): string {
  return LOCALE_TAGS[lang] ?? 'en-GB';
}

export function formatNumber(value: number, lang: string, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(localeTag(lang), options).format(value);
}

export function formatDateTime(value: string | number | Date | null | undefined, lang: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(localeTag(lang), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
