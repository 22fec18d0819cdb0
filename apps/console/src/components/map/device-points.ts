import { toNumber } from '../../lib/chart-data';
import type { MapDevice } from '../../types/device';
import type { MapPoint } from './map-points';

// Kept here, not beside the clustering, so the first screen does not load supercluster.
/** Devices with a usable position (both coordinates finite, inside the WGS84 range). */
export function hasPosition(latitude: unknown, longitude: unknown): boolean {
  return (
    typeof latitude === 'number' &&
    typeof longitude === 'number' &&
    Number.isFinite(latitude) &&
    Number.isFinite(longitude) &&
    Math.abs(latitude) <= 90 &&
    Math.abs(longitude) <= 180 &&
    !(latitude === 0 && longitude === 0)
  );
}

/** Marker colours per device state (spec section 3); an inactive device is grey whatever its state. */
export const STATE_COLORS: Record<string, [number, number, number]> = {
  ok: [22, 163, 74],
  maintenance: [217, 119, 6],
  lost: [147, 51, 234],
  broken: [220, 38, 38],
  disposed: [107, 114, 128],
};
const OFFLINE: [number, number, number] = [156, 163, 175];
const NO_VALUE: [number, number, number] = [203, 213, 225];

/** Colours of a field's value from low (blue) to high (red). */
export function rampColor(value: number, min: number, max: number): [number, number, number] {
  const t = max > min ? Math.min(1, Math.max(0, (value - min) / (max - min))) : 0.5;
  return [Math.round(37 + t * (220 - 37)), Math.round(99 + t * (38 - 99)), Math.round(235 + t * (38 - 235))];
}

export type ColorBy = { by: 'state' } | { by: 'field'; field: string };

/** Devices with a position as map points, coloured by state or by a field's latest value. */
export function devicePoints(devices: readonly MapDevice[], color: ColorBy): MapPoint[] {
  const placed = devices.filter((d) => hasPosition(d.latitude, d.longitude));
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const values = placed.map((d) => {
    const v = color.by === 'field' ? toNumber(d.data?.[color.field]) : null;
    if (v !== null) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    return v;
  });
  return placed.map((d, i) => {
    const value = values[i] ?? null;
    const rgb =
      color.by === 'field'
        ? value === null
          ? NO_VALUE
          : rampColor(value, min, max)
        : !d.is_active
          ? OFFLINE
          : (STATE_COLORS[d.state] ?? OFFLINE);
    return { id: d.id, latitude: d.latitude as number, longitude: d.longitude as number, color: rgb };
  });
}
