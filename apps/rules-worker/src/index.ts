import type { Config } from '@iot/config';
import type { NotifyActionPayload } from '@iot/contracts';
import {
  type Db,
  expireUnansweredDownlinks,
  findRecordedJobsSince,
  purgeExpiredLogs,
  type RetainedLog,
} from '@iot/db';
import { type EventLog, type LogRecord, openEventLog, type Subscription } from '@iot/event-log';
import {
  createDbJobKeyStore,
  enqueueNotifyAction,
  JobPayloadError,
  type JobQueue,
  NOTIFY_ACTION,
  openJobQueue,
} from '@iot/jobs';
import { coalesce, type Logger, type Service, stageHook } from '@iot/runtime';
import { evaluateTimerTick } from './evaluate-timer-tick.js';
import { evaluateUplinkBatch } from './evaluate-uplink-batch.js';
import { createRuleCache } from './rule-cache.js';
import { RULES_WORKER_GROUP, readUplinkRecord, UPLINKS_TOPIC } from './uplink-record.js';

export { evaluateTimerTick } from './evaluate-timer-tick.js';
export { evaluateUplinkBatch, type UplinkBatchResult } from './evaluate-uplink-batch.js';
export { describeSuppression } from './persist-outcomes.js';
export { createRuleCache, type RuleCache } from './rule-cache.js';
export { RULES_WORKER_GROUP, type RuleUplink, readUplinkRecord, UPLINKS_TOPIC } from './uplink-record.js';

export interface StartRulesWorkerOptions {
  config: Config;
  db: Db;
  log: Logger;
  /** The event log to consume; the one-process platform hands in ingest's. Else openEventLog(config), closed on stop. */
  eventLog?: EventLog;
  /** Where notify jobs go; the platform hands in the notifier's. Else openJobQueue(config), closed on stop. */
  queue?: JobQueue;
  /**
   * Timer of no-data checks and rules (ms); 0 switches it off. Default 60 s. Each tick also fails the
   * LoRaWAN commands whose network server has not reported on them within config.DOWNLINK_ACK_TIMEOUT_HOURS
   * and deletes log entries older than config.LOG_RETENTION_DAYS (purgeExpiredLogs, at most 2 s a tick).
   */
  timerIntervalMs?: number;
  /** Log batches: at most this many uplinks, a partly filled batch waits at most maxWaitMs. */
  maxBatch?: number;
  maxWaitMs?: number;
  /**
   * Uplinks per transaction: log batches of all partitions that arrive while a transaction runs are
   * evaluated together in the next (default 1000). Transactions at once: `maxInFlight` (default 1 on
   * PGlite, whose one connection would only queue them; 4 on PostgreSQL).
   */
  maxFlush?: number;
  maxInFlight?: number;
  /** Consumer group (default `rules-worker`) and topic (default `uplinks`); tests use their own. */
  group?: string;
  topic?: string;
  /** Start-up sweep: re-enqueue jobs of firings logged this long ago (ms; default 15 min; 0: none). */
  recoverWindowMs?: number;
  /** The clock (tests). */
  clock?: () => number;
  /** Test hook: runs after a batch's transaction committed, before its jobs are enqueued. */
  afterCommit?: (info: { jobs: number; records: number }) => Promise<void> | void;
}

export interface TimerTickResult {
  /** Notify jobs handed over, devices judged for no-data checks and rules. */
  jobs: number;
  devices: number;
  /** LoRaWAN commands failed for want of a report from their network server. */
  expiredDownlinks: number;
  /** Log entries older than config.LOG_RETENTION_DAYS deleted (none when it is 0). */
  purgedLogs: Record<RetainedLog, number>;
}

export interface RulesWorkerService extends Service {
  /** Runs one timer tick now (tests, tools); resolves when its jobs were handed over. */
  tick(): Promise<TimerTickResult>;
  /** Log partitions this member owns right now (changes while the consumer group rebalances). */
  partitions(): readonly number[];
}

/**
 * Evaluates virtual data fields, rules and sensor checks on every uplink and raises alarms.
 * The embedded platform calls this in its own process; `main.ts` runs it standalone (distributed profile).
 */
