import type { DataRecord } from '@iot/codecs';

const num = (value: unknown): number | null => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

/**
 * The position a data point carries: `latitude`/`longitude` (also `lat`/`lon`/`lng`), or `geo` as
 * [latitude, longitude] (flattened to `geo.0`, `geo.1`) or `{latitude, longitude}`. Out-of-range
 * coordinates (and the 0,0 of a GPS without a fix) are no position.
 */
export function readGeo(data: DataRecord): { latitude: number; longitude: number } | undefined {
  // The pairs in order, without an array per pair and uplink (most data points have none of them).
  return (
    geoOf(data.latitude, data.longitude) ??
    geoOf(data['geo.0'], data['geo.1']) ??
    geoOf(data['geo.latitude'], data['geo.longitude']) ??
    geoOf(data.lat, data.lon ?? data.lng) ??
    geoOf(data['location.latitude'], data['location.longitude'])
  );
}

function geoOf(lat: unknown, lon: unknown): { latitude: number; longitude: number } | undefined {
  if (lat === undefined || lon === undefined) return undefined;
  const latitude = num(lat);
  const longitude = num(lon);
  if (latitude === null || longitude === null) return undefined;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180 || (latitude === 0 && longitude === 0))
    return undefined;
  return { latitude, longitude };
}
