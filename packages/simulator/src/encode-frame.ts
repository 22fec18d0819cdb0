/**
 * Encodes a reading in the binary uplink frame of a built-in driver (layouts: packages/codecs/README.md,
 * "Built-in uplink formats"). The layouts are restated here rather than imported because @iot/codecs
 * exports decoders only; the round-trip test decodes every frame with the real driver, so the two cannot
 * drift apart unnoticed.
 */
import type { Reading } from '@iot/demo-data';

type FieldType = 'u8' | 'i8' | 'u16' | 'i16' | 'u32';

interface FrameField {
  name: string;
  type: FieldType;
  /** raw = value * scale */
  scale?: number;
  /** Raw value meaning "no reading", sent when the reading lacks the field. */
  noReading?: number;
}

export interface FrameLayout {
  /** LoRaWAN port of the data frames (LoRaWAN drivers only). */
  fPort?: number;
  fields: FrameField[];
}

const BUTTON: FrameLayout = {
  fields: [
    { name: 'click_type', type: 'u8' },
    { name: 'click_count', type: 'u16' },
    { name: 'battery_level', type: 'u8' },
  ],
};

/** Frame layouts by driver id, each field after the version byte 0x01, big-endian. */
export const FRAME_LAYOUTS: Readonly<Record<string, FrameLayout>> = {
  nbiot_button: BUTTON,
  srd_button: { ...BUTTON, fPort: 1 },
  srd_gateway: {
    fPort: 1,
    fields: [
      { name: 'uptime_s', type: 'u32' },
      { name: 'signal_strength', type: 'u8', noReading: 0 },
      { name: 'rssi', type: 'i8', noReading: 0x7f },
      { name: 'temperature', type: 'i16', scale: 10, noReading: 0x7fff },
    ],
  },
  nbiot_soil_sensor: {
    fields: [
      { name: 'soil_humidity', type: 'u16', scale: 10, noReading: 0xffff },
      { name: 'soil_temperature', type: 'i16', scale: 10, noReading: 0x7fff },
      { name: 'soil_water_pf1', type: 'u8', scale: 10, noReading: 0xff },
      { name: 'conductivity', type: 'u16', noReading: 0xffff },
      { name: 'battery_level', type: 'u8' },
    ],
  },
  nbiot_frost_sensor: {
    fields: [
      { name: 'temperature', type: 'i16', scale: 10, noReading: 0x7fff },
      { name: 'dew_point', type: 'i16', scale: 10, noReading: 0x7fff },
      { name: 'wet_bulb_temperature', type: 'i16', scale: 10, noReading: 0x7fff },
      { name: 'humidity', type: 'u16', scale: 10, noReading: 0xffff },
      { name: 'battery_level', type: 'u8' },
    ],
  },
  nbiot_distance_sensor: {
    fields: [
      // The device measures millimetres; the driver stores centimetres with one decimal (raw / 10).
      { name: 'distance', type: 'u16', scale: 10, noReading: 0xffff },
      { name: 'fill_level', type: 'u8', noReading: 0xff },
      { name: 'battery_level', type: 'u8' },
      { name: 'signal_strength', type: 'u8', noReading: 0 },
    ],
  },
  nbiot_weatherstation: {
    fields: [
      { name: 'temperature', type: 'i16', scale: 10, noReading: 0x7fff },
      { name: 'humidity', type: 'u16', scale: 10, noReading: 0xffff },
      { name: 'pressure', type: 'u16', scale: 10, noReading: 0xffff },
      { name: 'wind_speed_kmh', type: 'u16', scale: 10, noReading: 0xffff },
      { name: 'wind_direction', type: 'u16', noReading: 0xffff },
      { name: 'rain_hourly', type: 'u16', scale: 10, noReading: 0xffff },
      { name: 'uv_index', type: 'u8', scale: 10, noReading: 0xff },
      { name: 'brightness', type: 'u32', noReading: 0xffffffff },
      { name: 'battery_level', type: 'u8' },
    ],
  },
};

/** The demo generators' names for fields the frames call otherwise. */
const FIELD_ALIASES: Readonly<Record<string, string>> = { wet_bulb: 'wet_bulb_temperature' };

const SIZES: Record<FieldType, number> = { u8: 1, i8: 1, u16: 2, i16: 2, u32: 4 };

export function hasFrame(driverId: string | null | undefined): driverId is string {
  return driverId !== null && driverId !== undefined && Object.hasOwn(FRAME_LAYOUTS, driverId);
}

/** The reading under the frame's field names (aliases resolved), booleans and text left out. */
export function frameFields(reading: Reading): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(reading)) {
    if (typeof value === 'number') out[FIELD_ALIASES[key] ?? key] = value;
  }
  return out;
}

function writeRaw(view: DataView, offset: number, type: FieldType, raw: number): void {
  switch (type) {
    case 'u8':
      view.setUint8(offset, raw);
      return;
    case 'i8':
      view.setInt8(offset, raw);
      return;
    case 'u16':
      view.setUint16(offset, raw);
      return;
    case 'i16':
      view.setInt16(offset, raw);
      return;
    case 'u32':
      view.setUint32(offset, raw);
      return;
  }
}

export interface EncodedFrame {
  bytes: Uint8Array;
  fPort?: number;
  /** What the frame carries, as the driver will decode it: the fields a frame has no slot for are not in it. */
  carried: Record<string, number>;
}

/**
 * The reading as the driver's frame. Fields the frame has no slot for (e.g. the demo soil sensor's pH) are
 * not sent; slots the reading does not fill get the field's "no reading" code (or 0 where there is none).
 */
export function encodeFrame(driverId: string, reading: Reading): EncodedFrame {
  const layout = FRAME_LAYOUTS[driverId];
  if (!layout) throw new Error(`no frame layout for driver ${driverId}`);
  const values = frameFields(reading);
  const length = 1 + layout.fields.reduce((sum, f) => sum + SIZES[f.type], 0);
  const bytes = new Uint8Array(length);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, 0x01);
  const carried: Record<string, number> = {};
  let offset = 1;
  for (const field of layout.fields) {
    const value = values[field.name];
    const raw = value === undefined ? (field.noReading ?? 0) : Math.round(value * (field.scale ?? 1));
    writeRaw(view, offset, field.type, raw);
    // `+ 0` turns -0 (a rounded -0.04) into 0, as the decoder reads it.
    if (value !== undefined) carried[field.name] = (field.scale === undefined ? raw : raw / field.scale) + 0;
    offset += SIZES[field.type];
  }
  return { bytes, fPort: layout.fPort, carried };
}
