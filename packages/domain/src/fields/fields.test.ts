import { describe, expect, it } from 'vitest';
import { fieldBounds, fieldDecimals } from './bounds';
import { FIELD_DEFINITIONS, FIELD_NAMES, fieldDefinition } from './catalogue';
import { isVirtualFieldName, parseVirtualFieldName, virtualFieldName } from './virtual-field-name';

const UUID = '123e4567-e89b-12d3-a456-426614174000';

describe('field catalogue (spec section 3)', () => {
  it.each([
    'temperature',
    'humidity',
    'battery_level',
    'soil_humidity',
    'soil_ph',
    'co2',
    'flow_rate',
    'pump_1',
    'pump_10',
    'valve_1',
    'valve_4',
    'voltage_l1',
    'current_l3',
    'power_l2',
    'power_total',
    'energy_import',
    'energy_export',
    'energy_import_x50',
    'energy_export_x200',
    'water_leak',
    'water_level_cm',
    'wind_speed_kmh',
    'wind_direction',
    'occupied',
    'pax_count',
    'signal_strength',
    'dew_point',
    'wet_bulb_temperature',
    'pt100_temperature',
    'conductivity',
    'pressure',
    'digital_input_4',
    'digital_output_1',
    'counter_4',
    'relay_output_2',
    'gpio_2',
    'door_open',
    'door_open_duration',
    'pir_motion',
    'tilt',
    'rain_hourly',
    'uv_index',
    'sound_level_max',
    'satellites',
    'heat_index',
    'thermal_power',
    'vehicle_count',
    'vehicle_class',
    'soil_water_pf1',
    'brightness',
    'position_angle',
    'hpa1',
    'distance',
    'soil',
    'battery',
    'latitude',
    'longitude',
    'geo',
  ])('lists %s', (name) => {
    expect(fieldDefinition(name)).toBeDefined();
  });

  it('has pumps 1..10, valves 1..4 and no more', () => {
    expect(fieldDefinition('pump_11')).toBeUndefined();
    expect(fieldDefinition('valve_5')).toBeUndefined();
    expect(FIELD_NAMES.filter((n) => n.startsWith('pump_'))).toHaveLength(10);
  });

  it.each([
    ['temperature', 'number', '°C'],
    ['occupied', 'boolean', undefined],
    ['vehicle_class', 'enum', undefined],
    ['geo', 'geo', undefined],
    ['wind_speed_kmh', 'number', 'km/h'],
  ] as const)('%s is a %s in %s', (name, kind, unit) => {
    expect(fieldDefinition(name)).toMatchObject({ kind });
    expect(fieldDefinition(name)?.unit).toBe(unit);
  });

  it('has unique names and labels on every boolean', () => {
    expect(new Set(FIELD_NAMES).size).toBe(FIELD_NAMES.length);
    for (const field of FIELD_DEFINITIONS) if (field.kind === 'boolean') expect(field.labels).toBeDefined();
  });
});

describe('fieldBounds (spec section 5)', () => {
  it.each([
    ['co2', 0, 100_000, 1],
    ['signal_strength', 1, 5, 1],
    ['dew_point', -10, 20, 1],
    ['temperature', -20, 100, 1],
    ['soil_temperature', -20, 100, 1],
    [`virtual.${UUID}.temperature`, -20, 100, 1],
    ['position_angle', 0, 1, 1],
    ['soil_water_pf1', 0, 5, 0.5],
    ['brightness', 0, 20_000, 10],
    ['hpa1', 0, 100_000, 10],
    ['latitude', -90, 90, 1],
    ['longitude', -180, 180, 1],
  ] as const)('%s: min %d, max %d, step %d', (name, min, max, step) => {
    expect(fieldBounds(name)).toEqual({ min, max, step });
  });
});

describe('fieldDecimals (spec section 5)', () => {
  it.each([
    [`virtual.${UUID}.flow`, 1],
    ['battery', 1],
    ['battery_voltage', 1],
    ['battery_level', 1],
    ['distance', 1],
    ['soil', 1],
    ['soil_ph', 1],
    ['humidity', 1],
    ['temperature', 1],
    ['wet_bulb_temperature', 1],
    ['dew_point', 1],
    ['co2', 0],
    ['pax_count', 0],
    ['wind_speed_kmh', 0],
  ] as const)('%s -> %d', (name, decimals) => {
    expect(fieldDecimals(name)).toBe(decimals);
  });
});

describe('virtual field names virtual.<uuid>.<name>', () => {
  it.each([
    [`virtual.${UUID}.flow`, { uuid: UUID, name: 'flow' }],
    [`virtual.${UUID}.a.b`, { uuid: UUID, name: 'a.b' }],
    ['virtual.not-a-uuid.flow', null],
    [`virtual.${UUID}`, null],
    [`virtual.${UUID}. `, null],
    [`virt.${UUID}.flow`, null],
  ])('%s -> %j', (name, parsed) => {
    expect(parseVirtualFieldName(name)).toEqual(parsed);
    expect(isVirtualFieldName(name)).toBe(parsed !== null);
  });

  it('builds a name that parses back', () => {
    expect(parseVirtualFieldName(virtualFieldName(UUID, 'sum'))).toEqual({ uuid: UUID, name: 'sum' });
  });
});
