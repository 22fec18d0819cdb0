/** Beaufort scale names 0 to 12, calm to hurricane (spec section 4). */
export const BEAUFORT_NAMES = [
  'calm',
  'light-air',
  'light-breeze',
  'gentle-breeze',
  'moderate-breeze',
  'fresh-breeze',
  'strong-breeze',
  'near-gale',
  'gale',
  'strong-gale',
  'storm',
  'violent-storm',
  'hurricane',
] as const;
export type BeaufortName = (typeof BEAUFORT_NAMES)[number];

// Lower limits in km/h of Beaufort 1..12 (WMO table: 1-5, 6-11, 12-19, 20-28, 29-38, 39-49, 50-61,
// 62-74, 75-88, 89-102, 103-117, 118+), so fractional speeds fall into the band below the next limit.
const BEAUFORT_LOWER_KMH = [1, 6, 12, 20, 29, 39, 50, 62, 75, 89, 103, 118];

/** Beaufort number 0..12 for a wind speed in km/h; null for no reading. */
export function beaufortFromKmh(speedKmh: number | null | undefined): number | null {
  if (speedKmh === null || speedKmh === undefined || !Number.isFinite(speedKmh) || speedKmh < 0) return null;
  return BEAUFORT_LOWER_KMH.filter((lower) => speedKmh >= lower).length;
}

/** 16 compass sectors of 22.5 degrees, clockwise from north (spec section 4). */
export const WIND_DIRECTIONS = [
  'N',
  'NNE',
  'NE',
  'ENE',
  'E',
  'ESE',
  'SE',
  'SSE',
  'S',
  'SSW',
  'SW',
  'WSW',
  'W',
  'WNW',
  'NW',
  'NNW',
] as const;
export type WindDirection = (typeof WIND_DIRECTIONS)[number];

/**
 * Sector of a direction in degrees: each sector spans 22.5 degrees centred on its heading, lower
 * edge included, so north covers below 11.25 and from 348.75 up. Any angle is wrapped into 0..360.
 */
export function windDirectionSector(degrees: number | null | undefined): WindDirection | null {
  if (degrees === null || degrees === undefined || !Number.isFinite(degrees)) return null;
  const wrapped = ((degrees % 360) + 360) % 360;
  return WIND_DIRECTIONS[Math.floor((wrapped + 11.25) / 22.5) % 16] ?? null;
}
