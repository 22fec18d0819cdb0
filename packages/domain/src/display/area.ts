import { AREA_THRESHOLDS_M2 } from '../constants/session';

export type AreaUnit = 'm²' | 'ha' | 'km²';

/**
 * Picks the unit for an area in m² (spec section 5): m² up to 9999, ha above 9999 (divided by
 * 10 000), km² above 999 999 (divided by 1 000 000).
 */
export function areaInUnit(squareMetres: number): { value: number; unit: AreaUnit } {
  if (squareMetres > AREA_THRESHOLDS_M2.squareKilometre)
    return { value: squareMetres / 1_000_000, unit: 'km²' };
  if (squareMetres > AREA_THRESHOLDS_M2.hectare) return { value: squareMetres / 10_000, unit: 'ha' };
  return { value: squareMetres, unit: 'm²' };
}

/** Formats an area with the locale's number format, German by default: 12345 -> "1,23 ha". */
export function formatArea(squareMetres: number, locale = 'de'): string {
  const { value, unit } = areaInUnit(squareMetres);
  const text = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value);
  return `${text} ${unit}`;
}
