import { getDriver } from '@iot/codecs';
import { COLD_ROOM_COOLING_NAME, seededRandom } from '@iot/demo-data';
import { describe, expect, it } from 'vitest';
import { applyDownlink, buildUplink, canSimulate, profileOf, type SimDevice } from './build-uplink.js';

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
    ['Stellplatz A-03', null, null, 'parking', 2, null],
    ['P7', 'lorawan_parking', null, 'parking', 0, null],
    ['Funk-Taster Halle', 'srd_button', 'srd_button', 'button', 0, 'srd_button'],
    // Its relays have no slot in the srd_gateway frame: JSON.
    [COLD_ROOM_COOLING_NAME, 'srd_gateway', 'srd_gateway', 'cooling_controller', 0, null],
    // Nor have the irrigation valves' states in the soil probe's frame.
    ['Ventil Beregnung West', 'nbiot_soil_sensor', 'nbiot_soil_sensor', 'valve', 1, null],
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

describe('the cooling controller answers its downlinks', () => {
  const device: SimDevice = {
    id: 45,
    uuid: 'u',
    name: COLD_ROOM_COOLING_NAME,
    device_type: 'srd_gateway',
    driver_id: 'srd_gateway',
    token: 't',
  };
  const driver = getDriver('srd_gateway')!;
  const encode = (command: string, params: Record<string, unknown>) =>
    driver.encodeDownlink!({ command, params }).bytes;
  const relays = (state: Parameters<typeof buildUplink>[2]) => {
    const sent = JSON.parse(new TextDecoder().decode(buildUplink(device, profile, state, Date.now()).body));
    return [sent.relay_output_1, sent.relay_output_2];
  };
  const profile = profileOf(device, 0);

  it('reports relay 1 on after the driver’s switch_relay_output, off again after the next, ignores the rest', () => {
    const state = { clicks: 0, startedAt: Date.now(), rnd: seededRandom(3) };
    expect(relays(state)).toEqual([false, false]);
    expect(applyDownlink(profile, state, encode('switch_relay_output', { output: 1, on: true }))).toBe(true);
    expect(relays(state)).toEqual([true, false]);
    expect(
      applyDownlink(profile, state, encode('switch_relay_output_timed', { output: 2, seconds: 600 })),
    ).toBe(true);
    expect(relays(state)).toEqual([true, true]);
    expect(applyDownlink(profile, state, encode('reboot', {}))).toBe(false);
    expect(applyDownlink(profile, state, encode('switch_relay_output', { output: 1, on: false }))).toBe(true);
    expect(relays(state)).toEqual([false, true]);
  });

  it('leaves devices without a downlink answer as they are', () => {
    const button = profileOf(
      { name: 'Taster Empfang', driver_id: 'nbiot_button', device_type: 'nbiot_button' },
      0,
    );
    const state = { clicks: 0, startedAt: Date.now(), rnd: seededRandom(3) };
    expect(applyDownlink(button, state, Uint8Array.from([1, 7]))).toBe(false);
    expect(state).not.toHaveProperty('reported');
  });
});

describe('the irrigation valves answer their downlinks', () => {
  const device: SimDevice = {
    id: 46,
    uuid: 'v',
    name: 'Ventil Beregnung Ost',
    device_type: 'nbiot_soil_sensor',
    driver_id: 'nbiot_soil_sensor',
    token: 't',
  };
  const driver = getDriver('nbiot_soil_sensor')!;
  const encode = (command: string, params: Record<string, unknown>) =>
    driver.encodeDownlink!({ command, params }).bytes;
  const profile = profileOf(device, 0);
  const sent = (state: Parameters<typeof buildUplink>[2]) =>
    JSON.parse(new TextDecoder().decode(buildUplink(device, profile, state, Date.now()).body));

  it('report the valve the driver’s switch_solenoid_valve set, and ignore other commands', () => {
    const state = { clicks: 0, startedAt: Date.now(), rnd: seededRandom(5) };
    expect(applyDownlink(profile, state, encode('switch_solenoid_valve', { valve: 1, on: true }))).toBe(true);
    expect(sent(state).valve_1).toBe(true);
    expect(applyDownlink(profile, state, encode('switch_solenoid_valve', { valve: 1, on: false }))).toBe(
      true,
    );
    expect(sent(state).valve_1).toBe(false);
    expect(applyDownlink(profile, state, encode('switch_solenoid_valve', { valve: 3, on: true }))).toBe(true);
    expect(sent(state).valve_3).toBe(true);
    expect(applyDownlink(profile, state, encode('reboot', {}))).toBe(false);
    expect(applyDownlink(profile, state, Uint8Array.from([1, 6, 5, 1]))).toBe(false);
  });
});

describe('frames a device sends several times a second', () => {
  // Ingest stores a frame without its own id once per device, bytes and second of receipt. The simulation
  // test failed on a busy machine: two distance sensor frames built in adjacent seconds, equal bytes,
  // arrived in one second and were stored once.
  it('are not repeated within 1.5 s, so a delay of up to half a second merges none', () => {
    let merged = 0;
    for (let id = 1; id <= 50; id++) {
      const device: SimDevice = {
        id,
        uuid: 'u',
        name: `Zisterne ${id}`,
        device_type: 'nbiot_distance_sensor',
        driver_id: 'nbiot_distance_sensor',
        token: 't',
      };
      const profile = profileOf(device, 0);
      const state = { clicks: 0, startedAt: 0, rnd: seededRandom(id) };
      const received = new Set<string>();
      // 5 a second for 8 s, every second one taken 400 ms late.
      for (let i = 0; i < 40; i++) {
        const sentAt = 1_000_000 + i * 200;
        const uplink = buildUplink(device, profile, state, sentAt);
        const key = `${Math.floor((sentAt + (i % 2) * 400) / 1000)}:${Buffer.from(uplink.body).toString('hex')}`;
        if (received.has(key)) merged += 1;
        received.add(key);
      }
    }
    expect(merged).toBe(0);
  });
});
