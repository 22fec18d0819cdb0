import { getDriver } from '@iot/codecs';
import { DEMO_FLEET, seededRandom } from '@iot/demo-data';
import { describe, expect, it } from 'vitest';
import { buildUplink, profileOf, type SimDevice } from './build-uplink.js';
import { encodeFrame, FRAME_LAYOUTS, frameFields } from './encode-frame.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase().match(/../g)?.join(' ');

describe('encodeFrame', () => {
  // The examples of packages/codecs/README.md, "Built-in uplink formats".
  it.each([
    ['nbiot_button', { click_type: 2, click_count: 42, battery_level: 87 }, '01 02 00 2A 57'],
    [
      'srd_gateway',
      { uptime_s: 86400, signal_strength: 4, rssi: -75, temperature: 42 },
      '01 00 01 51 80 04 B5 01 A4',
    ],
    [
      'nbiot_soil_sensor',
      {
        soil_humidity: 32.1,
        soil_temperature: 12.3,
        soil_water_pf1: 2.5,
        conductivity: 350,
        battery_level: 80,
      },
      '01 01 41 00 7B 19 01 5E 50',
    ],
    [
      'nbiot_frost_sensor',
      { temperature: -3, dew_point: -6, wet_bulb: -4, humidity: 85, battery_level: 90 },
      '01 FF E2 FF C4 FF D8 03 52 5A',
    ],
    [
      'nbiot_distance_sensor',
      { distance: 211.6, fill_level: 60, battery_level: 92, signal_strength: 4 },
      '01 08 44 3C 5C 04',
    ],
    [
      'nbiot_weatherstation',
      {
        temperature: 21.5,
        humidity: 65,
        pressure: 1013.5,
        wind_speed_kmh: 12.3,
        wind_direction: 225,
        rain_hourly: 1.2,
        uv_index: 5,
        brightness: 15000,
        battery_level: 100,
      },
      '01 00 D7 02 8A 27 97 00 7B 00 E1 00 0C 32 00 00 3A 98 64',
    ],
  ])('%s frame matches the documented example', (driverId, reading, expected) => {
    expect(hex(encodeFrame(driverId, reading).bytes)).toBe(expected);
  });

  it('sends the "no reading" code for a slot the reading does not fill', () => {
    const { bytes, carried } = encodeFrame('nbiot_frost_sensor', { temperature: 1, battery_level: 50 });
    expect(hex(bytes)).toBe('01 00 0A 7F FF 7F FF FF FF 32');
    expect(carried).toEqual({ temperature: 1, battery_level: 50 });
  });
});

describe('simulated uplinks of every demo device kind decode back to the reading', () => {
  const kinds = DEMO_FLEET.flatMap((kind) =>
    kind.names.map((name) => ({ kind: kind.kind, name, driver: kind.deviceType, json: kind.json === true })),
  );

  it.each(kinds)('$kind $name ($driver)', ({ name, driver, json }) => {
    const device: SimDevice = { id: 1, uuid: 'u', name, device_type: driver, driver_id: driver, token: 't' };
    const profile = profileOf(device, 0);
    expect(profile.kind.names).toContain(name);
    const state = { clicks: 0, startedAt: Date.UTC(2026, 10, 21), rnd: seededRandom(7) };
    // A day of uplinks, every 37 minutes, so the day curves and the random parts go through their range.
    for (let t = state.startedAt; t < state.startedAt + 86_400_000; t += 37 * 60_000) {
      const uplink = buildUplink(device, profile, state, t);
      const driverOf = driver === null ? undefined : getDriver(driver);
      if (!driverOf || json) {
        // Devices without a built-in driver, and those whose state has no slot in its frame, send JSON.
        expect(uplink.contentType).toBe('application/json');
        const sent = JSON.parse(new TextDecoder().decode(uplink.body));
        expect(sent).toEqual({
          ...uplink.reading,
          message_id: uplink.messageId,
          time: new Date(t).toISOString(),
        });
        if (driverOf) {
          // The driver takes the JSON data fields (ingest strips message_id and time before decoding).
          const decoded = driverOf.decodeUplink({
            bytes: new Uint8Array(),
            json: uplink.reading,
            receivedAt: new Date(t),
          });
          expect(decoded.errors).toEqual([]);
          expect(decoded.warnings).toEqual([]);
          expect(decoded.data).toEqual(uplink.reading);
        }
        continue;
      }
      expect(uplink.contentType).toBe('application/octet-stream');
      const decoded = driverOf.decodeUplink({
        bytes: uplink.body,
        fPort: FRAME_LAYOUTS[driver ?? '']?.fPort,
        receivedAt: new Date(t),
      });
      expect(decoded.errors).toEqual([]);
      expect(decoded.warnings).toEqual([]);
      expect(decoded.data).toEqual(uplink.reading);
      // Every field of the generator's reading that the frame has a slot for arrives unchanged.
      const generated = frameFields(uplink.generated);
      for (const [field, value] of Object.entries(generated)) {
        if (FRAME_LAYOUTS[driver ?? '']?.fields.some((f) => f.name === field))
          expect(decoded.data[field]).toBe(value + 0);
      }
    }
  });
});
