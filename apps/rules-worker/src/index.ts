import type { Config } from '@iot/config';
import { type Db, findRecordedJobsSince } from '@iot/db';
import { type EventLog, type LogRecord, openEventLog, type Subscription } from '@iot/event-log';
import { JobPayloadError, type JobQueue, openJobQueue } from '@iot/jobs';
import { enqueueNotifyAction, type NotifyActionPayload } from '@iot/notifier';
import type { Logger, Service } from '@iot/runtime';
import { evaluateTimerTick } from './evaluate-timer-tick.js';
import { evaluateUplinkBatch } from './evaluate-uplink-batch.js';
import { RULES_WORKER_GROUP, readUplinkRecord, UPLINKS_TOPIC } from './uplink-record.js';

export { evaluateTimerTick } from './evaluate-timer-tick.js';
export { evaluateUplinkBatch, type UplinkBatchResult } from './evaluate-uplink-batch.js';
export { describeSuppression } from './persist-outcomes.js';
export { RULES_WORKER_GROUP, type RuleUplink, readUplinkRecord, UPLINKS_TOPIC } from './uplink-record.js';

export interface StartRulesWorkerOptions {
  config: Config;
  db: Db;
  log: Logger;
  /** The event log to consume; the one-process platform hands in ingest's. Else openEventLog(config), closed on stop. */
  eventLog?: EventLog;
  /** Where notify jobs go; the platform hands in the notifier's. Else openJobQueue(config), closed on stop. */
  queue?: JobQueue;
  /** Timer of no-data checks and rules (ms); 0 switches it off. Default 60 s. */
  timerIntervalMs?: number;
  /** Log batches: at most this many uplinks, a partly filled batch waits at most maxWaitMs. */
  maxBatch?: number;
  maxWaitMs?: number;
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
  tick(): Promise<{ jobs: number; devices: number }>;
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

  /** Hands jobs over; a payload the catalogue refuses is logged, not retried (it never becomes valid). */
  const enqueue = async (jobs: readonly unknown[]) => {
    await Promise.all(
      jobs.map(async (job) => {
        try {
          await enqueueNotifyAction(queue, job as NotifyActionPayload);
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

  const handle = async (records: LogRecord[]) => {
    const uplinks = records.map(readUplinkRecord).filter((u) => u !== null);
    if (uplinks.length === 0) return;
    const result = await evaluateUplinkBatch({ db, uplinks, now: clock(), log });
    await options.afterCommit?.({ jobs: result.jobs.length, records: records.length });
    await enqueue(result.jobs);
    if (result.replayed > 0) log.info({ replayed: result.replayed }, 'redelivered uplinks skipped');
  };

  const group = options.group ?? RULES_WORKER_GROUP;
  const subscription: Subscription = await eventLog.subscribe(options.topic ?? UPLINKS_TOPIC, group, handle, {
    maxBatch: options.maxBatch ?? 500,
    maxWaitMs: options.maxWaitMs ?? 20,
    onError: (error, info) =>
      log.error({ err: error, ...info }, 'rules batch failed, redelivered after backoff'),
  });

  // Jobs of a tick whose enqueue failed are kept and handed over first at the next tick.
  let unsent: unknown[] = [];
  let running: Promise<{ jobs: number; devices: number }> | undefined;
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
        return { jobs: result.jobs.length, devices: result.devices };
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
