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
  const candidates: [unknown, unknown][] = [
    [data.latitude, data.longitude],
    [data['geo.0'], data['geo.1']],
    [data['geo.latitude'], data['geo.longitude']],
    [data.lat, data.lon ?? data.lng],
    [data['location.latitude'], data['location.longitude']],
  ];
  for (const [lat, lon] of candidates) {
    const latitude = num(lat);
    const longitude = num(lon);
    if (latitude === null || longitude === null) continue;
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180 || (latitude === 0 && longitude === 0)) continue;
    return { latitude, longitude };
  }
  return undefined;
}
