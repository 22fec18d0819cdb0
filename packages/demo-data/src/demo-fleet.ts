/**
 * The demo fleet: every device kind of the spec (section 1), each with a generator of plausible readings
 * over time, so the console has history to draw on first start.
 */
import { COLD_ROOM_COOLING_KIND, COLD_ROOM_KIND } from './demo-cold-room.js';
import { round } from './random.js';

export type Reading = Record<string, number | boolean | string>;

export interface DemoDeviceKind {
  /** The spec's device kind, as the console names it. */
  kind: string;
  /** One of the spec's device types where the kind has one; other kinds are generic LoRaWAN devices. */
  deviceType: string | null;
  names: string[];
  /** Minutes between two uplinks. */
  intervalMinutes: number;
  icon: string;
  /**
   * Connects over MQTT itself (no DevEUI) although its device type is a LoRaWAN one (srd_*): downlinks
   * then go to devices/<uuid>/down, which LoRaWAN devices cannot receive yet.
   */
  mqtt?: boolean;
  /**
   * Sends its readings as JSON although its driver has a binary frame: its state (relay outputs) has no
   * slot in that frame, and the driver takes JSON data fields too.
   */
  json?: boolean;
  /**
   * How the device answers a downlink: the fields the command changes in its following readings (e.g. a
   * relay switched on), or undefined for a command it ignores. The simulator applies it.
   */
  applyDownlink?: (bytes: Uint8Array) => Reading | undefined;
  /** Sensor type code (spec: PARKINGSENSOR 8, AI_PARKINGSENSOR 1024) where it applies. */
  sensorType?: number;
  /** A reading at `hour` (hours since the start of the history, fractional), `rnd` in [0, 1). */
  reading: (hour: number, rnd: () => number, index: number) => Reading;
}

const dayCurve = (hour: number) => Math.sin((((hour % 24) - 9) / 24) * 2 * Math.PI); // peaks mid-afternoon
/** Share of occupied bays over the day: low at night, high between 9 and 17 o'clock. */
const occupancyAt = (hourOfDay: number) =>
  0.1 +
  0.8 *
    Math.max(0, Math.sin(((hourOfDay - 6) / 14) * Math.PI)) ** 0.7 *
    (hourOfDay >= 6 && hourOfDay <= 20 ? 1 : 0);
const battery = (hour: number, index: number) => round(Math.max(3, 96 - index * 17 - hour * 0.05), 0);

/**
 * The irrigation valves' answer to `switch_solenoid_valve`, in the command frame of the built-in drivers
 * (packages/codecs README "Downlink commands"): `01 06 <valve 1..4> <0|1>`. Anything else is ignored.
 */
export function applyValveDownlink(bytes: Uint8Array): Reading | undefined {
  const [version, command, valve, on] = bytes;
  if (version !== 0x01 || command !== 0x06 || bytes.length !== 4) return undefined;
  if (valve === undefined || valve < 1 || valve > 4 || (on !== 0 && on !== 1)) return undefined;
  return { [`valve_${valve}`]: on === 1 };
}

