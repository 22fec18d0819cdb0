import type { Db } from '@iot/db';
import type { EventLog, LogRecord, Subscription } from '@iot/event-log';
import type { JobKeyStore } from '@iot/jobs';
import { coalesce, type Logger, stageHook } from '@iot/runtime';
import { evaluateUplinkBatch } from './evaluate-uplink-batch.js';
import { createRuleCache } from './rule-cache.js';
import { readUplinkRecord } from './uplink-record.js';

export interface UplinkConsumerOptions {
  db: Db;
  eventLog: EventLog;
  log: Logger;
  clock: () => number;
  topic: string;
  group: string;
  /** Hands a committed batch's jobs to the queue; `claimed`: the keys its transaction claimed. */
  handOver: (jobs: readonly unknown[], claimed?: ReadonlySet<string>) => Promise<void>;
  /** Whether this process runs the notify jobs (then a batch preloads and claims them). */
  claimJobs: () => boolean;
  /** Gives a claim back (a batch whose jobs were not handed over). */
  releaseClaim: JobKeyStore['release'];
  maxBatch?: number;
  maxWaitMs?: number;
  maxFlush?: number;
  maxInFlight?: number;
  afterCommit?: (info: { jobs: number; records: number }) => Promise<void> | void;
}

/**
 * Subscribes the rules worker to the uplinks topic. Latency first: a partition's batch goes to the
 * worker as soon as it has records (maxWaitMs 2), and batches of all partitions share one transaction
 * (coalesce): one starts at once when none runs, the ones arriving meanwhile go together in the next. At
 * low load an uplink waits for no timer; under load transactions grow with the backlog instead of sixteen
 * partitions queueing sixteen transactions for PGlite's one connection (ahead of the notifier's
 * statements). A partition's batch is committed to the log only after the transaction it went into
 * committed and its jobs were handed over; if that transaction fails, every batch in it is delivered again.
 */
export async function subscribeUplinks(options: UplinkConsumerOptions): Promise<Subscription> {
  const { db, eventLog, log } = options;
  const ruleCache = createRuleCache({ lockRows: db.kind !== 'pglite' });
  const evaluate = coalesce<LogRecord[], void>(
    async (batches) => {
      await evaluateRecords(batches.flat(), options, ruleCache);
      return batches.map(() => undefined);
    },
    {
      maxBatch: options.maxFlush ?? 1000,
      maxInFlight: options.maxInFlight ?? (db.kind === 'pglite' ? 1 : 4),
      weight: (batch) => batch.length,
    },
  );
  const handle = (records: LogRecord[]) => {
    const trace = stageHook();
    trace?.(
      'rw: batch delivered by the log',
      records
        .map((r) => (r.value as { messageId?: unknown } | null)?.messageId)
        .filter((id) => typeof id === 'string'),
    );
    return evaluate(records);
  };
  return eventLog.subscribe(options.topic, options.group, handle, {
    maxBatch: options.maxBatch ?? 500,
    // In-process log: 0, so a partition released by a commit hands its next batch over within the same
    // turn, before the next transaction starts (coalesce starts it on setImmediate); with a 2 ms timer it
    // missed that transaction and waited for the one after, so partitions alternated between
    // transactions. NATS: 0 too. A partition reads its next batch only after the last one's transaction,
    // hand-over and ack, so an uplink waits for the rest of that cycle, and a 2 ms timer (10 ms and more
    // on a busy machine) lengthened every cycle for records that the coalesced transaction gathers
    // anyway (issue #31: distributed-apart 1 in 50 p99 920 / 913 ms against 1,822 / 1,797 ms with it,
    // alternating runs at load 9 to 12). Kafka keeps 2 ms: there it is the broker's fetch wait, and 0
    // would poll.
    maxWaitMs: options.maxWaitMs ?? (eventLog.kind === 'kafka' ? 2 : 0),
    onError: (error, info) =>
      log.error({ err: error, ...info }, 'rules batch failed, redelivered after backoff'),
  });
}

/** One transaction for the records of the coalesced batches, then their jobs handed over. */
async function evaluateRecords(
  records: LogRecord[],
  options: UplinkConsumerOptions,
  ruleCache: ReturnType<typeof createRuleCache>,
): Promise<void> {
  const uplinks = records.map(readUplinkRecord).filter((u) => u !== null);
  if (uplinks.length === 0) return;
  const trace = stageHook();
  const ids = trace ? uplinks.map((u) => u.uplink.messageId) : [];
  const { db, log, clock } = options;
  // When this process runs the notifier on the same queue, the batch's transaction preloads and
  // claims its new jobs, which then start at once after the commit (EnqueueOptions.claimed).
  const claimJobs = options.claimJobs();
  const result = await evaluateUplinkBatch({ db, uplinks, now: clock(), log, ruleCache, claimJobs }).catch(
    (error: unknown) => {
      ruleCache.forget();
      throw error;
    },
  );
  trace?.('rw: committed', ids);
  if (result.pendingRules) ruleCache.commit(result.pendingRules);
  try {
    await options.afterCommit?.({ jobs: result.jobs.length, records: records.length });
  } catch (error) {
    // Nothing was handed over: give the claims back, so the redelivered batch's jobs run at once
    // (a process that dies here leaves them claimed: they run when the claims' lease ran out).
    if (result.claimed) await Promise.all([...result.claimed].map((key) => options.releaseClaim(key)));
    throw error;
  }
  await options.handOver(result.jobs, result.claimed);
  trace?.('rw: jobs handed over', ids);
  if (result.replayed > 0) log.info({ replayed: result.replayed }, 'redelivered uplinks skipped');
}
