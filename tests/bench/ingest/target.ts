/** What a phase measures against (the embedded or distributed platform) and how stored uplinks are tracked. */
import type { Db } from '@iot/db';
import type { EventLog } from '@iot/event-log';
import { type CpuReport, cpuPerUplinkText } from '../lib/cpu.js';
import { sleep } from '../lib/wait.js';
import type { BenchDevice } from './fleet.js';
import { pidsOf } from './memory.js';
import { PUBLISHER } from './settings.js';

/** CPU groups besides this process: the platform's processes, the brokers, PostgreSQL (all backends). */
export function cpuGroups(t: Target): Record<string, number[]> {
  return {
    ...(t.ingestPids.length ? { ingest: t.ingestPids } : {}),
    ...(t.mosquittoPid
      ? { mosquitto: [t.mosquittoPid] }
      : t.embedded
        ? {}
        : { mosquitto: pidsOf('mosquitto') }),
    ...(t.embedded ? {} : { nats: pidsOf('nats-server'), postgres: pidsOf('postgres') }),
  };
}
export function cpuText(t: Target, report: CpuReport, uplinks: number): string {
  return cpuPerUplinkText(report, uplinks, {
    self: t.embedded ? 'bench process (platform + publishers)' : `bench process (${PUBLISHER} publishers)`,
    ingest: 'ingest processes',
    mosquitto: 'Mosquitto',
    nats: 'NATS',
    postgres: 'PostgreSQL (all backends)',
  });
}

// -------------------------------------------------------------------------------------- stored tracking
/** Follows the writer's committed-row counter and turns it into publish -> stored latencies. */
export class StoredTracker {
  readonly publishedAt: number[] = [];
  readonly latencies: number[] = [];
  private matched = 0;
  private timer: NodeJS.Timeout | undefined;
  lastStoredAt = 0;
  constructor(
    private readonly stored: () => number,
    private readonly base: number,
  ) {}
  get count(): number {
    return this.stored() - this.base;
  }
  start(): void {
    this.timer = setInterval(() => {
      const now = performance.now();
      const n = Math.min(this.count, this.publishedAt.length);
      if (n > this.matched) this.lastStoredAt = now;
      for (; this.matched < n; this.matched++)
        this.latencies.push(now - (this.publishedAt[this.matched] ?? now));
    }, 5);
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export interface Target {
  name: string;
  /** The prefix of its figures in the results (default: embedded or distributed). */
  key?: string;
  db: Db;
  companyId: number;
  devices: BenchDevice[];
  /** Rows the storage writer(s) committed so far. */
  stored: () => number;
  /**
   * The storage writers' transactions so far: uplinks per transaction says how far the per-device
   * statements (latest values, device status) are shared by several uplinks of a device.
   */
  writes: () => number;
  /** Garbage collection in the ingest processes so far, ms (0 when ingest runs in the bench's process). */
  gcMs: () => number;
  /** The topic ingest publishes uplinks to. */
  topic: string;
  /** Ingest processes started by the bench (their RSS is the platform's); none when ingest runs in here. */
  ingestPids: number[];
  eventLog: EventLog;
  mqttUrl: string;
  embedded: boolean;
  servers: Array<string | number>;
  /** The broker the publishers send to, when it is a Mosquitto process here (for its CPU). */
  mosquittoPid?: number;
}

/**
 * Waits for the next full second: rows are stored with the second of receipt, so a phase that starts on a
 * fresh second counts only its own rows (the previous phase has drained by then).
 */
export async function nextSecond(): Promise<Date> {
  await sleep(1000 - (Date.now() % 1000) + 5);
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

export async function countSince(db: Db, companyId: number, since: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM device_data WHERE company_id = $1 AND created_at >= $2',
    [companyId, since],
  );
  return rows[0]?.n ?? 0;
}
