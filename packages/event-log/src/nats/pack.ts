import type { MsgHdrs } from '@nats-io/nats-core';
import { decodeValue, type EncodedValue } from '../serialization';
import type { LogHeaders, LogRecord } from '../types';

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

export interface EncodedRecord extends EncodedValue {
  key: string;
  headers: LogHeaders | undefined;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodePack(records: readonly EncodedRecord[]): Uint8Array {
  const metas = records.map((r) =>
    encoder.encode(
      JSON.stringify(
        r.headers ? { k: r.key, c: r.contentType, h: r.headers } : { k: r.key, c: r.contentType },
      ),
    ),
  );
  let size = 0;
  for (let i = 0; i < records.length; i++) size += 8 + metas[i]!.length + records[i]!.body.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  for (let i = 0; i < records.length; i++) {
    const meta = metas[i]!;
    const body = records[i]!.body;
    view.setUint32(at, meta.length);
    out.set(meta, at + 4);
    at += 4 + meta.length;
    view.setUint32(at, body.length);
    out.set(body, at + 4);
    at += 4 + body.length;
  }
  return out;
}

/** Bytes a record adds to a pack, beside its meta JSON (an estimate good enough to size packs). */
export function packedSize(record: EncodedRecord): number {
  return (
    8 +
    48 +
    record.key.length +
    record.body.length +
    (record.headers ? JSON.stringify(record.headers).length : 0)
  );
}

interface PackedMeta {
  k: string;
  c: string;
  h?: Record<string, string>;
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
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const records: LogRecord<unknown>[] = [];
  const base = BigInt(seq) * OFFSET_SCALE;
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 4 > data.length) throw new Error(`pack at sequence ${seq} is truncated`);
    const metaLength = view.getUint32(at);
    const meta = JSON.parse(decoder.decode(data.subarray(at + 4, at + 4 + metaLength))) as PackedMeta;
    at += 4 + metaLength;
    const bodyLength = view.getUint32(at);
    const body = data.subarray(at + 4, at + 4 + bodyLength);
    at += 4 + bodyLength;
    if (at > data.length) throw new Error(`pack at sequence ${seq} is truncated`);
    records.push({
      topic,
      partition,
      offset: String(base + BigInt(i)),
      key: meta.k,
      value: decodeValue(meta.c, body),
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
