import { describe, expect, it } from 'vitest';
import { canSimulate, profileOf } from './build-uplink.js';

describe('profileOf: which demo kind a device simulates', () => {
  it.each([
    // name, driver_id, device_type -> kind, index, frame driver
    [
      'Wetterstation Kaiserstuhl',
      'nbiot_weatherstation',
      'nbiot_weatherstation',
      'weather_station',
      1,
      'nbiot_weatherstation',
    ],
    ['Mein Wetter', 'nbiot_weatherstation', null, 'weather_station', 0, 'nbiot_weatherstation'],
    ['Parkplatz P3', null, null, 'parking', 2, null],
    ['P7', 'lorawan_parking', null, 'parking', 0, null],
    ['Funk-Taster Halle', 'srd_button', 'srd_button', 'button', 0, 'srd_button'],
  ])('%s (%s, %s) -> %s #%i, frame %s', (name, driver, type, kind, index, frame) => {
    const profile = profileOf({ name, driver_id: driver, device_type: type }, 0);
    expect([profile.kind.kind, profile.index, profile.frameDriver]).toEqual([kind, index, frame]);
  });

  it('gives devices the demo fleet does not know the JSON kinds in turn', () => {
    const kinds = [0, 1, 2].map(
      (i) => profileOf({ name: `x${i}`, driver_id: null, device_type: null }, i).kind,
    );
    expect(new Set(kinds.map((k) => k.kind)).size).toBe(3);
    for (const k of kinds) expect(k.deviceType).toBeNull();
  });
});

describe('canSimulate: ingest can decode what the simulator sends', () => {
  it.each([
    [null, true],
    ['nbiot_soil_sensor', true],
    ['srd_gateway', true],
    ['lorawan_parking', false],
  ])('driver %s -> %s', (driver, expected) => {
    expect(canSimulate({ driver_id: driver })).toBe(expected);
  });
});
