/**
 * Background rollup builder: keeps the hourly rollups (device_rollups) built ahead of chart reads, so the first chart of a
 * device (a console drawer, a dashboard) reads stored buckets instead of building them from a year of raw
 * rows in the request (see buildRollupsAhead in repositories/device-data-rollups-ahead.ts).
 *
 * One loop per process, one small transaction at a time:
 * - every `recentIntervalMs`, once a new hour has closed since the last pass, the devices whose current
 *   values changed within `recentWindowMs` get the buckets closed since (the hours of the window, and the
 *   coarse widths over them);
 * - in between, a backfill walks every device's history newest first in chunks of `chunkMs`, down to its
 *   first row or `horizonMs` back, and starts over every `backfillEveryMs` (a pass over built history only
 *   checks which hours exist). After every chunk it pauses `pauseFactor` times as long as the chunk took
 *   (at least `minPauseMs`), so it takes at most about a third of one core and of the database, and ingest
 *   and the API always get their turn; progress is logged every `progressLogMs`.
 *
 * Several processes may run it (API replicas): the builder's advisory lock per device keeps them apart. A
 * builder that finds a device locked does not wait inside the database (that would hold a pooled
 * connection of its API): it tries the chunk again after a pause, and then finds it stored or builds it.
 * Each device is built inside withTenant as its current company, so row-level security holds here as
 * everywhere; listing the devices is the only query across companies.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from './db';
import type { DataRange } from './repositories/device-data-buckets';
import {
  ROLLUP_BASE_SECONDS,
  ROLLUP_BLOCK_HOURS,
  ROLLUP_CLOSED_AFTER_MS,
} from './repositories/device-data-rollups';
import { buildRollupsAhead } from './repositories/device-data-rollups-ahead';
import { withTenant } from './tenant';

/** The part of a pino logger this needs. */
export interface RollupBuilderLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface RollupBuilderOptions {
  db: Db;
  log: RollupBuilderLog;
  recentIntervalMs?: number;
  recentWindowMs?: number;
  chunkMs?: number;
  horizonMs?: number;
  backfillEveryMs?: number;
  pauseFactor?: number;
  minPauseMs?: number;
  progressLogMs?: number;
  /** Devices per listing query of the backfill. */
  devicesPerPage?: number;
  now?: () => Date;
}

export interface RollupBuilderProgress {
  /** Backfill passes over every device completed since start. */
  backfillPasses: number;
  /** Devices finished in the current backfill pass. */
  devicesDone: number;
  /** Chunks (one device, one `chunkMs` of history) built by the backfill since start. */
  chunks: number;
  /** Timer passes over recently active devices since start. */
  recentPasses: number;
  /** Hours read from raw rows and rollup rows stored, since start. */
  rawHours: number;
  stored: number;
  /** Batches that failed (logged; the device is tried again on the next pass). */
  failures: number;
  /** Batches given up because another builder held the device's lock every time (next pass retries). */
  busy: number;
}

export interface RollupBuilder {
  readonly name: string;
  progress(): RollupBuilderProgress;
  /** Ends the loop after the batch in progress (a batch is one short transaction). */
  stop(): Promise<void>;
}

const HOUR_MS = ROLLUP_BASE_SECONDS * 1000;
/**
 * The stored blocks of six hours (migration 0043) are built only inside a chunk that holds them whole, so
 * chunks start and end on their grid (the bucket origin, 2000-01-01, lies on it): a block across a chunk
 * edge would be left to the first chart read, which merges it from its hours (92 against 29 ms).
 */
const BLOCK_MS = ROLLUP_BLOCK_HOURS * HOUR_MS;
const blockStart = (t: number) => Math.floor(t / BLOCK_MS) * BLOCK_MS;
/** Tries of a chunk whose device another builder holds, with growing pauses (about 10 s in all). */
const BUSY_ATTEMPTS = 40;
const DAY_MS = 24 * HOUR_MS;

/**
 * The backfill's chunks of one device, newest first, from the block open at `nowMs` down to `oldestMs`:
 * ends on the block grid (`chunkMs` a whole number of blocks, as startRollupBuilder rounds it), the last
 * chunk reaching an hour before the oldest row. Also what tests/bench/device-data.bench.ts builds.
 */
export function* backfillChunks(nowMs: number, oldestMs: number, chunkMs: number): Generator<DataRange> {
  for (let end = blockStart(nowMs) + BLOCK_MS; end > oldestMs; end -= chunkMs) {
    yield { from: new Date(Math.max(end - chunkMs, oldestMs - HOUR_MS)), to: new Date(end) };
  }
}

