import type { MsgHdrs } from '@nats-io/nats-core';
import { type ContentType, decodeValue, toJson } from '../serialization';
import type { LogHeaders, LogRecord, PublishRecord } from '../types';

/**
 * Several records of one partition in one JetStream message ("pack"), so that one stored message, one
 * PubAck and one delivery serve many records: JetStream's cost is per message, and at tens of thousands
 * of records per second one message each is what limited the log (tests/bench/README.md).
 *
 * A pack carries the header `iot-pack` (number of records) and `iot-ts`; its body is, per record:
 * u32 length + UTF-8 JSON `{"k": key, "c": "json" | "bytes", "h"?: user headers}`, then u32 length + the
 * record's body as a single message would carry it. A message without `iot-pack` is one record in the
 * single-record envelope (serialization.ts); consumers read both.
 *
 * Offsets: record i of the message with stream sequence s has offset s * OFFSET_SCALE + i (a single
 * record i = 0), so offsets keep increasing with publish order within a partition.
 */
export const HEADER_PACK = 'iot-pack';
export const OFFSET_SCALE = 1_000_000n;
/** Records in one pack at most (far below OFFSET_SCALE). */
export const MAX_PACK_RECORDS = 1000;

/**
 * A record ready for a pack. A JSON value is kept as its text and written into the pack as UTF-8 in
 * place (no intermediate byte array per record); `size` is the body's length in bytes either way.
 */
export interface EncodedRecord {
  contentType: ContentType;
  body: Uint8Array | string;
  size: number;
  key: string;
  headers: LogHeaders | undefined;
}

/** A value as a pack (or a single-record message, after `bodyBytes`) carries it. */
export function encodeRecord(
  key: string,
  value: PublishRecord['value'],
  headers: LogHeaders | undefined,
): EncodedRecord {
  if (value instanceof Uint8Array)
    return { contentType: 'bytes', body: value, size: value.length, key, headers };
  const text = toJson(value);
  return { contentType: 'json', body: text, size: Buffer.byteLength(text, 'utf8'), key, headers };
}

/** The body of a single-record message. */
export function bodyBytes(record: EncodedRecord): Uint8Array {
  return typeof record.body === 'string' ? Buffer.from(record.body, 'utf8') : record.body;
}

/** The meta JSON of a record, `{"k": key, "c": contentType}` (plus `"h"` with user headers). */
function metaOf(r: EncodedRecord): string {
  return r.headers
    ? JSON.stringify({ k: r.key, c: r.contentType, h: r.headers })
    : `{"k":${JSON.stringify(r.key)},"c":"${r.contentType}"}`;
}

export function encodePack(records: readonly EncodedRecord[]): Uint8Array {
  const metas = records.map(metaOf);
  const metaSizes = metas.map((meta) => Buffer.byteLength(meta, 'utf8'));
  let size = 0;
  for (let i = 0; i < records.length; i++) size += 8 + metaSizes[i]! + records[i]!.size;
  // Every byte is written below.
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < records.length; i++) {
    const metaSize = metaSizes[i]!;
    out.writeUInt32BE(metaSize, at);
    out.write(metas[i]!, at + 4, metaSize, 'utf8');
    at += 4 + metaSize;
    const record = records[i]!;
    out.writeUInt32BE(record.size, at);
    if (typeof record.body === 'string') out.write(record.body, at + 4, record.size, 'utf8');
    else out.set(record.body, at + 4);
    at += 4 + record.size;
  }
  return out;
}

/** Bytes a record adds to a pack, beside its meta JSON (an estimate good enough to size packs). */
export function packedSize(record: EncodedRecord): number {
  return (
    8 + 48 + record.key.length + record.size + (record.headers ? JSON.stringify(record.headers).length : 0)
  );
}

interface PackedMeta {
  k: string;
  c: string;
  h?: Record<string, string>;
}

/** Offset texts of records 0..999 of a pack, after the message's sequence (see offsetOf). */
const OFFSET_SUFFIXES = Array.from({ length: MAX_PACK_RECORDS }, (_, i) => String(i).padStart(6, '0'));

/** seq * OFFSET_SCALE + i as text, without a BigInt per record where the text can be joined. */
function offsetOf(seq: number, base: bigint, i: number): string {
  if (seq > 0 && i < OFFSET_SUFFIXES.length) return `${seq}${OFFSET_SUFFIXES[i]}`;
  return String(base + BigInt(i));
}

/** The records of a pack, in the order they were published. Throws on a body that is not a pack. */
export function decodePack(
  topic: string,
  partition: number,
  seq: number,
  timestamp: number,
  count: number,
  data: Uint8Array,
): LogRecord<unknown>[] {
  // A Buffer view (no copy) reads UTF-8 text without a subarray per field.
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const records: LogRecord<unknown>[] = [];
  const base = BigInt(seq) * OFFSET_SCALE;
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 4 > data.length) throw new Error(`pack at sequence ${seq} is truncated`);
    const metaLength = buffer.readUInt32BE(at);
    if (at + 4 + metaLength + 4 > data.length) throw new Error(`pack at sequence ${seq} is truncated`);
    const meta = JSON.parse(buffer.toString('utf8', at + 4, at + 4 + metaLength)) as PackedMeta;
    at += 4 + metaLength;
    const bodyLength = buffer.readUInt32BE(at);
    const start = at + 4;
    at += 4 + bodyLength;
    if (at > data.length) throw new Error(`pack at sequence ${seq} is truncated`);
    records.push({
      topic,
      partition,
      offset: offsetOf(seq, base, i),
      key: meta.k,
      value:
        meta.c === 'bytes'
          ? decodeValue(meta.c, data.subarray(start, at))
          : JSON.parse(buffer.toString('utf8', start, at)),
      headers: userHeadersOf(meta.h),
      timestamp,
    });
  }
  return records;
}

function userHeadersOf(headers: Record<string, string> | undefined): LogHeaders {
  const out: Record<string, string> = {};
  if (headers)
    for (const [name, value] of Object.entries(headers))
      if (!name.toLowerCase().startsWith('iot-')) out[name] = value;
  return out;
}

/** Records a message holds: a pack's count, 1 for a single record. */
export function recordCount(headers: MsgHdrs | undefined): number {
  const count = headers?.get(HEADER_PACK);
  return count ? Number(count) : 1;
}
