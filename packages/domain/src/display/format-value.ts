import { fieldDecimals } from '../fields/bounds';
import { type BooleanLabels, fieldDefinition } from '../fields/catalogue';
import { parseDecimal } from '../validation/numbers';

/** Either text to show (with its unit apart, for styling) or an i18n key to translate. */
export type FormattedValue = { kind: 'text'; text: string; unit?: string } | { kind: 'key'; key: string };

/** i18n keys for true and false of each boolean label pair (spec section 4). */
export const BOOLEAN_LABEL_KEYS: Record<BooleanLabels, readonly [whenTrue: string, whenFalse: string]> = {
  occupied: ['display.occupied', 'display.free'],
  door: ['display.door-open', 'display.door-closed'],
  valve: ['display.valve-open', 'display.valve-closed'],
  active: ['display.active', 'display.inactive'],
  leak: ['display.leak', 'display.no-leak'],
  motion: ['display.motion', 'display.no-motion'],
  tilt: ['display.tilted', 'display.not-tilted'],
};

export const NO_DATA_KEY = 'display.no-data';

function asBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return null;
}

export interface FormatValueOptions {
  /** BCP 47 locale for number formatting; German by default like the rest of the interface. */
  locale?: string;
  /** Unit to use when the catalogue has none, e.g. the unit given with a virtual field. */
  unit?: string;
}

/**
 * Formats a data value for display by its field: numbers with the field's decimals and unit,
 * booleans as label keys (occupied/free, door open/closed, valve open/closed, active/inactive),
 * enum values as keys, geo as "lat, lng". A missing value is the no-data key.
 */
export function formatFieldValue(
  name: string,
  value: unknown,
  options: FormatValueOptions = {},
): FormattedValue {
  if (value === null || value === undefined || value === '') return { kind: 'key', key: NO_DATA_KEY };
  const definition = fieldDefinition(name);
  const locale = options.locale ?? 'de';

  if (definition?.kind === 'boolean' || typeof value === 'boolean') {
    const flag = asBoolean(value);
    if (flag !== null) {
      const [whenTrue, whenFalse] = BOOLEAN_LABEL_KEYS[definition?.labels ?? 'active'];
      return { kind: 'key', key: flag ? whenTrue : whenFalse };
    }
  }
  if (definition?.kind === 'enum' && typeof value === 'string' && definition.values?.includes(value)) {
    return { kind: 'key', key: `display.${name.replaceAll('_', '-')}.${value}` };
  }
  if (definition?.kind === 'geo' && Array.isArray(value) && value.length === 2) {
    const [latitude, longitude] = value.map(Number);
    if (Number.isFinite(latitude) && Number.isFinite(longitude)) {
      // Fixed point, locale-free: a German decimal comma would collide with the separator.
      return { kind: 'text', text: `${latitude?.toFixed(6)}, ${longitude?.toFixed(6)}` };
    }
  }

  const number = parseDecimal(value);
  if (!Number.isFinite(number)) return { kind: 'text', text: String(value) };
  const decimals = fieldDecimals(name);
  const text = new Intl.NumberFormat(locale, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(number);
  const unit = definition?.unit ?? options.unit;
  return unit === undefined ? { kind: 'text', text } : { kind: 'text', text, unit };
}