interface DeviceToBuild {
  id: number;
  company_id: number;
  fields: string[];
}

/** Devices with current values (the fields charted when a chart names none), as their current company. */
const DEVICES_SQL = `SELECT d.id::int AS id, d.company_id::int AS company_id,
        ARRAY(SELECT jsonb_object_keys(c.data)) AS fields
   FROM devices d JOIN device_current c ON c.device_id = d.id AND c.company_id = d.company_id`;

export function startRollupBuilder(options: RollupBuilderOptions): RollupBuilder {
  const { db, log } = options;
  const recentIntervalMs = options.recentIntervalMs ?? 5 * 60_000;
  const recentWindowMs = options.recentWindowMs ?? 3 * HOUR_MS;
  // Whole blocks of six hours, so consecutive chunks meet on the block grid and no hour falls between them.
  // PGlite is one connection (in its worker thread, so the event loop no longer waits for it): a chunk is
  // one transaction that every other statement (storage writer, rules worker, API) waits behind, so
  // shorter chunks keep those waits short.
  const defaultChunkMs = (db.kind === 'pglite' ? 7 : 14) * DAY_MS;
  const chunkMs = Math.max(1, Math.round((options.chunkMs ?? defaultChunkMs) / BLOCK_MS)) * BLOCK_MS;
  const horizonMs = options.horizonMs ?? 2 * 366 * DAY_MS;
  const backfillEveryMs = options.backfillEveryMs ?? 24 * HOUR_MS;
  const pauseFactor = options.pauseFactor ?? 2;
  const minPauseMs = options.minPauseMs ?? 20;
  const progressLogMs = options.progressLogMs ?? 60_000;
  const devicesPerPage = options.devicesPerPage ?? 100;
  const now = options.now ?? (() => new Date());

  const progress: RollupBuilderProgress = {
    backfillPasses: 0,
    devicesDone: 0,
    chunks: 0,
    recentPasses: 0,
    rawHours: 0,
    stored: 0,
    failures: 0,
    busy: 0,
  };
  const stopping = new AbortController();
  let lastProgressLog = Date.now();

  /** One device and range in one transaction; a failure is logged and counted, never fatal. */
  async function build(device: DeviceToBuild, from: Date, to: Date): Promise<boolean> {
    // The lock is per device, not per range: a chunk skipped while another builder holds the device would
    // be built by nobody. So a busy device is tried again after a pause (waiting here, in JavaScript, not
    // on a pooled connection inside the database); the holder's chunks are short.
    for (let attempt = 1; attempt <= BUSY_ATTEMPTS; attempt += 1) {
      const outcome = await buildOnce(device, from, to);
      if (outcome !== 'busy') return outcome;
      if (stopping.signal.aborted) return false;
      await sleep(Math.max(minPauseMs, 10) * attempt, undefined, { signal: stopping.signal }).catch(
        () => undefined,
      );
    }
    progress.busy += 1;
    return false;
  }

  async function buildOnce(device: DeviceToBuild, from: Date, to: Date): Promise<boolean | 'busy'> {
    try {
      const result = await withTenant(db, device.company_id, (tx) =>
        buildRollupsAhead(
          tx,
          device.company_id,
          device.id,
          device.fields,
          { from, to },
          { now: now(), wait: false },
        ),
      );
      if (result.busy) return 'busy';
      progress.rawHours += result.rawHours;
      progress.stored += result.stored;
      return true;
    } catch (err) {
      if (stopping.signal.aborted) return false;
      progress.failures += 1;
      log.warn({ err, deviceId: device.id, from, to }, 'rollup build failed; retried on the next pass');
      return false;
    }
  }

  /** Yields to everything else in the process and the database: pause in proportion to the work done. */
  async function yieldAfter(startedAt: number, atLeastMs = minPauseMs): Promise<void> {
    // The timer's pass visits every active device once an hour (a few milliseconds each): no floor there,
    // or ten thousand devices would take minutes of pauses alone.
    const pause = Math.max(atLeastMs, (Date.now() - startedAt) * pauseFactor);
    await sleep(pause, undefined, { signal: stopping.signal }).catch(() => undefined);
  }

  /** The end of the newest closed hour at the last recent pass: no new hour closed, nothing to build. */
  let lastClosedHour = Number.NaN;

  async function recentPass(): Promise<void> {
    const closedHour = Math.floor((now().getTime() - ROLLUP_CLOSED_AFTER_MS) / HOUR_MS) * HOUR_MS;
    if (closedHour === lastClosedHour) {
      progress.recentPasses += 1;
      return;
    }
    const since = new Date(now().getTime() - recentWindowMs);
    const { rows } = await db.query<DeviceToBuild>(`${DEVICES_SQL} WHERE c.updated_at >= $1 ORDER BY d.id`, [
      since,
    ]);
    for (const device of rows) {
      if (stopping.signal.aborted) return;
      const startedAt = Date.now();
      // The window starts an hour early so the hour that was open at the last pass is in it, and at the
      // start of its block, so the block whose last hour just closed is stored as well.
      await build(device, new Date(blockStart(since.getTime() - HOUR_MS)), now());
      await yieldAfter(startedAt, 0);
    }
    lastClosedHour = closedHour;
    progress.recentPasses += 1;
  }

  /** Newest history first: the last months are what charts show first. */
  async function backfillDevice(device: DeviceToBuild): Promise<void> {
    const { rows } = await withTenant(db, device.company_id, (tx) =>
      tx.query<{ first: Date | null }>(
        `SELECT min(r.created_at) AS first FROM device_series s JOIN device_readings r ON r.series = s.id
          WHERE s.device_id = $1 AND s.company_id = $2`,
        [device.id, device.company_id],
      ),
    );
    const first = rows[0]?.first;
    if (!first) return;
    const oldest = Math.max(first.getTime(), now().getTime() - horizonMs);
    for (const chunk of backfillChunks(now().getTime(), oldest, chunkMs)) {
      if (stopping.signal.aborted || dueForRecent()) return;
      const startedAt = Date.now();
      if (await build(device, chunk.from, chunk.to)) progress.chunks += 1;
      logProgress();
      await yieldAfter(startedAt);
    }
  }

  let nextRecentAt = Date.now();
  let nextBackfillAt = Date.now();
  /** Backfill cursor: the last device id finished in this pass, and the chunk end to resume it at. */
  let afterDeviceId = 0;
  const dueForRecent = () => Date.now() >= nextRecentAt;

  function logProgress(force = false): void {
    if (!force && Date.now() - lastProgressLog < progressLogMs) return;
    lastProgressLog = Date.now();
    log.info({ ...progress }, 'rollup builder progress');
  }

  /** Builds the next devices of the backfill pass until the timer is due; true when the pass ended. */
  async function backfillSome(): Promise<boolean> {
    while (!stopping.signal.aborted && !dueForRecent()) {
      const { rows } = await db.query<DeviceToBuild>(
        `${DEVICES_SQL} WHERE d.id > $1 ORDER BY d.id LIMIT $2`,
        [afterDeviceId, devicesPerPage],
      );
      if (rows.length === 0) return true;
      for (const device of rows) {
        if (stopping.signal.aborted || dueForRecent()) return false;
        // A device interrupted by the timer starts over: its built chunks cost only the check of its hours.
        await backfillDevice(device);
        if (stopping.signal.aborted || dueForRecent()) return false;
        afterDeviceId = device.id;
        progress.devicesDone += 1;
      }
    }
    return false;
  }

  async function loop(): Promise<void> {
    while (!stopping.signal.aborted) {
      try {
        if (dueForRecent()) {
          nextRecentAt = Date.now() + recentIntervalMs;
          await recentPass();
          continue;
        }
        if (Date.now() >= nextBackfillAt) {
          if (await backfillSome()) {
            progress.backfillPasses += 1;
            logProgress(true);
            afterDeviceId = 0;
            progress.devicesDone = 0;
            nextBackfillAt = Date.now() + backfillEveryMs;
          }
          continue;
        }
        const wait = Math.min(nextRecentAt, nextBackfillAt) - Date.now();
        await sleep(Math.max(wait, 0), undefined, { signal: stopping.signal }).catch(() => undefined);
      } catch (err) {
        if (stopping.signal.aborted) return;
        progress.failures += 1;
        log.warn({ err }, 'rollup builder pass failed; retried after a pause');
        await sleep(recentIntervalMs, undefined, { signal: stopping.signal }).catch(() => undefined);
      }
    }
  }

  log.info(
    { recentIntervalMs, chunkDays: chunkMs / DAY_MS, horizonDays: horizonMs / DAY_MS },
    'rollup builder started',
  );
  const running = loop();
  return {
    name: 'rollup-builder',
    progress: () => ({ ...progress }),
    async stop() {
      stopping.abort();
      await running;
      logProgress(true);
    },
  };
}