export const DEMO_FLEET: DemoDeviceKind[] = [
  {
    kind: 'gateway',
    deviceType: 'srd_gateway',
    names: ['Gateway Hof', 'Gateway Rebberg'],
    intervalMinutes: 60,
    icon: 'gateway',
    reading: (_h, rnd) => ({ signal_strength: 4 + Math.round(rnd()), rssi: -60 - Math.round(rnd() * 20) }),
  },
  {
    kind: 'distance',
    deviceType: 'nbiot_distance_sensor',
    names: ['Zisterne Nord', 'Silo 1', 'Altglas Container'],
    intervalMinutes: 30,
    icon: 'distance',
    reading: (h, rnd, i) => ({
      distance: round(80 + ((h * 3 + i * 40) % 150) + rnd() * 2, 1),
      battery_level: battery(h, i),
      signal_strength: 3 + Math.round(rnd() * 2),
    }),
  },
  {
    kind: 'temperature_humidity',
    deviceType: null,
    names: ['Büro Klima', 'Lager Klima', 'Gewächshaus Klima', 'Keller Klima'],
    intervalMinutes: 15,
    icon: 'temperature',
    reading: (h, rnd, i) => ({
      temperature: round(17 + i + 4 * dayCurve(h) + rnd() * 0.6, 1),
      humidity: round(55 - 10 * dayCurve(h) + rnd() * 3, 1),
      battery_level: battery(h, i),
    }),
  },
  {
    kind: 'parking',
    deviceType: null,
    sensorType: 8,
    // The FIX car park's twelve bays (seed-modules.ts labels them ).
    names: Array.from({ length: 12 }, (_, i) => `Stellplatz A-${String(i + 1).padStart(2, '0')}`),
    intervalMinutes: 20,
    icon: 'parking',
    // Busy from morning to evening, quiet at night; bay A-03 is never freed, so it overstays in the demo.
    reading: (h, rnd, i) => ({
      occupied: i === 2 ? true : rnd() < occupancyAt(h % 24) - (i % 4) * 0.05,
      battery_level: battery(h, i % 5),
    }),
  },
  {
    kind: 'ai_parking',
    deviceType: null,
    sensorType: 1024,
    names: ['KI Kamera Marktplatz'],
    intervalMinutes: 15,
    icon: 'camera',
    reading: (h, rnd) => ({
      vehicle_count: Math.round(Math.max(0, 25 + 20 * dayCurve(h) + rnd() * 4)),
      pax_count: Math.round(Math.max(0, 60 + 50 * dayCurve(h) + rnd() * 10)),
    }),
  },
  {
    kind: 'button',
    deviceType: 'nbiot_button',
    names: ['Taster Empfang', 'Taster Werkstatt'],
    intervalMinutes: 240,
    icon: 'button',
    reading: (h, rnd, i) => ({
      click_type: [1, 2, 4][Math.floor(rnd() * 3)] ?? 1,
      battery_level: battery(h, i),
    }),
  },
  {
    kind: 'button',
    deviceType: 'srd_button',
    names: ['Funk-Taster Halle'],
    intervalMinutes: 240,
    icon: 'button',
    reading: (h, rnd, i) => ({ click_type: rnd() > 0.8 ? 2 : 1, battery_level: battery(h, i) }),
  },
  {
    kind: 'energy_meter',
    deviceType: null,
    names: ['Stromzähler Halle', 'Stromzähler Pumpenhaus'],
    intervalMinutes: 15,
    icon: 'energy',
    reading: (h, rnd, i) => {
      const l1 = round(2000 + 800 * dayCurve(h) + rnd() * 200, 0);
      const l2 = round(1800 + 600 * dayCurve(h) + rnd() * 200, 0);
      const l3 = round(1900 + 700 * dayCurve(h) + rnd() * 200, 0);
      return {
        power_l1: l1,
        power_l2: l2,
        power_l3: l3,
        power_total: l1 + l2 + l3,
        energy_import: round(15000 + i * 5000 + h * 5.6, 1),
        voltage_l1: round(229 + rnd() * 3, 1),
      };
    },
  },
  {
    kind: 'soil_moisture',
    deviceType: 'nbiot_soil_sensor',
    names: ['Boden Acker Ost', 'Boden Acker West', 'Boden Weinberg', 'Boden Obstwiese'],
    intervalMinutes: 30,
    icon: 'soil',
    reading: (h, rnd, i) => ({
      soil_humidity: round(32 - h * 0.05 + i * 3 + rnd(), 1),
      soil_temperature: round(12 + 2 * dayCurve(h - 3) + rnd() * 0.3, 1),
      soil_water_pf1: round(Math.min(5, 1.8 + h * 0.01 + i * 0.2), 1),
      soil_ph: round(6.4 + i * 0.1, 1),
      conductivity: round(350 + rnd() * 30, 0),
      battery_level: battery(h, i),
    }),
  },
  {
    kind: 'leak',
    deviceType: null,
    names: ['Leckage Heizraum', 'Leckage Serverraum'],
    intervalMinutes: 60,
    icon: 'leak',
    reading: (h, rnd, i) => ({ water_leak: rnd() > 0.995, battery_level: battery(h, i) }),
  },
  {
    kind: 'tracker',
    deviceType: null,
    names: ['Tracker Traktor', 'Tracker Anhänger'],
    intervalMinutes: 30,
    icon: 'tracker',
    reading: (h, rnd, i) => ({
      latitude: round(48.041477 + 0.01 * Math.sin(h / 5 + i), 6),
      longitude: round(7.576644 + 0.015 * Math.cos(h / 5 + i), 6),
      satellites: 6 + Math.round(rnd() * 6),
      battery_level: battery(h, i),
    }),
  },
  {
    kind: 'leaf_moisture',
    deviceType: null,
    names: ['Blattnässe Rebberg'],
    intervalMinutes: 30,
    icon: 'leaf',
    reading: (h, rnd) => ({
      leaf_moisture: round(Math.max(0, 40 - 35 * dayCurve(h) + rnd() * 5), 1),
      temperature: round(14 + 6 * dayCurve(h), 1),
    }),
  },
  {
    kind: 'motion',
    deviceType: null,
    names: ['Bewegung Eingang', 'Bewegung Lager'],
    intervalMinutes: 30,
    icon: 'motion',
    reading: (h, rnd, i) => ({
      pir_motion: h % 24 > 7 && h % 24 < 19 ? rnd() > 0.3 : rnd() > 0.95,
      pir_count: Math.round(h % 24 > 7 && h % 24 < 19 ? rnd() * 12 : rnd() * 2),
      battery_level: battery(h, i),
    }),
  },
  {
    kind: 'frost',
    deviceType: 'nbiot_frost_sensor',
    names: ['Frostwächter Obstanlage', 'Frostwächter Rebberg'],
    intervalMinutes: 15,
    icon: 'frost',
    reading: (h, rnd, i) => ({
      temperature: round(3 + 7 * dayCurve(h) + rnd() * 0.5 - i, 1),
      dew_point: round(1 + 3 * dayCurve(h), 1),
      wet_bulb: round(2 + 5 * dayCurve(h), 1),
      battery_level: battery(h, i),
    }),
  },
  {
    kind: 'weather_station',
    deviceType: 'nbiot_weatherstation',
    names: ['Wetterstation Hof', 'Wetterstation Kaiserstuhl'],
    intervalMinutes: 10,
    icon: 'weather',
    reading: (h, rnd) => ({
      temperature: round(12 + 7 * dayCurve(h) + rnd() * 0.4, 1),
      humidity: round(65 - 20 * dayCurve(h) + rnd() * 2, 1),
      pressure: round(1013 + 4 * Math.sin(h / 20), 1),
      wind_speed_kmh: round(Math.max(0, 8 + 6 * dayCurve(h) + rnd() * 5), 1),
      wind_direction: Math.round((220 + 40 * Math.sin(h / 7) + rnd() * 20) % 360),
      rain_hourly: rnd() > 0.9 ? round(rnd() * 3, 1) : 0,
      uv_index: Math.max(0, Math.round(6 * dayCurve(h))),
      brightness: Math.max(0, Math.round(18000 * dayCurve(h))),
    }),
  },
  {
    kind: 'water_meter',
    deviceType: null,
    names: ['Wasserzähler Brunnen 1', 'Wasserzähler Brunnen 2', 'Wasserzähler Hof'],
    intervalMinutes: 60,
    icon: 'water',
    // A cumulative counter never runs backwards (3 + 0.8 cos h > 0); the discarded draw keeps the seeded
    // sequence of the other readings as it was.
    reading: (h, rnd, i) => ({
      counter_1: round(1200 + i * 300 + h * 3 + 0.8 * Math.sin(h) + 0 * rnd(), 1),
      flow_rate: round(Math.max(0, 2.5 + 2 * dayCurve(h) + rnd()), 2),
      battery_level: battery(h, i),
    }),
  },
  {
    // The irrigation variant of the NB-IoT soil probe, whose driver encodes switch_solenoid_valve: the
    // valves can be switched from the console, the rules and the water association they are shared with.
    // Its readings are JSON: the soil frame has no slot for the valves' state.
    kind: 'valve',
    deviceType: 'nbiot_soil_sensor',
    json: true,
    applyDownlink: applyValveDownlink,
    names: ['Ventil Beregnung Ost', 'Ventil Beregnung West'],
    intervalMinutes: 60,
    icon: 'valve',
    reading: (h, _rnd, i) => ({ valve_1: h % 24 >= 5 + i && h % 24 < 7 + i, battery_level: battery(h, i) }),
  },
  {
    kind: 'door',
    deviceType: null,
    names: ['Tür Lager', 'Tür Technikraum'],
    intervalMinutes: 60,
    icon: 'door',
    reading: (h, rnd, i) => ({
      door_open: h % 24 > 7 && h % 24 < 17 ? rnd() > 0.6 : false,
      door_open_duration: Math.round(rnd() * 300),
      battery_level: battery(h, i),
    }),
  },
  {
    kind: 'sound',
    deviceType: null,
    names: ['Schallpegel Werkstatt', 'Schallpegel Hof'],
    intervalMinutes: 15,
    icon: 'sound',
    reading: (h, rnd) => ({
      sound_level_avg: round(45 + 15 * Math.max(0, dayCurve(h)) + rnd() * 3, 1),
      sound_level_max: round(60 + 20 * Math.max(0, dayCurve(h)) + rnd() * 5, 1),
    }),
  },
  COLD_ROOM_KIND,
  COLD_ROOM_COOLING_KIND,
];
