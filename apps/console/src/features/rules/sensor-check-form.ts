import { type FieldRules, fieldBounds, rule } from '@iot/domain';
import { SENSOR_CHECK_KINDS, type SensorCheck, type SensorCheckInput, type SensorCheckKind } from './types';

export interface SensorCheckFormValues {
  kind: SensorCheckKind;
  data_field: string;
  max_silence_seconds: string;
  min_value: string;
  max_value: string;
  level: string;
  is_active: boolean;
}

const text = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
const num = (v: string): number | null => {
  const trimmed = v.trim().replace(',', '.');
  return trimmed === '' ? null : Number(trimmed);
};

/** Battery below 20 % is the usual warning level; the display's "low" bucket starts at 30. */
export const DEFAULT_BATTERY_LEVEL = 20;
/** One hour without data as a first guess; most sensors report every 10 to 15 minutes. */
export const DEFAULT_SILENCE_SECONDS = 3600;

export function checkToForm(check: SensorCheck | null): SensorCheckFormValues {
  const kind = (SENSOR_CHECK_KINDS as readonly string[]).includes(check?.kind ?? '')
    ? (check?.kind as SensorCheckKind)
    : 'no_data';
  return {
    kind,
    data_field: check?.data_field ?? '',
    max_silence_seconds: text(check?.max_silence_seconds ?? DEFAULT_SILENCE_SECONDS),
    min_value: text(check?.min_value),
    max_value: text(check?.max_value),
    level: text(check?.level ?? (kind === 'battery_low' ? check?.min_value : null) ?? DEFAULT_BATTERY_LEVEL),
    is_active: check?.is_active ?? true,
  };
}

/** Bounds of the implausible-value check prefilled from the domain's fieldBounds (spec section 5). */
export function boundsFor(field: string): { min_value: string; max_value: string } {
  const bounds = fieldBounds(field);
  return { min_value: String(bounds.min), max_value: String(bounds.max) };
}

export function sensorCheckRules(values: Readonly<Record<string, unknown>>): FieldRules {
  const v = values as Partial<SensorCheckFormValues>;
  switch (v.kind) {
    case 'implausible_value':
      return { data_field: ['required'], min_value: ['decimal'], max_value: ['decimal'] };
    case 'battery_low':
      return { level: ['required', 'integer', rule.range(0, 100)] };
    default:
      return { max_silence_seconds: ['required', 'integer', rule.min(60)] };
  }
}

export function formToCheck(values: SensorCheckFormValues): SensorCheckInput {
  switch (values.kind) {
    case 'implausible_value':
      return {
        kind: values.kind,
        data_field: values.data_field,
        min_value: num(values.min_value),
        max_value: num(values.max_value),
        is_active: values.is_active,
      };
    case 'battery_low':
      return {
        kind: values.kind,
        level: num(values.level),
        data_field: values.data_field || null,
        is_active: values.is_active,
      };
    default:
      return {
        kind: 'no_data',
        max_silence_seconds: num(values.max_silence_seconds),
        is_active: values.is_active,
      };
  }
}
