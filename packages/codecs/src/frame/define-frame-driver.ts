import type { DeviceType } from '@iot/domain';
import { acceptValue, type FieldRules, type LocalField } from '../fields/accept-value.js';
import type { DecodeInput, DecodeResult, Driver } from '../types.js';
import { type CommandSupport, encodeCommand } from './encode-command.js';

/** Every built-in uplink frame starts with this version byte; a new layout gets a new version. */
export const FRAME_VERSION = 0x01;

export type FrameFieldType = 'u8' | 'i8' | 'u16' | 'i16' | 'u32';

const SIZES: Record<FrameFieldType, number> = { u8: 1, i8: 1, u16: 2, i16: 2, u32: 4 };

/** One field of a fixed-layout frame, in order after the version byte. Multi-byte values are big-endian. */
export interface FrameField {
  readonly name: string;
  readonly type: FrameFieldType;
  /** value = raw / scale (10 for one decimal place). */
  readonly scale?: number;
  /** The raw value the device sends when it has no reading (sensor missing or failed). */
  readonly noReading?: number;
}

export interface FrameDriverSpec {
  readonly id: string;
  readonly deviceType: DeviceType;
  readonly description: string;
  /** LoRaWAN port the device sends frames on; other ports are rejected. NB-IoT devices have none. */
  readonly fPort?: number;
  readonly fields: readonly FrameField[];
  readonly local?: readonly LocalField[];
  /** Sensor measuring range per catalogue field. */
  readonly plausible?: Readonly<Record<string, readonly [number, number]>>;
  /** JSON keys devices use for a field under another name, e.g. `battery` for `battery_level`. */
  readonly aliases?: Readonly<Record<string, string>>;
  readonly commands: readonly CommandSupport[];
}

export function frameLength(fields: readonly FrameField[]): number {
  return 1 + fields.reduce((sum, field) => sum + SIZES[field.type], 0);
}

function readRaw(view: DataView, offset: number, type: FrameFieldType): number {
  switch (type) {
    case 'u8':
      return view.getUint8(offset);
    case 'i8':
      return view.getInt8(offset);
    case 'u16':
      return view.getUint16(offset);
    case 'i16':
      return view.getInt16(offset);
    case 'u32':
      return view.getUint32(offset);
  }
}

const hex = (n: number) => `0x${n.toString(16).padStart(2, '0')}`;
const OPEN_BRACE = 0x7b;

/** Builds a driver from a frame layout, so the documented table and the decoder cannot drift apart. */
export function defineFrameDriver(spec: FrameDriverSpec): Driver {
  const rules: FieldRules = {
    local: new Map((spec.local ?? []).map((field) => [field.name, field])),
    plausible: new Map(Object.entries(spec.plausible ?? {})),
  };
  const length = frameLength(spec.fields);

  function decodeJson(json: unknown, result: DecodeResult): void {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      result.errors.push('JSON payload is not an object of data fields');
      return;
    }
    for (const [key, value] of Object.entries(json))
      acceptValue(spec.aliases?.[key] ?? key, value, rules, result);
  }

  function decodeFrame(bytes: Uint8Array, result: DecodeResult): void {
    const version = bytes[0];
    if (version !== FRAME_VERSION) {
      result.errors.push(
        `unsupported frame version ${hex(version ?? 0)} (${spec.id} knows ${hex(FRAME_VERSION)})`,
      );
      return;
    }
    if (bytes.length !== length) {
      result.errors.push(`frame is ${bytes.length} bytes, version ${hex(FRAME_VERSION)} has ${length}`);
      return;
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let offset = 1;
    for (const field of spec.fields) {
      const raw = readRaw(view, offset, field.type);
      offset += SIZES[field.type];
      if (raw === field.noReading) {
        result.warnings.push(`${field.name}: no reading`);
        continue;
      }
      acceptValue(field.name, field.scale === undefined ? raw : raw / field.scale, rules, result);
    }
  }

  function decodeUplink(input: DecodeInput): DecodeResult {
    const result: DecodeResult = { data: {}, warnings: [], errors: [] };
    if (input.json !== undefined) decodeJson(input.json, result);
    else if (input.bytes.length === 0) result.errors.push('empty payload');
    else if (spec.fPort !== undefined && input.fPort !== undefined && input.fPort !== spec.fPort)
      result.errors.push(`fPort ${input.fPort} is not the data port ${spec.fPort} of ${spec.id}`);
    else if (input.bytes[0] === OPEN_BRACE) {
      // NB-IoT devices may send their JSON as the raw message body: no binary frame starts with '{'.
      let json: unknown;
      try {
        json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(input.bytes));
      } catch (error) {
        result.errors.push(`payload starts with "{" but is not JSON: ${(error as Error).message}`);
        return result;
      }
      decodeJson(json, result);
    } else decodeFrame(input.bytes, result);
    // A message that yields nothing at all is a decoding failure, so the device log keeps it.
    if (result.errors.length === 0 && Object.keys(result.data).length === 0)
      result.errors.push('no data field could be read');
    if (result.errors.length > 0) result.data = {};
    return result;
  }

  return {
    id: spec.id,
    deviceType: spec.deviceType,
    description: spec.description,
    commands: spec.commands.map((c) => c.command),
    decodeUplink,
    encodeDownlink: (request) => encodeCommand(spec.commands, request, spec.id),
  };
}
