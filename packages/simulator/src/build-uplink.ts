/**
 * One simulated uplink of one device: a reading from the demo fleet's generator for the device's kind,
 * sent as the built-in driver's binary frame when the device has such a driver, else as JSON.
 */
import { randomUUID } from 'node:crypto';
import { getDriver } from '@iot/codecs';
import { DEMO_FLEET, type DemoDeviceKind, type Reading } from '@iot/demo-data';
import { encodeFrame, hasFrame } from './encode-frame.js';

/** What the simulator needs to know about a device (the API's device list item has all of it). */
export interface SimDevice {
  id: number;
  uuid: string;
  name: string;
  device_type: string | null;
  driver_id: string | null;
  /** The device's access token: MQTT password and HTTP Bearer token. */
  token: string;
}

export interface DeviceProfile {
  kind: DemoDeviceKind;
  /** Index within the kind (the generators vary by it). */
  index: number;
  /** Built-in driver whose frame is sent, or null for JSON. */
  frameDriver: string | null;
}

export interface DeviceState {
  clicks: number;
  startedAt: number;
  rnd: () => number;
  /** Frames (hex) sent within the last REPEAT_WINDOW_MS, with when (see buildUplink). */
  recentFrames?: Map<string, number>;
  /** Fields the device's downlinks have set (a relay switched on): they win over the generator's. */
  reported?: Reading;
}

/** Applies a downlink the device received to its state; false when the device ignores it. */
export function applyDownlink(profile: DeviceProfile, state: DeviceState, bytes: Uint8Array): boolean {
  const changed = profile.kind.applyDownlink?.(bytes);
  if (!changed) return false;
  state.reported = { ...state.reported, ...changed };
  return true;
}

const JSON_KINDS = DEMO_FLEET.filter((k) => k.deviceType === null);

/**
 * Whether ingest can decode what the simulator sends for this device: its built-in driver's frame, or JSON
 * when it has no driver. A driver id that is no built-in driver (demo databases seeded before 2026-11-21
 * gave generic LoRaWAN devices `lorawan_<kind>`) makes ingest keep every uplink undecoded in the device
 * log, JSON included.
 */
export function canSimulate(device: Pick<SimDevice, 'driver_id'>): boolean {
  return device.driver_id === null || getDriver(device.driver_id) !== undefined;
}

/**
 * The demo kind of a device: by its demo name, by its driver (built-in drivers are the device types, other
 * demo devices carry `lorawan_<kind>`), by its device type; devices the demo fleet does not know (e.g.
 * created by a benchmark) get the JSON kinds in turn by position.
 */
