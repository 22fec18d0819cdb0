import { fieldBounds, fieldDefinition } from '@iot/domain';
import type { DecodeResult } from '../types.js';

/** A field a driver reports that the domain catalogue does not list (e.g. a button's click counter). */
export interface LocalField {
  readonly name: string;
  readonly unit?: string;
  readonly min: number;
  readonly max: number;
  /** Allowed values, where the field is a code (click type 1, 2, 4). */
  readonly values?: readonly number[];
}

/** What a driver accepts: its own fields, and for catalogue fields the sensor's measuring range. */
export interface FieldRules {
  readonly local: ReadonlyMap<string, LocalField>;
  /** Measuring range of the sensor per catalogue field; a value outside it is a fault, not a reading. */
  readonly plausible: ReadonlyMap<string, readonly [number, number]>;
}

const fmt = (n: number) => String(n);

/**
 * Checks one decoded or device-sent value and adds it to `result.data`, or explains in
 * `result.warnings` why not. The policy (README "Value checks"):
 * - unknown names and values of the wrong type are dropped;
 * - a value outside the sensor's measuring range (or a local field's range) is dropped: it is a
 *   fault or a sentinel, and storing it would feed rules and charts with nonsense;
 * - a catalogue value outside the console's bounds (spec section 5, e.g. temperature -20..100) is
 *   kept with a warning: those bounds are input bounds for thresholds, and a real -25 °C frost
 *   reading must still reach a "temperature lte -5" rule.
 */
export function acceptValue(name: string, raw: unknown, rules: FieldRules, result: DecodeResult): void {
  const local = rules.local.get(name);
  if (local !== undefined) {
    const value = toNumber(raw);
    if (value === undefined) return void result.warnings.push(`${name}: not a number, dropped`);
    if (local.values !== undefined && !local.values.includes(value))
      return void result.warnings.push(
        `${name}: ${fmt(value)} is not one of ${local.values.join(', ')}, dropped`,
      );
    if (value < local.min || value > local.max)
      return void result.warnings.push(
        `${name}: ${fmt(value)} outside ${fmt(local.min)}..${fmt(local.max)}, dropped`,
      );
    result.data[name] = value;
    return;
  }
  const definition = fieldDefinition(name);
  if (definition === undefined) return void result.warnings.push(`${name}: unknown data field, dropped`);
  switch (definition.kind) {
    case 'boolean': {
      const value = raw === 1 ? true : raw === 0 ? false : raw;
      if (typeof value !== 'boolean') return void result.warnings.push(`${name}: not a boolean, dropped`);
      result.data[name] = value;
      return;
    }
    case 'enum': {
      if (typeof raw !== 'string' || !(definition.values ?? []).includes(raw))
        return void result.warnings.push(
          `${name}: not one of ${(definition.values ?? []).join(', ')}, dropped`,
        );
      result.data[name] = raw;
      return;
    }
    case 'geo':
      return void result.warnings.push(`${name}: send latitude and longitude instead, dropped`);
    case 'number': {
      const value = toNumber(raw);
      if (value === undefined) return void result.warnings.push(`${name}: not a number, dropped`);
      const range = rules.plausible.get(name);
      if (range !== undefined && (value < range[0] || value > range[1]))
        return void result.warnings.push(
          `${name}: ${fmt(value)} outside the sensor's range ${fmt(range[0])}..${fmt(range[1])}, dropped`,
        );
      const bounds = fieldBounds(name);
      if (value < bounds.min || value > bounds.max)
        result.warnings.push(`${name}: ${fmt(value)} outside ${fmt(bounds.min)}..${fmt(bounds.max)}, kept`);
      result.data[name] = value;
      return;
    }
  }
}

// Devices that send JSON often quote numbers ("21.5"); a numeric string is taken as its number.
function toNumber(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw === 'string' && raw.trim() !== '') {
    const value = Number(raw);
    return Number.isFinite(value) ? value : undefined;
  }
  return undefined;
}
