/** The rules worker in-process with its own event log and job queue, and the rows its tests need. */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '@iot/config';
import type { Queryable } from '@iot/db';
import { createInProcessEventLog, type EventLog } from '@iot/event-log';
import { createDbJobKeyStore, InProcessJobQueue, NOTIFY_ACTION, NOTIFY_ACTION_POLICY } from '@iot/jobs';
import { createLogger } from '@iot/runtime';
import { type RulesWorkerService, startRulesWorker } from '../index.js';

export const config = loadConfig({ PORT: '0' });
export const log = createLogger({ level: 'silent', name: 'rules-worker-test' });

export async function insertId(db: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ id: number }>(`${sql} RETURNING id`, params);
  return rows[0]!.id;
}

export async function createDevice(db: Queryable, name = 'Cold store') {
  const companyId = await insertId(db, 'INSERT INTO companies (name) VALUES ($1)', [
    `Company ${randomBytes(3).toString('hex')}`,
  ]);
  const deviceId = await insertId(
    db,
    `INSERT INTO devices (company_id, name, device_details) VALUES ($1, $2, '{"data_fields":["temperature","humidity"]}')`,
    [companyId, name],
  );
  return { companyId, deviceId };
}

export interface RuleSpec {
  name?: string;
  trigger?: 'data' | 'click' | 'no_data';
  field?: string | null;
  operator?: string | null;
  value?: number | null;
  weekdays?: number[];
  maxActions?: number | null;
  periodSeconds?: number | null;
  clickType?: number | null;
  timeWindowSeconds?: number;
}

export async function createRule(
  db: Queryable,
  device: { companyId: number; deviceId: number },
  spec: RuleSpec,
) {
  const ruleId = await insertId(
    db,
    `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value, schedule_weekdays,
                        max_actions, max_actions_period_seconds, click_type, time_window_seconds)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      device.companyId,
      device.deviceId,
      spec.name ?? 'too warm',
      spec.trigger ?? 'data',
      spec.trigger && spec.trigger !== 'data' ? null : (spec.field ?? 'temperature'),
      spec.trigger && spec.trigger !== 'data' ? null : (spec.operator ?? 'gte'),
      spec.value ?? 8,
      spec.weekdays ?? [1, 2, 3, 4, 5, 6, 7],
      spec.maxActions ?? null,
      spec.periodSeconds ?? null,
      spec.clickType ?? null,
      spec.timeWindowSeconds ?? 0,
    ],
  );
  const actionId = await insertId(
    db,
    `INSERT INTO rule_actions (company_id, rule_id, type, subject, body) VALUES ($1, $2, 'system', '{device}', '{value}')`,
    [device.companyId, ruleId],
  );
  return { ruleId, actionId };
}

export interface Harness {
  eventLog: EventLog;
  queue: InProcessJobQueue;
  worker: RulesWorkerService;
  /** Idempotency keys of notify jobs the queue ran, in order. */
  processed: string[];
  publish(
    device: { companyId: number; deviceId: number },
    /** `at`: measured and received then; `receivedAt` when received at another time. */
    uplinks: { data: Record<string, unknown>; at: number; receivedAt?: number; id?: string }[],
  ): Promise<string[]>;
  settle(): Promise<void>;
}

const running: Harness[] = [];

/** Stops the harnesses the test started (each test file's afterEach). */
export async function stopHarnesses(): Promise<void> {
  for (const h of running.splice(0)) {
    await h.worker.stop();
    await h.queue.close();
    await h.eventLog.close();
  }
}

export async function harness(
  db: Queryable & Parameters<typeof startRulesWorker>[0]['db'],
  options: Partial<Parameters<typeof startRulesWorker>[0]> = {},
): Promise<Harness> {
  const eventLog = createInProcessEventLog({ partitions: 4 });
  const queue = new InProcessJobQueue({ keys: createDbJobKeyStore(db) });
  const processed: string[] = [];
  queue.process(
    NOTIFY_ACTION,
    async (_payload, ctx) => {
      processed.push(ctx.idempotencyKey);
    },
    NOTIFY_ACTION_POLICY,
  );
  const worker = await startRulesWorker({
    config,
    db,
    log,
    eventLog,
    queue,
    timerIntervalMs: 0,
    recoverWindowMs: 0,
    maxWaitMs: 5,
    ...options,
  });
  const h: Harness = {
    eventLog,
    queue,
    worker,
    processed,
    publish: async (device, uplinks) => {
      const ids = uplinks.map((u) => u.id ?? `m-${randomBytes(4).toString('hex')}`);
      await eventLog.publish(
        'uplinks',
        uplinks.map((u, i) => ({
          key: String(device.deviceId),
          value: {
            v: 1,
            kind: 'uplink',
            deviceId: device.deviceId,
            companyId: device.companyId,
            source: 'http',
            receivedAt: new Date(u.receivedAt ?? u.at).toISOString(),
            measuredAt: new Date(u.at).toISOString(),
            messageId: ids[i],
            data: u.data,
          },
        })),
      );
      return ids;
    },
    settle: async () => {
      const deadline = Date.now() + 10_000;
      while ((await eventLog.lag('uplinks', options.group ?? 'rules-worker')) > 0) {
        if (Date.now() > deadline) throw new Error('the rules worker did not drain the log');
        await new Promise((r) => setTimeout(r, 10));
      }
      // Jobs run asynchronously after enqueue.
      await new Promise((r) => setTimeout(r, 50));
    },
  };
  running.push(h);
  return h;
}

export const minute = 60_000;
export const iso = (ms: number) => new Date(ms).toISOString();

export async function deviceLogs(db: Queryable, deviceId: number) {
  const { rows } = await db.query<{
    level: number;
    message: string;
    kind: string | null;
    params: Record<string, unknown> | null;
    payload: Record<string, unknown>;
  }>('SELECT level, message, kind, params, payload FROM device_logs WHERE device_id = $1 ORDER BY id', [
    deviceId,
  ]);
  return rows;
}

export async function alarms(db: Queryable, deviceId: number) {
  const { rows } = await db.query<{
    state: string;
    rule_id: number | null;
    sensor_check_id: number | null;
    value: number;
  }>(
    'SELECT state, rule_id, sensor_check_id, value FROM alarms WHERE device_id = $1 ORDER BY raised_at, sensor_check_id NULLS LAST, rule_id',
    [deviceId],
  );
  return rows;
}

/** An ISO weekday (1..7) that is not today in Europe/Berlin, so a rule limited to it is outside its schedule. */
export function notToday(): number {
  const today = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', weekday: 'short' }).format(
    new Date(),
  );
  const iso = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(today) + 1;
  return (iso % 7) + 1;
}
