import { ENERGY_TRANSDUCER_MULTIPLIERS, MAX_PUMPS, MAX_VALVES } from '../constants/session';

/**
 * The data field catalogue (spec sections 3 and 5): the measurement keys devices report, with the
 * unit and the kind of value. Names are the keys inside a data point's `data` object.
 */
export type FieldKind = 'number' | 'boolean' | 'enum' | 'geo';

/** Which pair of words a boolean field is shown with (spec section 4: occupied/free, door, valve, active). */
export type BooleanLabels = 'occupied' | 'door' | 'valve' | 'active' | 'leak' | 'motion' | 'tilt';

export interface FieldDefinition {
  readonly name: string;
  readonly kind: FieldKind;
  readonly unit?: string;
  /** Allowed values of an enum field. */
  readonly values?: readonly string[];
  /** Labels of a boolean field. */
  readonly labels?: BooleanLabels;
}

const number = (name: string, unit?: string): FieldDefinition =>
  unit === undefined ? { name, kind: 'number' } : { name, kind: 'number', unit };
const flag = (name: string, labels: BooleanLabels): FieldDefinition => ({ name, kind: 'boolean', labels });
const numbered = (count: number, make: (n: number) => FieldDefinition) =>
  Array.from({ length: count }, (_, i) => make(i + 1));
const phases = [1, 2, 3] as const;

export const VEHICLE_CLASSES = ['car', 'van', 'truck', 'bus', 'motorcycle', 'bicycle', 'unknown'] as const;

export const FIELD_DEFINITIONS: readonly FieldDefinition[] = [
  // Climate and weather
  number('temperature', '°C'),
  number('humidity', '%'),
  number('dew_point', '°C'),
  number('wet_bulb_temperature', '°C'),
  number('pt100_temperature', '°C'),
  number('heat_index', '°C'),
  number('pressure', 'hPa'),
  number('hpa1', 'hPa'),
  number('co2', 'ppm'),
  number('brightness', 'lx'),
  number('uv_index'),
  number('rain_hourly', 'mm'),
  number('wind_speed_kmh', 'km/h'),
  number('wind_direction', '°'),
  // Soil
  number('soil', '%'),
  number('soil_humidity', '%'),
  number('soil_temperature', '°C'),
  number('soil_ph', 'pH'),
  number('soil_water_pf1', 'pF'),
  number('conductivity', 'µS/cm'),
  // Power supply and radio
  number('battery', '%'),
  number('battery_level', '%'),
  number('battery_voltage', 'V'),
  number('signal_strength'),
  number('rssi', 'dBm'),
  number('satellites'),
  // Water
  number('flow_rate', 'l/h'),
  number('flow_rate_m3h', 'm³/h'),
  number('water_level_cm', 'cm'),
  flag('water_leak', 'leak'),
  ...numbered(MAX_PUMPS, (n) => flag(`pump_${n}`, 'active')),
  ...numbered(MAX_VALVES, (n) => flag(`valve_${n}`, 'valve')),
  // Electricity: per phase L1..L3 and total; energy also through 50:1 and 200:1 current transformers
  ...phases.map((n) => number(`voltage_l${n}`, 'V')),
  ...phases.map((n) => number(`current_l${n}`, 'A')),
  ...phases.map((n) => number(`power_l${n}`, 'W')),
  number('power_total', 'W'),
  number('energy_import', 'kWh'),
  number('energy_export', 'kWh'),
  ...ENERGY_TRANSDUCER_MULTIPLIERS.flatMap((x) => [
    number(`energy_import_x${x}`, 'kWh'),
    number(`energy_export_x${x}`, 'kWh'),
  ]),
  number('heat_energy', 'kWh'),
  number('thermal_power', 'kW'),
  // Inputs and outputs
  ...numbered(4, (n) => flag(`digital_input_${n}`, 'active')),
  ...numbered(4, (n) => flag(`digital_output_${n}`, 'active')),
  ...numbered(4, (n) => number(`counter_${n}`)),
  ...numbered(2, (n) => flag(`relay_output_${n}`, 'active')),
  ...numbered(2, (n) => flag(`gpio_${n}`, 'active')),
  // Presence, doors, motion
  flag('occupied', 'occupied'),
  number('pax_count'),
  flag('door_open', 'door'),
  number('door_open_duration', 's'),
  flag('pir_motion', 'motion'),
  flag('tilt', 'tilt'),
  number('position_angle'),
  number('distance', 'cm'),
  ...['sound_level_min', 'sound_level_avg', 'sound_level_max'].map((name) => number(name, 'dB')),
  number('vehicle_count'),
  { name: 'vehicle_class', kind: 'enum', values: VEHICLE_CLASSES },
  // Position
  number('latitude', '°'),
  number('longitude', '°'),
  { name: 'geo', kind: 'geo' },
];

const byName = new Map(FIELD_DEFINITIONS.map((field) => [field.name, field]));

export const FIELD_NAMES: readonly string[] = FIELD_DEFINITIONS.map((field) => field.name);

/** The catalogue entry for a field name, or undefined for names the catalogue does not list. */
export function fieldDefinition(name: string): FieldDefinition | undefined {
  return byName.get(name);
}