export async function startRulesWorker(options: StartRulesWorkerOptions): Promise<RulesWorkerService> {
  const { config, db } = options;
  const log = options.log.child({ app: 'rules-worker' });
  const clock = options.clock ?? Date.now;
  // Fail fast when the database is unreachable rather than on the first batch.
  await db.query('SELECT 1');
  const ownLog = options.eventLog === undefined;
  const eventLog = options.eventLog ?? (await openEventLog(config));
  const ownQueue = options.queue === undefined;
  const queue = options.queue ?? openJobQueue(config, { db });
  const keys = createDbJobKeyStore(db);

  /** Hands jobs over; a payload the catalogue refuses is logged, not retried (it never becomes valid). */
  const enqueue = async (jobs: readonly unknown[], claimed?: ReadonlySet<string>) => {
    await Promise.all(
      jobs.map(async (job) => {
        try {
          const payload = job as NotifyActionPayload;
          const options = claimed?.has(NOTIFY_ACTION.idempotencyKey(payload)) ? { claimed: true } : undefined;
          await enqueueNotifyAction(queue, payload, options);
        } catch (error) {
          if (!(error instanceof JobPayloadError)) throw error;
          log.error({ err: error, job }, 'notify job refused by its schema, dropped');
        }
      }),
    );
  };

  if ((options.recoverWindowMs ?? 900_000) > 0) {
    const since = new Date(clock() - (options.recoverWindowMs ?? 900_000));
    const jobs = await findRecordedJobsSince(db, since);
    await enqueue(jobs);
    if (jobs.length > 0) log.info({ jobs: jobs.length }, 'recent notify jobs handed over again (idempotent)');
  }

  // Latency first: a partition's batch goes to the worker as soon as it has records (maxWaitMs 2), and
  // batches of all partitions share one transaction (coalesce): one starts at once when none runs, the
  // ones arriving meanwhile go together in the next. At low load an uplink waits for no timer; under load
  // transactions grow with the backlog instead of sixteen partitions queueing sixteen transactions for
  // PGlite's one connection (ahead of the notifier's statements). A partition's batch is committed to
  // the log only after the transaction it went into committed and its jobs were handed over; if that
  // transaction fails, every batch in it is delivered again.
  const ruleCache = createRuleCache({ lockRows: db.kind !== 'pglite' });
  const evaluate = coalesce<LogRecord[], void>(
    async (batches) => {
      const records = batches.flat();
      const uplinks = records.map(readUplinkRecord).filter((u) => u !== null);
      const trace = stageHook();
      const ids = trace ? uplinks.map((u) => u.uplink.messageId) : [];
      if (uplinks.length > 0) {
        // When this process runs the notifier on the same queue, the batch's transaction preloads and
        // claims its new jobs, which then start at once after the commit (EnqueueOptions.claimed).
        const claimJobs = queue.runsHere(NOTIFY_ACTION.name);
        const result = await evaluateUplinkBatch({
          db,
          uplinks,
          now: clock(),
          log,
          ruleCache,
          claimJobs,
        }).catch((error: unknown) => {
          ruleCache.forget();
          throw error;
        });
        trace?.('rw: committed', ids);
        if (result.pendingRules) ruleCache.commit(result.pendingRules);
        try {
          await options.afterCommit?.({ jobs: result.jobs.length, records: records.length });
        } catch (error) {
          // Nothing was handed over: give the claims back, so the redelivered batch's jobs run at once
          // (a process that dies here leaves them claimed: they run when the claims' lease ran out).
          if (result.claimed) await Promise.all([...result.claimed].map((key) => keys.release(key)));
          throw error;
        }
        await enqueue(result.jobs, result.claimed);
        trace?.('rw: jobs handed over', ids);
        if (result.replayed > 0) log.info({ replayed: result.replayed }, 'redelivered uplinks skipped');
      }
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

  const group = options.group ?? RULES_WORKER_GROUP;
  const subscription: Subscription = await eventLog.subscribe(options.topic ?? UPLINKS_TOPIC, group, handle, {
    maxBatch: options.maxBatch ?? 500,
    // In-process log: 0, so a partition released by a commit hands its next batch over within the same
    // turn, before the next transaction starts (coalesce starts it on setImmediate); with a 2 ms timer it
    // missed that transaction and waited for the one after, so partitions alternated between
    // transactions. NATS fetches keep 2 ms.
    maxWaitMs: options.maxWaitMs ?? (eventLog.kind === 'in-process' ? 0 : 2),
    onError: (error, info) =>
      log.error({ err: error, ...info }, 'rules batch failed, redelivered after backoff'),
  });

  // Jobs of a tick whose enqueue failed are kept and handed over first at the next tick.
  let unsent: unknown[] = [];
  let running: Promise<TimerTickResult> | undefined;
  const downlinkAckTimeoutMs = config.DOWNLINK_ACK_TIMEOUT_HOURS * 3_600_000;
  const logRetentionMs = config.LOG_RETENTION_DAYS * 86_400_000;
  const tick = () => {
    running ??= (async () => {
      try {
        const retry = unsent;
        unsent = [];
        await enqueue(retry).catch((error: unknown) => {
          unsent.push(...retry);
          throw error;
        });
        const result = await evaluateTimerTick({ db, now: clock() });
        await enqueue(result.jobs).catch((error: unknown) => {
          unsent.push(...result.jobs);
          throw error;
        });
        const expired = await expireUnansweredDownlinks(db, {
          now: new Date(clock()),
          timeoutMs: downlinkAckTimeoutMs,
        });
        if (expired.length > 0) {
          log.warn({ downlinks: expired.map((d) => d.id) }, 'LoRaWAN commands without a report failed');
        }
        const purgedLogs =
          logRetentionMs > 0
            ? await purgeExpiredLogs(db, { before: new Date(clock() - logRetentionMs), clock })
            : { device_logs: 0, notification_log: 0 };
        if (purgedLogs.device_logs + purgedLogs.notification_log > 0) {
          log.info(
            { purged: purgedLogs, days: config.LOG_RETENTION_DAYS },
            'log entries past their retention deleted',
          );
        }
        return {
          jobs: result.jobs.length,
          devices: result.devices,
          expiredDownlinks: expired.length,
          purgedLogs,
        };
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  const interval = options.timerIntervalMs ?? 60_000;
  const timer =
    interval > 0
      ? setInterval(() => {
          tick().catch((error: unknown) => log.error({ err: error }, 'rules timer tick failed'));
        }, interval)
      : undefined;
  timer?.unref();

  log.info({ profile: config.PROFILE, log: eventLog.kind, queue: queue.kind, group }, 'rules-worker ready');
  return {
    name: 'rules-worker',
    tick,
    partitions: () => subscription.partitions(),
    stop: async () => {
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
      await subscription.stop();
      if (ownLog) await eventLog.close();
      if (ownQueue) await queue.close();
    },
  };
}
