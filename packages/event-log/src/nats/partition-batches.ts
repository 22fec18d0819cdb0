import type { Consumer, ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import { sleep } from '../backoff';
import { decodeValue, HEADER_CONTENT_TYPE, HEADER_KEY, HEADER_TIMESTAMP } from '../serialization';
import type { LogHeaders, LogRecord, SubscribeOptions } from '../types';
import { decodePack, HEADER_PACK, OFFSET_SCALE } from './pack';

/** A batch of a partition's records, with the messages they came from. */
export interface RecordBatch {
  records: LogRecord<unknown>[];
  /** Every message with a record in the batch (kept from redelivery while the batch is handled). */
  involved: JsMsg[];
  /**
   * The newest message all of whose records are in this batch or an earlier one: acking it
   * (AckPolicy.All) commits everything up to it.
   */
  complete: JsMsg | undefined;
}

/**
 * A partition's consumed messages as batches of records: up to maxBatch records, or what arrived within
 * maxWaitMs after the first. A message may be a pack of many records; one that does not fit waits for
 * the next batch whole, unless the batch is empty (a pack larger than maxBatch is split).
 */
export class PartitionBatches {
  private readonly iterator: AsyncIterator<JsMsg>;
  private pending: Promise<IteratorResult<JsMsg>> | undefined;
  /**
   * Offset of the last record handled: a record at or below it is a redelivered duplicate (prefetched
   * past ack_wait) and is skipped, so a key never goes back in time.
   */
  private handledOffset = -1n;
  /** A message whose records did not all fit in the last batch: the next batch starts with the rest. */
  private rest: Unpacked | undefined;

  constructor(
    messages: ConsumerMessages,
    private readonly topic: string,
    private readonly partition: number,
    private readonly options: Pick<SubscribeOptions, 'maxBatch' | 'maxWaitMs'>,
  ) {
    this.iterator = messages[Symbol.asyncIterator]();
  }

  /** The batch after `batch` starts past it. */
  handled(batch: RecordBatch): void {
    this.handledOffset = BigInt(batch.records[batch.records.length - 1]!.offset);
  }

  /**
   * The next batch; empty when the first message had no new records (it is acked at once); undefined
   * when the messages ended (what was gathered is left for the partition's next reader).
   */
  async read(): Promise<RecordBatch | undefined> {
    const batch: RecordBatch = { records: [], involved: [], complete: undefined };
    if (this.rest) {
      if (this.take(batch, this.rest)) this.rest = undefined;
    } else {
      const first = await this.next();
      this.pending = undefined;
      if (first.done) return undefined;
      const u = this.unpack(first.value);
      if (u.records.length === 0) {
        first.value.ack();
        return batch;
      }
      if (!this.take(batch, u)) this.rest = u;
    }
    // Fill the batch until maxBatch, or until maxWaitMs after the first record.
    let timedOut = false;
    const timer = sleep(this.options.maxWaitMs).then(() => {
      timedOut = true;
    });
    while (!this.rest && batch.records.length < this.options.maxBatch && !timedOut) {
      const result = await Promise.race([this.next(), timer.then(() => undefined)]);
      if (result === undefined) break;
      this.pending = undefined;
      if (result.done) return undefined;
      const u = this.unpack(result.value);
      if (u.records.length > 0 && !this.take(batch, u)) this.rest = u;
    }
    return batch;
  }

  private next(): Promise<IteratorResult<JsMsg>> {
    this.pending ??= this.iterator.next();
    return this.pending;
  }

  private unpack(msg: JsMsg): Unpacked {
    const all = toLogRecords(this.topic, this.partition, msg);
    // Most messages lie wholly past `handledOffset`: only a message that reaches it is filtered per record.
    const records =
      BigInt(msg.seq) * OFFSET_SCALE > this.handledOffset
        ? all
        : all.filter((r) => BigInt(r.offset) > this.handledOffset);
    return { msg, records, taken: 0 };
  }

  /** Takes a message's records into the batch; false when some are left for the next batch. */
  private take(batch: RecordBatch, u: Unpacked): boolean {
    const { maxBatch } = this.options;
    const left = u.records.length - u.taken;
    if (batch.records.length > 0 && batch.records.length + left > maxBatch) return false;
    const n = Math.min(left, maxBatch - batch.records.length);
    for (let i = 0; i < n; i++) batch.records.push(u.records[u.taken++]!);
    batch.involved.push(u.msg);
    if (u.taken < u.records.length) return false;
    batch.complete = u.msg;
    return true;
  }
}

interface Unpacked {
  msg: JsMsg;
  /** Records not handled before (a redelivered message may be partly handled already). */
  records: LogRecord<unknown>[];
  /** Records already put into a batch. */
  taken: number;
}

/**
 * Messages a partition's consumer prefetches. A message may be a pack of up to 1000 records (typically
 * tens: one publish call's records of the partition), so this is a few thousand records. Counted in
 * messages: a byte-bounded pull ends at the first message that does not fit, and consuming then
 * stalled until the pull expired.
 */
const PREFETCH_MESSAGES = 64;

export function consume(consumer: Consumer): Promise<ConsumerMessages> {
  return consumer.consume({ max_messages: PREFETCH_MESSAGES });
}

/** The records of one message: a pack's records in order, or the one record of a plain message. */
function toLogRecords(topic: string, partition: number, msg: JsMsg): LogRecord<unknown>[] {
  let timestamp = 0;
  const packed = msg.headers?.get(HEADER_PACK);
  if (packed) {
    timestamp = Number(msg.headers?.get(HEADER_TIMESTAMP) ?? 0);
    return decodePack(topic, partition, msg.seq, timestamp, Number(packed), msg.data);
  }
  const headers: Record<string, string> = {};
  let key = '';
  let contentType: string | undefined;
  if (msg.headers) {
    for (const name of msg.headers.keys()) {
      const value = msg.headers.get(name);
      if (name === HEADER_KEY) key = value;
      else if (name === HEADER_CONTENT_TYPE) contentType = value;
      else if (name === HEADER_TIMESTAMP) timestamp = Number(value);
      else if (!name.toLowerCase().startsWith('iot-')) headers[name] = value;
    }
  }
  return [
    {
      topic,
      partition,
      offset: String(BigInt(msg.seq) * OFFSET_SCALE),
      key,
      value: decodeValue(contentType, msg.data),
      headers: headers as LogHeaders,
      timestamp,
    },
  ];
}