export function profileOf(device: Pick<SimDevice, 'name' | 'driver_id' | 'device_type'>, ordinal: number) {
  const byName = DEMO_FLEET.find((k) => k.names.includes(device.name));
  const kind =
    byName ??
    DEMO_FLEET.find((k) => k.deviceType !== null && k.deviceType === device.driver_id) ??
    DEMO_FLEET.find((k) => device.driver_id === `lorawan_${k.kind}`) ??
    DEMO_FLEET.find((k) => k.deviceType !== null && k.deviceType === device.device_type) ??
    JSON_KINDS[ordinal % JSON_KINDS.length] ??
    DEMO_FLEET[0];
  if (!kind) throw new Error('the demo fleet is empty');
  const named = kind.names.indexOf(device.name);
  const index = named >= 0 ? named : ordinal % kind.names.length;
  const frameDriver = hasFrame(device.driver_id) && !kind.json ? device.driver_id : null;
  return { kind, index, frameDriver } satisfies DeviceProfile;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const round1 = (v: number) => Math.round(v * 10) / 10;

/** Relative humidity from temperature and dew point (Magnus formula), as a frost sensor computes it. */
function humidityFromDewPoint(t: number, td: number): number {
  const magnus = (x: number) => Math.exp((17.625 * x) / (243.04 + x));
  return round1(clamp((100 * magnus(td)) / magnus(t), 0, 100));
}

/**
 * Frame slots the demo generators leave empty, filled the way the real device would, so that drivers get
 * complete frames instead of "no reading" codes (which would put a warning in the device log each time).
 */
function completeForFrame(driverId: string, reading: Reading, state: DeviceState, now: number): Reading {
  const out: Reading = { ...reading };
  const num = (key: string) => (typeof reading[key] === 'number' ? (reading[key] as number) : undefined);
  switch (driverId) {
    case 'nbiot_button':
    case 'srd_button':
      state.clicks = (state.clicks + 1) % 65_536;
      out.click_count = state.clicks;
      break;
    case 'srd_gateway':
      out.uptime_s = Math.floor((now - state.startedAt) / 1000);
      out.temperature = round1(35 + state.rnd() * 5); // board temperature
      break;
    case 'nbiot_frost_sensor': {
      const t = num('temperature');
      const td = num('dew_point');
      if (t !== undefined && td !== undefined) out.humidity = humidityFromDewPoint(t, Math.min(t, td));
      break;
    }
    case 'nbiot_distance_sensor': {
      const d = num('distance');
      // Fill level of a 2.5 m deep container, as the device computes it from its configured depth.
      if (d !== undefined) out.fill_level = Math.round(clamp(100 * (1 - d / 250), 0, 100));
      break;
    }
    case 'nbiot_weatherstation':
      if (out.battery_level === undefined) out.battery_level = 100; // solar-buffered
      break;
  }
  return out;
}

/** Hours since the start of the demo history: three days of history end now; the day curve follows the UTC clock. */
function demoHour(now: number): number {
  return 72 + (now % 86_400_000) / 3_600_000;
}

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

export interface Uplink {
  deviceId: number;
  /** Raw frame bytes (driver devices) or the UTF-8 JSON text. */
  body: Uint8Array;
  contentType: 'application/octet-stream' | 'application/json';
  /** The reading sent, under the names the platform stores (what a driver decodes from the frame). */
  reading: Reading;
  /** What the generator produced (plus frame slots filled the device's way), before encoding. */
  generated: Reading;
  messageId: string;
}

/**
 * How long a frame a device sent is not sent again (see buildUplink): frames built up to this far apart
 * can arrive in one second when the front door takes them up to half a second late. Longer windows leave
 * devices with few distinct frames (the frost sensor) no frame to draw.
 */
const REPEAT_WINDOW_MS = 1500;

export function buildUplink(
  device: SimDevice,
  profile: DeviceProfile,
  state: DeviceState,
  now: number,
): Uplink {
  const reading = { ...profile.kind.reading(demoHour(now), state.rnd, profile.index), ...state.reported };
  if (profile.frameDriver) {
    // Ingest identifies a frame without its own id by device, bytes and second of receipt, so the same frame
    // twice in one second is stored once. At simulation rates above one per second per device, draw again
    // (real devices do not report that often, and their readings would differ). Not only within the
    // second the frame is built in: frames built in two seconds can arrive in one (a busy machine delays
    // some), so the frames of the last REPEAT_WINDOW_MS count.
    state.recentFrames ??= new Map();
    const recent = state.recentFrames;
    for (const [hex, at] of recent) if (now - at >= REPEAT_WINDOW_MS) recent.delete(hex);
    let generated = completeForFrame(profile.frameDriver, reading, state, now);
    let frame = encodeFrame(profile.frameDriver, generated);
    for (let draw = 0; draw < 20 && recent.has(hexOf(frame.bytes)); draw += 1) {
      const again = profile.kind.reading(demoHour(now), state.rnd, profile.index);
      generated = completeForFrame(profile.frameDriver, again, state, now);
      frame = encodeFrame(profile.frameDriver, generated);
    }
    recent.set(hexOf(frame.bytes), now);
    return {
      deviceId: device.id,
      body: frame.bytes,
      contentType: 'application/octet-stream',
      reading: frame.carried,
      generated,
      messageId: '',
    };
  }
  // JSON carries its own message id and measurement time, so a resend after a 503 (which ingest may still
  // have stored) is the same data point: ingest deduplicates on device, time and message id.
  const messageId = randomUUID();
  const time = new Date(now).toISOString();
  return {
    deviceId: device.id,
    body: new TextEncoder().encode(JSON.stringify({ ...reading, message_id: messageId, time })),
    contentType: 'application/json',
    reading,
    generated: reading,
    messageId,
  };
}
