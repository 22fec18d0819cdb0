import { describe, expect, it } from 'vitest';
import { getDriver, listDrivers } from '../index.js';
import { hex } from './drivers-test-setup';

const receivedAt = new Date('2026-01-01T00:00:00Z');

function decode(id: string, bytes: Uint8Array, fPort?: number, json?: unknown) {
  const driver = getDriver(id);
  if (driver === undefined) throw new Error(`no driver ${id}`);
  return driver.decodeUplink({ bytes, fPort, json, receivedAt });
}

describe('registry', () => {
  it('has one driver per device type of spec section 3', () => {
    expect(listDrivers().map((d) => d.deviceType)).toEqual([
      'nbiot_button',
      'srd_button',
      'srd_gateway',
      'nbiot_soil_sensor',
      'nbiot_frost_sensor',
      'nbiot_distance_sensor',
      'nbiot_weatherstation',
    ]);
    expect(getDriver('no_such_driver')).toBeUndefined();
  });
});

// Known frames: the examples in each driver's doc comment and README, decoded to exact values.
const FRAMES: {
  id: string;
  frame: string;
  fPort?: number;
  data: Record<string, number>;
  warnings?: string[];
}[] = [
  {
    id: 'nbiot_button',
    frame: '01 01 00 00 64',
    data: { click_type: 1, click_count: 0, battery_level: 100 },
  },
  {
    id: 'nbiot_button',
    frame: '01 02 00 2A 57',
    data: { click_type: 2, click_count: 42, battery_level: 87 },
  },
  {
    id: 'srd_button',
    frame: '01 04 01 00 0A',
    fPort: 1,
    data: { click_type: 4, click_count: 256, battery_level: 10 },
  },
  {
    id: 'srd_button',
    frame: '01 01 FF FF 00',
    fPort: 1,
    data: { click_type: 1, click_count: 65_535, battery_level: 0 },
  },
  {
    id: 'srd_gateway',
    frame: '01 00 01 51 80 04 B5 01 A4',
    fPort: 1,
    data: { uptime_s: 86_400, signal_strength: 4, rssi: -75, temperature: 42 },
  },
  {
    id: 'srd_gateway',
    frame: '01 FF FF FF FF 00 7F 7F FF',
    fPort: 1,
    data: { uptime_s: 4_294_967_295 },
    warnings: ['signal_strength: no reading', 'rssi: no reading', 'temperature: no reading'],
  },
  {
    id: 'nbiot_soil_sensor',
    frame: '01 01 41 00 7B 19 01 5E 50',
    data: {
      soil_humidity: 32.1,
      soil_temperature: 12.3,
      soil_water_pf1: 2.5,
      conductivity: 350,
      battery_level: 80,
    },
  },
  {
    id: 'nbiot_soil_sensor',
    frame: '01 FF FF FF 9C FF FF FF 05',
    data: { soil_temperature: -10, battery_level: 5 },
    warnings: ['soil_humidity: no reading', 'soil_water_pf1: no reading', 'conductivity: no reading'],
  },
  {
    id: 'nbiot_frost_sensor',
    frame: '01 FF E2 FF C4 FF D8 03 52 5A',
    data: { temperature: -3, dew_point: -6, wet_bulb_temperature: -4, humidity: 85, battery_level: 90 },
  },
  // -25.5 °C is below the console's -20 (spec section 5) but a real frost reading: kept, warned.
  {
    id: 'nbiot_frost_sensor',
    frame: '01 FF 01 FF 01 FF 01 03 E8 32',
    data: {
      temperature: -25.5,
      dew_point: -25.5,
      wet_bulb_temperature: -25.5,
      humidity: 100,
      battery_level: 50,
    },
    warnings: [
      'temperature: -25.5 outside -20..100, kept',
      'dew_point: -25.5 outside -10..20, kept',
      'wet_bulb_temperature: -25.5 outside -20..100, kept',
    ],
  },
  {
    id: 'nbiot_distance_sensor',
    frame: '01 08 44 3C 5C 04',
    data: { distance: 211.6, fill_level: 60, battery_level: 92, signal_strength: 4 },
  },
  {
    id: 'nbiot_distance_sensor',
    frame: '01 00 1E FF 14 00',
    data: { distance: 3, battery_level: 20 },
    warnings: ['fill_level: no reading', 'signal_strength: no reading'],
  },
  {
    id: 'nbiot_weatherstation',
    frame: '01 00 D7 02 8A 27 97 00 7B 00 E1 00 0C 32 00 00 3A 98 64',
    data: {
      temperature: 21.5,
      humidity: 65,
      pressure: 1013.5,
      wind_speed_kmh: 12.3,
      wind_direction: 225,
      rain_hourly: 1.2,
      uv_index: 5,
      brightness: 15_000,
      battery_level: 100,
    },
  },
  // Full sun: 100 000 lx is within the sensor's range but above the console's 20 000 (spec section 5).
  {
    id: 'nbiot_weatherstation',
    frame: '01 FF 9C 03 E8 26 48 FF FF FF FF 00 00 FF 00 01 86 A0 01',
    data: {
      temperature: -10,
      humidity: 100,
      pressure: 980,
      rain_hourly: 0,
      brightness: 100_000,
      battery_level: 1,
    },
    warnings: [
      'wind_speed_kmh: no reading',
      'wind_direction: no reading',
      'uv_index: no reading',
      'brightness: 100000 outside 0..20000, kept',
    ],
  },
];

