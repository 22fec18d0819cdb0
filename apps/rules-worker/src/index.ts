import type { Config } from '@iot/config';
import type { NotifyActionPayload, NotifyWaterPayload } from '@iot/contracts/jobs';
import { checkDbReachable, type Db, findRecordedJobsSince } from '@iot/db';
import { type EventLog, openEventLog } from '@iot/event-log';
import {
  createDbJobKeyStore,
  enqueueNotifyAction,
  enqueueNotifyWater,
  JobPayloadError,
  type JobQueue,
  NOTIFY_ACTION,
  openJobQueue,
} from '@iot/jobs';
import { type Logger, reportConsumerLag, type Service } from '@iot/runtime';
import { startRulesTimer, type TimerTickResult } from './timer.js';
import { subscribeUplinks } from './uplink-consumer.js';
import { RULES_WORKER_GROUP, UPLINKS_TOPIC } from './uplink-record.js';

export { evaluateTimerTick } from './evaluate-timer-tick.js';
export { evaluateUplinkBatch, type UplinkBatchResult } from './evaluate-uplink-batch.js';
export { describeSuppression } from './persist-outcomes.js';
export { createRuleCache, type RuleCache } from './rule-cache.js';
export type { TimerTickResult } from './timer.js';
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
  /** Water usage warnings at most this often (ms, on a timer tick); 0: every tick. Default 5 min. */
  waterIntervalMs?: number;
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

export interface RulesWorkerService extends Service {
  /** Runs one timer tick now (tests, tools); resolves when its jobs were handed over. */
  tick(): Promise<TimerTickResult>;
  /** Runs the water usage warnings check now, due or not (tests, tools): the warnings claimed. */
  checkWater(): Promise<number>;
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
  await checkDbReachable(db);
  const ownLog = options.eventLog === undefined;
  const eventLog = options.eventLog ?? (await openEventLog(config));
  const ownQueue = options.queue === undefined;
  const queue = options.queue ?? openJobQueue(config, { db });
  const keys = createDbJobKeyStore(db);

  const enqueue = createEnqueue(queue, log);
  const recoverWindowMs = options.recoverWindowMs ?? 900_000;
  if (recoverWindowMs > 0) await handOverRecentJobs(db, new Date(clock() - recoverWindowMs), enqueue, log);

  const group = options.group ?? RULES_WORKER_GROUP;
  const subscription = await subscribeUplinks({
    ...options,
    eventLog,
    log,
    clock,
    topic: options.topic ?? UPLINKS_TOPIC,
    group,
    handOver: enqueue,
    claimJobs: () => queue.startsClaimed(NOTIFY_ACTION.name),
    releaseClaim: (key) => keys.release(key),
  });
  const timer = startRulesTimer({
    db,
    config,
    log,
    clock,
    handOver: enqueue,
    handOverWater: createWaterEnqueue(queue, log),
    intervalMs: options.timerIntervalMs ?? 60_000,
    ...(options.waterIntervalMs === undefined ? {} : { waterIntervalMs: options.waterIntervalMs }),
  });

  log.info({ profile: config.PROFILE, log: eventLog.kind, queue: queue.kind, group }, 'rules-worker ready');
  const unreportLag = reportConsumerLag(group, () => eventLog.lag(options.topic ?? UPLINKS_TOPIC, group));
  return {
    name: 'rules-worker',
    checks: [
      {
        name: 'event_log',
        check: async () => void (await eventLog.lag(options.topic ?? UPLINKS_TOPIC, group)),
      },
      { name: 'job_queue', check: () => queue.ready() },
    ],
    tick: timer.tick,
    checkWater: timer.checkWater,
    partitions: () => subscription.partitions(),
    stop: async () => {
      unreportLag();
      await timer.stop();
      await subscription.stop();
      if (ownLog) await eventLog.close();
      if (ownQueue) await queue.close();
    },
  };
}

/** Hands jobs over; a payload the catalogue refuses is logged, not retried (it never becomes valid). */
function createEnqueue(queue: JobQueue, log: Logger) {
  return async (jobs: readonly unknown[], claimed?: ReadonlySet<string>) => {
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
}

/** Hands notify.water jobs over; a payload the catalogue refuses is logged, not retried. */
function createWaterEnqueue(queue: JobQueue, log: Logger) {
  return async (jobs: readonly unknown[]) => {
    await Promise.all(
      jobs.map(async (job) => {
        try {
          await enqueueNotifyWater(queue, job as NotifyWaterPayload);
        } catch (error) {
          if (!(error instanceof JobPayloadError)) throw error;
          log.error({ err: error, job }, 'water job refused by its schema, dropped');
        }
      }),
    );
  };
}

/** Start-up sweep: the jobs of firings logged since `since`, lost if a crash came between commit and enqueue. */
async function handOverRecentJobs(
  db: Db,
  since: Date,
  enqueue: (jobs: readonly unknown[]) => Promise<void>,
  log: Logger,
): Promise<void> {
  const jobs = await findRecordedJobsSince(db, since);
  await enqueue(jobs);
  if (jobs.length > 0) log.info({ jobs: jobs.length }, 'recent notify jobs handed over again (idempotent)');
}
