import { type SoilMoistureClass, soilMoistureClass } from '@iot/domain';
import type { ManyCurrentValues } from '../api/farming-api';

export type CurrentOfDevice = ManyCurrentValues['devices'][number];

export interface Reading {
  value: number;
  at: string | null;
  stale: boolean;
}

/** The newest value of one data field across a field's devices, with its staleness (spec 8 h rule). */
export function latest(devices: readonly CurrentOfDevice[], key: string): Reading | null {
  const found = devices
    .filter((d) => typeof d.data[key] === 'number')
    .sort((a, b) => String(b.field_times[key] ?? '').localeCompare(String(a.field_times[key] ?? '')))[0];
  if (!found) return null;
  return { value: found.data[key] as number, at: found.field_times[key] ?? null, stale: !!found.stale[key] };
}

export interface FieldMoisture {
  /** pF reading (soil_water_pf1) when a device reports it, else percent (soil_humidity). */
  kind: 'pf' | 'percent';
  reading: Reading;
  /** The pF class (spec section 4); null for percent readings and for stale pF readings. */
  cls: SoilMoistureClass | null;
}

/** A field's current soil moisture from its devices' latest values. */
export function fieldMoisture(devices: readonly CurrentOfDevice[]): FieldMoisture | null {
  const pf = latest(devices, 'soil_water_pf1');
  if (pf) return { kind: 'pf', reading: pf, cls: pf.stale ? null : soilMoistureClass(pf.value) };
  const percent = latest(devices, 'soil_humidity');
  return percent ? { kind: 'percent', reading: percent, cls: null } : null;
}

/** The newest reading time of any of the devices (the field list's "last reading"). */
export function lastReadingAt(devices: readonly CurrentOfDevice[]): string | null {
  return (
    devices
      .map((d) => d.updated_at)
      .filter((at): at is string => typeof at === 'string')
      .sort()
      .at(-1) ?? null
  );
}

/** Map colours of the pF classes, very wet (blue) to arid (red); grey without a current class. */
export const MOISTURE_COLORS: Record<SoilMoistureClass | 'none', [number, number, number]> = {
  pf0: [29, 78, 216],
  pf1: [59, 130, 246],
  pf2: [22, 163, 74],
  pf3: [202, 138, 4],
  pf4: [234, 88, 12],
  pf5: [220, 38, 38],
  none: [148, 163, 184],
};