describe('built-in drivers decode known frames', () => {
  it.each(FRAMES)('$id $frame', ({ id, frame, fPort, data, warnings }) => {
    expect(decode(id, hex(frame), fPort)).toEqual({ data, warnings: warnings ?? [], errors: [] });
  });
});

const INVALID: { id: string; frame: string; fPort?: number; error: string }[] = [
  { id: 'nbiot_button', frame: '', error: 'empty payload' },
  {
    id: 'nbiot_button',
    frame: '02 01 00 00 64',
    error: 'unsupported frame version 0x02 (nbiot_button knows 0x01)',
  },
  { id: 'nbiot_button', frame: '01 01 00 00', error: 'frame is 4 bytes, version 0x01 has 5' },
  { id: 'nbiot_button', frame: '01 01 00 00 64 00', error: 'frame is 6 bytes, version 0x01 has 5' },
  {
    id: 'srd_button',
    frame: '01 01 00 00 64',
    fPort: 2,
    error: 'fPort 2 is not the data port 1 of srd_button',
  },
  { id: 'srd_gateway', frame: '01', fPort: 1, error: 'frame is 1 bytes, version 0x01 has 9' },
  {
    id: 'nbiot_soil_sensor',
    frame: 'FF',
    error: 'unsupported frame version 0xff (nbiot_soil_sensor knows 0x01)',
  },
  { id: 'nbiot_frost_sensor', frame: '01 00', error: 'frame is 2 bytes, version 0x01 has 10' },
  { id: 'nbiot_distance_sensor', frame: '7B 22 61', error: 'payload starts with "{" but is not JSON' },
  { id: 'nbiot_weatherstation', frame: '00 00', error: 'unsupported frame version 0x00' },
];

describe('invalid frames give errors and no data', () => {
  it.each(INVALID)('$id "$frame"', ({ id, frame, fPort, error }) => {
    const result = decode(id, hex(frame), fPort);
    expect(result.data).toEqual({});
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toContain(error);
  });

  it('drops values outside the sensor range: a fault, not a reading', () => {
    // click type 3 does not exist (1, 2, 4); battery 200 % is impossible.
    const result = decode('nbiot_button', hex('01 03 00 01 C8'));
    expect(result).toEqual({
      data: { click_count: 1 },
      warnings: [
        'click_type: 3 is not one of 1, 2, 4, dropped',
        "battery_level: 200 outside the sensor's range 0..100, dropped",
      ],
      errors: [],
    });
    // A distance of 60 m from a 10 m ultrasonic head is an echo artefact.
    expect(decode('nbiot_distance_sensor', hex('01 EA 60 FF 50 03'))).toEqual({
      data: { battery_level: 80, signal_strength: 3 },
      warnings: ["distance: 6000 outside the sensor's range 0..1000, dropped", 'fill_level: no reading'],
      errors: [],
    });
  });
});

describe('JSON payloads', () => {
  it('takes the same fields as JSON, with aliases and quoted numbers', () => {
    expect(
      decode('nbiot_weatherstation', new Uint8Array(), undefined, {
        temperature: 18.2,
        humidity: '71.5',
        wind_speed: 4,
        battery: 77,
      }),
    ).toEqual({
      data: { temperature: 18.2, humidity: 71.5, wind_speed_kmh: 4, battery_level: 77 },
      warnings: [],
      errors: [],
    });
  });

  it('parses a JSON message body sent as bytes', () => {
    const body = new TextEncoder().encode('{"distance":123.4,"fill":40,"battery":55,"signal":5}');
    expect(decode('nbiot_distance_sensor', body)).toEqual({
      data: { distance: 123.4, fill_level: 40, battery_level: 55, signal_strength: 5 },
      warnings: [],
      errors: [],
    });
  });

  it('drops unknown names and wrong types with a warning', () => {
    expect(
      decode('nbiot_frost_sensor', new Uint8Array(), undefined, {
        temperature: 'cold',
        humidity: 80,
        imei: '123',
        water_leak: 1,
        vehicle_class: 'tractor',
        geo: [48, 7],
      }),
    ).toEqual({
      data: { humidity: 80, water_leak: true },
      warnings: [
        'temperature: not a number, dropped',
        'imei: unknown data field, dropped',
        'vehicle_class: not one of car, van, truck, bus, motorcycle, bicycle, unknown, dropped',
        'geo: send latitude and longitude instead, dropped',
      ],
      errors: [],
    });
  });

  it('rejects JSON that is not an object, or yields no field', () => {
    expect(decode('nbiot_button', new Uint8Array(), undefined, [1, 2]).errors).toEqual([
      'JSON payload is not an object of data fields',
    ]);
    expect(decode('nbiot_button', new Uint8Array(), undefined, { foo: 1 })).toEqual({
      data: {},
      warnings: ['foo: unknown data field, dropped'],
      errors: ['no data field could be read'],
    });
  });
});

// Every command each driver supports, with the exact frame: [0x01][command code][parameters big-endian].
