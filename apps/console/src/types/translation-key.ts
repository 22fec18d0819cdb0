import type { ParseKeys } from 'i18next';

/** A key t() accepts (typed from locales/en.ts plus the domain's key families). */
export type TranslationKey = ParseKeys;
