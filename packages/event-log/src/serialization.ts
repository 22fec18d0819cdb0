import type { LogHeaders, PublishRecord } from './types';

/**
 * The envelope on the wire (NATS message / Kafka record):
 *
 * - body: the value itself. A Uint8Array is sent as the bytes given; anything else as UTF-8 JSON
 *   (`JSON.stringify`, so a Date becomes its ISO string and `undefined` fields vanish: the
 *   in-process log serializes the same way so both profiles hand consumers the same values).
 * - header `iot-ct`: `json` or `bytes`, telling the consumer how to read the body.
 * - header `iot-ts`: publish time, milliseconds since the epoch.
 * - header `iot-key` (NATS only; Kafka carries the key natively): the partitioning key.
 * - user headers: passed through as they are; names starting with `iot-` are reserved.
 */
export const HEADER_CONTENT_TYPE = 'iot-ct';
export const HEADER_TIMESTAMP = 'iot-ts';
export const HEADER_KEY = 'iot-key';
const RESERVED_PREFIX = 'iot-';

export type ContentType = 'json' | 'bytes';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface EncodedValue {
  contentType: ContentType;
  body: Uint8Array;
}

export function encodeValue(value: PublishRecord['value']): EncodedValue {
  if (value instanceof Uint8Array) return { contentType: 'bytes', body: value };
  return { contentType: 'json', body: encoder.encode(toJson(value)) };
}

/** JSON text of a value; refuses values JSON cannot carry rather than publishing `undefined`. */
export function toJson(value: object): string {
  const text = JSON.stringify(value);
  if (typeof text !== 'string') throw new TypeError('event log value is not JSON-serializable');
  return text;
}

export function decodeValue(contentType: string | undefined, body: Uint8Array): unknown {
  // A plain Uint8Array copy: clients hand out Buffers that may be views into a larger read buffer.
  if (contentType === 'bytes') return new Uint8Array(body);
  return JSON.parse(decoder.decode(body));
}

export function checkUserHeaders(headers: LogHeaders | undefined): void {
  if (!headers) return;
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase().startsWith(RESERVED_PREFIX)) {
      throw new TypeError(`event log header "${name}" uses the reserved prefix "${RESERVED_PREFIX}"`);
    }
  }
}

export function validateSubscribeOptions(options: { maxBatch: number; maxWaitMs: number }): void {
  if (!Number.isInteger(options.maxBatch) || options.maxBatch < 1) {
    throw new RangeError('maxBatch must be a positive integer');
  }
  if (!Number.isFinite(options.maxWaitMs) || options.maxWaitMs < 0) {
    throw new RangeError('maxWaitMs must be a non-negative number');
  }
}
