import { UPLINKS_TOPIC, type UplinkEnvelope } from '@iot/contracts/uplinks';
import { type Db, writeIngestBatch } from '@iot/db';
import type { EventLog, LogRecord, Subscription } from '@iot/event-log';
import { coalesce, type Logger, metrics, reportConsumerLag, secondsSince } from '@iot/runtime';
import { buildBatchRows, isUplinkEnvelope } from './build-batch-rows.js';

export const STORAGE_WRITER_GROUP = 'storage-writer';

export interface StorageWriterOptions {
  db: Db;
  eventLog: EventLog;
  log: Logger;
  /** Records per batch (one statement per table per batch). */
  maxBatch?: number;
  /** How long a partly filled batch waits for more (ms). */
  maxWaitMs?: number;
  /** Default `uplinks`. */
  topic?: string;
  /** Envelopes one transaction takes at most when batches of several partitions wait (default 5000). */
  maxRowsPerWrite?: number;
  /** Transactions at once (default 2): one fills while the other commits. */
  concurrentWrites?: number;
}

export interface StorageWriterStats {
  batches: number;
  records: number;
  stored: number;
  /** Transactions committed (group commits): stored / writes is the write size. */
  writes: number;
}

/**
 * Writes one batch of envelopes in one transaction (writeIngestBatch): data points (a repeated uplink is
 * a no-op), latest values, device status and device log entries, one multi-row statement per table. The
 * batch is committed to the log only after the transaction, so a crash or a failed write gets the same
 * batch again (at least once; the unique index makes the replay harmless for data points).
 */
export async function writeUplinkBatch(db: Db, envelopes: readonly UplinkEnvelope[]): Promise<number> {
  return writeIngestBatch(db, buildBatchRows(envelopes));
}

/**
 * SQLSTATE classes 22 (data exception, e.g. a number out of a column's range) and 23 (integrity
 * constraint) fail the same way on every retry; anything else (connection lost, database down,
 * serialization failure) may pass next time.
 */
function isPermanentDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

/**
 * Writes a batch; when it fails on its data, writes the envelopes one by one so that one bad
 * envelope cannot hold up its partition forever: those that still fail on their data are logged in
 * full and skipped, any other failure is thrown so the log redelivers the batch.
 */
export async function writeEnvelopes(
  db: Db,
  envelopes: readonly UplinkEnvelope[],
  log: Logger,
): Promise<number> {
  try {
    return await writeUplinkBatch(db, envelopes);
  } catch (error) {
    if (!isPermanentDataError(error) || envelopes.length === 0) throw error;
    let stored = 0;
    for (const envelope of envelopes) {
      try {
        stored += await writeUplinkBatch(db, [envelope]);
      } catch (single) {
        if (!isPermanentDataError(single)) throw single;
        log.error({ err: single, envelope }, 'uplink cannot be stored, skipped');
      }
    }
    return stored;
  }
}

/** The storage writer: consumer group `storage-writer` on topic `uplinks`. */
export async function startStorageWriter(
  options: StorageWriterOptions,
): Promise<{ subscription: Subscription; stats: StorageWriterStats }> {
  const { db, eventLog, log } = options;
  const stats: StorageWriterStats = { batches: 0, records: 0, stored: 0, writes: 0 };
  // Group commit across partitions: the log hands each partition's batches over on their own (16
  // partitions at a few hundred uplinks/s each give batches of a handful of records); batches arriving
  // while a write runs go together into the next transaction, up to maxRowsPerWrite envelopes. A
  // partition has at most one batch in flight, so a write never holds one partition twice: per-device
  // order holds and concurrent writes touch disjoint devices. Each batch's promise settles with its
  // write, so the log commits a partition's offsets only after the rows are in.
  const commit = coalesce<readonly UplinkEnvelope[], void>(
    async (batches) => {
      // Not `stats.stored += await ...`: that reads the counter before the await, and two writes in
      // flight (concurrentWrites) would overwrite each other's count.
      const rows = batches.flat();
      const started = performance.now();
      const stored = await writeEnvelopes(db, rows, log);
      metrics.writerCommitSeconds.observe(secondsSince(started));
      metrics.writerBatchSize.observe(rows.length);
      stats.stored += stored;
      stats.writes++;
      return batches.map(() => undefined);
    },
    {
      maxBatch: options.maxRowsPerWrite ?? 5000,
      maxInFlight: options.concurrentWrites ?? 2,
      weight: (batch) => batch.length,
    },
  );
  const subscription = await eventLog.subscribe(
    options.topic ?? UPLINKS_TOPIC,
    STORAGE_WRITER_GROUP,
    async (batch: LogRecord[]) => {
      const envelopes: UplinkEnvelope[] = [];
      for (const record of batch) {
        if (isUplinkEnvelope(record.value)) envelopes.push(record.value);
        else
          log.error(
            { partition: record.partition, offset: record.offset },
            'uplinks record is not an envelope, skipped',
          );
      }
      if (envelopes.length > 0) await commit(envelopes);
      stats.batches++;
      stats.records += batch.length;
    },
    {
      maxBatch: options.maxBatch ?? 1000,
      maxWaitMs: options.maxWaitMs ?? 20,
      onError: (err, info) => log.error({ err, ...info }, 'storage writer batch failed, retrying'),
    },
  );
  // Lag of this group at each scrape (one source per process: the latest writer's).
  const topic = options.topic ?? UPLINKS_TOPIC;
  const unreport = reportConsumerLag(STORAGE_WRITER_GROUP, () => eventLog.lag(topic, STORAGE_WRITER_GROUP));
  return {
    subscription: {
      partitions: () => subscription.partitions(),
      stop: async () => {
        unreport();
        await subscription.stop();
      },
    },
    stats,
  };
}
