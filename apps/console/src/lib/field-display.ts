import {
  BEAUFORT_NAMES,
  beaufortFromKmh,
  type FormattedValue,
  formatFieldValue,
  soilMoistureClass,
  uvIndexClass,
  windDirectionSector,
} from '@iot/domain';
import { toNumber } from './chart-data';

/**
 * A value as shown in the list and the drawers: the domain's formatFieldValue (decimals, units,
 * occupied/free, door and valve open/closed) plus the class label of soil moisture (pF), UV index,
 * wind speed (Beaufort) and wind direction (16 sectors) as an i18n key beside it.
 */
export interface FieldDisplay {
  value: FormattedValue;
  classKey: string | null;
}

function classKey(field: string, value: unknown): string | null {
  const n = toNumber(value);
  if (n === null) return null;
  if (field === 'soil_water_pf1' || field.startsWith('soil_pf')) {
    const c = soilMoistureClass(n);
    return c ? `display.soil.${c}` : null;
  }
  if (field === 'uv_index') {
    const c = uvIndexClass(n);
    return c ? `display.uv.${c}` : null;
  }
  if (field === 'wind_speed_kmh') {
    const b = beaufortFromKmh(n);
    const name = b === null ? undefined : BEAUFORT_NAMES[b];
    return name ? `display.beaufort.${name}` : null;
  }
  if (field === 'wind_direction') {
    const s = windDirectionSector(n);
    return s ? `display.wind-direction.${s}` : null;
  }
  return null;
}

export function describeField(field: string, value: unknown, locale: string): FieldDisplay {
  return { value: formatFieldValue(field, value, { locale }), classKey: classKey(field, value) };
}
