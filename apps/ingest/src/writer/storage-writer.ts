import {
  type Db,
  insertDeviceDataRows,
  insertDeviceLogRows,
  updateDeviceStatusRows,
  upsertDeviceCurrentRows,
} from '@iot/db';
import type { EventLog, LogRecord, Subscription } from '@iot/event-log';
import type { Logger } from '@iot/runtime';
import { UPLINKS_TOPIC, type UplinkEnvelope } from '../envelope.js';
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
}

export interface StorageWriterStats {
  batches: number;
  records: number;
  stored: number;
}

/**
 * Writes one batch of envelopes in one transaction: data points (a repeated uplink is a no-op),
 * latest values, device status and device log entries, one multi-row statement per table. The batch
 * is committed to the log only after the transaction, so a crash or a failed write gets the same
 * batch again (at least once; the unique index makes the replay harmless for data points).
 */
export async function writeUplinkBatch(db: Db, envelopes: readonly UplinkEnvelope[]): Promise<number> {
  const rows = buildBatchRows(envelopes);
  return db.transaction(async (tx) => {
    const stored = await insertDeviceDataRows(tx, rows.data);
    await upsertDeviceCurrentRows(tx, rows.current);
    await updateDeviceStatusRows(tx, rows.status);
    await insertDeviceLogRows(tx, rows.logs);
    return stored;
  });
}

/** The storage writer: consumer group `storage-writer` on topic `uplinks`. */
export async function startStorageWriter(
  options: StorageWriterOptions,
): Promise<{ subscription: Subscription; stats: StorageWriterStats }> {
  const { db, eventLog, log } = options;
  const stats: StorageWriterStats = { batches: 0, records: 0, stored: 0 };
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
      const stored = await writeUplinkBatch(db, envelopes);
      stats.batches++;
      stats.records += batch.length;
      stats.stored += stored;
    },
    {
      maxBatch: options.maxBatch ?? 1000,
      maxWaitMs: options.maxWaitMs ?? 20,
      onError: (err, info) => log.error({ err, ...info }, 'storage writer batch failed, retrying'),
    },
  );
  return { subscription, stats };
}
