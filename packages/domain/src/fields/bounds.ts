import { VIRTUAL_FIELD_PREFIX } from './virtual-field-name';

/** Input bounds for a device data value, e.g. a rule threshold (spec section 5). */
export interface FieldBounds {
  min: number;
  max: number;
  step: number;
}

// Names match by containment, as the spec's rules are written per family of fields: a rule on
// "temperature" covers soil_temperature and virtual.<uuid>.temperature too. Order matters:
// dew_point is checked before temperature, and the first match wins.
const MIN_RULES: readonly (readonly [string, number])[] = [
  ['signal_strength', 1],
  ['dew_point', -10],
  ['temperature', -20],
  // Not in the spec: its default of 0 would reject the southern and western hemispheres.
  ['latitude', -90],
  ['longitude', -180],
  // Not in the spec either: RSSI is in dBm and always negative; -140 is below any receiver's floor.
  ['rssi', -140],
];
const MAX_RULES: readonly (readonly [string, number])[] = [
  ['position_angle', 1],
  ['signal_strength', 5],
  ['soil_water_pf1', 5],
  ['dew_point', 20],
  ['temperature', 100],
  ['brightness', 20_000],
  ['latitude', 90],
  ['longitude', 180],
];
const STEP_RULES: readonly (readonly [string, number])[] = [
  ['soil_water_pf1', 0.5],
  ['hpa1', 10],
  ['brightness', 10],
];
// One decimal place for these families, none otherwise (spec section 5).
const ONE_DECIMAL = ['battery', 'distance', 'soil', 'humidity', 'temperature', 'dew_point'];

export const DEFAULT_FIELD_BOUNDS: FieldBounds = { min: 0, max: 100_000, step: 1 };

function firstMatch(name: string, rules: readonly (readonly [string, number])[], fallback: number): number {
  for (const [part, value] of rules) if (name.includes(part)) return value;
  return fallback;
}

export function fieldBounds(name: string): FieldBounds {
  return {
    min: firstMatch(name, MIN_RULES, DEFAULT_FIELD_BOUNDS.min),
    max: firstMatch(name, MAX_RULES, DEFAULT_FIELD_BOUNDS.max),
    step: firstMatch(name, STEP_RULES, DEFAULT_FIELD_BOUNDS.step),
  };
}

/** Decimal places a field's values are shown and entered with: 1 or 0 (spec section 5). */
export function fieldDecimals(name: string): 0 | 1 {
  if (name.startsWith(VIRTUAL_FIELD_PREFIX)) return 1;
  return ONE_DECIMAL.some((part) => name.includes(part)) ? 1 : 0;
}
