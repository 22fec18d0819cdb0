import { ERROR_DEFINITIONS } from '../errors/catalogue';

/** `response-<code>` -> text for one language, built from the error catalogue so codes are written once. */
export function apiResponseMessages(language: 'en' | 'de'): Record<`response-${number}`, string> {
  return Object.fromEntries(ERROR_DEFINITIONS.map((d) => [`response-${d.code}`, d[language]])) as Record<
    `response-${number}`,
    string
  >;
}
