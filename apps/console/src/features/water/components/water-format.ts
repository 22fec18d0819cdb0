import { formatNumber } from '../../../lib/format';

/** m³ in the interface language's number format (German: 12.345,6 m³). */
export function formatM3(value: number | null | undefined, lang: string, digits = 1): string {
  if (value === null || value === undefined) return '–';
  return `${formatNumber(value, lang, { maximumFractionDigits: digits })} m³`;
}

export function formatPercent(value: number | null | undefined, lang: string): string {
  if (value === null || value === undefined) return '–';
  return `${formatNumber(value, lang, { maximumFractionDigits: 1 })} %`;
}
