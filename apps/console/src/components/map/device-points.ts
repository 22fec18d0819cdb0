import { toNumber } from '../../lib/chart-data';
import type { MapDeviceColumns } from '../../types/device';
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

/**
 * Devices with a position as map points, coloured by state or by a field's latest value; `only` keeps the
 * devices of these ids (all when empty or missing).
 */
export function devicePoints(list: MapDeviceColumns, color: ColorBy, only?: ReadonlySet<number>): MapPoint[] {
  const values = color.by === 'field' ? list.data[color.field] : undefined;
  const placed: number[] = [];
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < list.count; i++) {
    if (only && only.size > 0 && !only.has(list.id[i] as number)) continue;
    if (!hasPosition(list.latitude[i], list.longitude[i])) continue;
    placed.push(i);
    if (values) {
      const v = toNumber(values[i]);
      if (v !== null) {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
    }
  }
  const stateColors = list.states.map((s) => STATE_COLORS[s] ?? OFFLINE);
  return placed.map((i) => {
    let rgb: [number, number, number];
    if (color.by === 'field') {
      const value = values ? toNumber(values[i]) : null;
      rgb = value === null ? NO_VALUE : rampColor(value, min, max);
    } else {
      rgb = list.is_active[i] ? (stateColors[list.state[i] as number] ?? OFFLINE) : OFFLINE;
    }
    return {
      id: list.id[i] as number,
      latitude: list.latitude[i] as number,
      longitude: list.longitude[i] as number,
      color: rgb,
    };
  });
}
