import type { DataRecord, DecodeResult } from '../types.js';

/** What the bootstrap sends back (see bootstrap.ts). */
type Envelope =
  | { kind: 'missing' }
  | { kind: 'threw'; message: string; line?: number }
  | { kind: 'ts013' | 'legacy'; fn: string; result?: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function strings(value: unknown, what: string, problems: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push(`${what} is not an array`);
    return [];
  }
  return value.map((item) => (typeof item === 'string' ? item : (JSON.stringify(item) ?? String(item))));
}

function parseEnvelope(text: string): Envelope | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) && typeof value.kind === 'string' ? (value as Envelope) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Flattens decoded data into the stored shape: nested objects become dotted names
 * (`distance_alarm_config.condition`), arrays get their index (`readings.0`); null, NaN and
 * Infinity (which JSON turns into null) are left out with a warning. Codec output and the JSON that
 * ingest takes as it is (device JSON, ChirpStack's `object`, TTS's `decoded_payload`) both go through
 * here, so a field has one name whoever decoded it. `source` names the sender in the warning.
 */
export function flattenData(
  data: Record<string, unknown>,
  maxFields: number,
  warnings: string[],
  source = 'codec returned',
): DataRecord {
  const out: DataRecord = {};
  let count = 0;
  let truncated = false;
  const visit = (prefix: string, value: unknown, depth: number) => {
    if (truncated) return;
    if (typeof value === 'number' && !Number.isFinite(value)) {
      warnings.push(`${prefix}: no value, dropped`);
    } else if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
      if (count >= maxFields) {
        truncated = true;
        warnings.push(`${source} more than ${maxFields} fields; the rest are dropped`);
        return;
      }
      out[prefix] = value;
      count++;
    } else if (value === null || value === undefined) {
      warnings.push(`${prefix}: no value, dropped`);
    } else if (depth >= 8) {
      warnings.push(`${prefix}: nested deeper than 8 levels, dropped`);
    } else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) visit(`${prefix}.${index}`, item, depth + 1);
    } else if (isRecord(value)) {
      for (const [key, item] of Object.entries(value))
        visit(prefix === '' ? key : `${prefix}.${key}`, item, depth + 1);
    }
  };
  visit('', data, 0);
  return out;
}

/**
 * A decode as the codec test route shows it: besides the stored (flattened) data, the data as the
 * codec shaped it, and the script line a thrown error points at.
 */
export interface CodecDecodeResult extends DecodeResult {
  shaped?: Record<string, unknown>;
  line?: number;
}

export function readDecodeOutput(text: string, maxFields: number, keepShape = false): CodecDecodeResult {
  const envelope = parseEnvelope(text);
  const result: CodecDecodeResult = { data: {}, warnings: [], errors: [] };
  if (envelope === undefined) return { ...result, errors: ['codec sandbox returned an unreadable result'] };
  if (envelope.kind === 'missing')
    return { ...result, errors: ['codec defines none of decodeUplink, Decoder, Decode or decode'] };
  if (envelope.kind === 'threw') return threw(result, envelope);
  const value = envelope.result;
  if (envelope.kind === 'legacy') {
    if (!isRecord(value))
      return { ...result, errors: [`${envelope.fn} returned ${describe(value)}, not an object`] };
    result.data = flattenData(value, maxFields, result.warnings);
    if (keepShape) result.shaped = value;
    return result;
  }
  if (!isRecord(value))
    return { ...result, errors: [`${envelope.fn} returned ${describe(value)}, not an object`] };
  const problems: string[] = [];
  result.warnings = strings(value.warnings, 'warnings', problems);
  result.errors = strings(value.errors, 'errors', problems);
  if (result.errors.length > 0) return { ...result, data: {} };
  if (!isRecord(value.data)) problems.push('data is not an object');
  result.errors.push(...problems.map((problem) => `${envelope.fn} result: ${problem}`));
  if (result.errors.length === 0) {
    result.data = flattenData(value.data as Record<string, unknown>, maxFields, result.warnings);
    if (keepShape) result.shaped = value.data as Record<string, unknown>;
  }
  return result;
}

function threw<T extends { errors: string[]; line?: number }>(
  result: T,
  envelope: { message: string; line?: number },
): T {
  const out = { ...result, errors: [`codec threw ${envelope.message}`] };
  if (typeof envelope.line === 'number') out.line = envelope.line;
  return out;
}

export interface CodecEncodeResult {
  bytes: Uint8Array;
  fPort: number;
  warnings: string[];
  errors: string[];
  line?: number;
}

function toBytes(value: unknown): Uint8Array | string {
  if (!Array.isArray(value)) return 'bytes is not an array';
  // 242 bytes is the largest LoRaWAN application payload at any data rate (EU868 DR7).
  if (value.length > 242) return `bytes has ${value.length} entries, at most 242 fit a downlink`;
  for (const [index, byte] of value.entries())
    if (!Number.isInteger(byte) || byte < 0 || byte > 255)
      return `bytes[${index}] is ${JSON.stringify(byte)}, not 0..255`;
  return Uint8Array.from(value as number[]);
}

export function readEncodeOutput(text: string, defaultFPort: number): CodecEncodeResult {
  const envelope = parseEnvelope(text);
  const result: CodecEncodeResult = {
    bytes: new Uint8Array(),
    fPort: defaultFPort,
    warnings: [],
    errors: [],
  };
  if (envelope === undefined) return { ...result, errors: ['codec sandbox returned an unreadable result'] };
  if (envelope.kind === 'missing')
    return { ...result, errors: ['codec defines none of encodeDownlink, Encoder, Encode or encode'] };
  if (envelope.kind === 'threw') return threw(result, envelope);
  let bytesValue: unknown = envelope.result;
  if (envelope.kind === 'ts013') {
    const value = envelope.result;
    if (!isRecord(value))
      return { ...result, errors: [`encodeDownlink returned ${describe(value)}, not an object`] };
    const problems: string[] = [];
    result.warnings = strings(value.warnings, 'warnings', problems);
    result.errors = strings(value.errors, 'errors', problems);
    if (result.errors.length > 0) return result;
    if (value.fPort !== undefined) {
      if (
        typeof value.fPort === 'number' &&
        Number.isInteger(value.fPort) &&
        value.fPort >= 1 &&
        value.fPort <= 223
      )
        result.fPort = value.fPort;
      else problems.push(`fPort ${JSON.stringify(value.fPort)} is not an application port 1..223`);
    }
    if (problems.length > 0) return { ...result, errors: problems.map((p) => `encodeDownlink result: ${p}`) };
    bytesValue = value.bytes;
  }
  const bytes = toBytes(bytesValue);
  if (typeof bytes === 'string') return { ...result, errors: [`${envelope.fn} result: ${bytes}`] };
  return { ...result, bytes };
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}
