/**
 * The rules worker end to end in-process: uplinks published to the in-process event log, evaluated by
 * the worker on PGlite and on PostgreSQL (forEachDb), jobs handed to the in-process job queue with the
 * database's idempotency keys, exactly as the embedded platform wires them.
 */
import { randomBytes } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { loadConfig } from '@iot/config';
import type { Queryable } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { createInProcessEventLog, type EventLog } from '@iot/event-log';
import { createDbJobKeyStore, InProcessJobQueue, NOTIFY_ACTION, NOTIFY_ACTION_POLICY } from '@iot/jobs';
import { createLogger, STAGE_CHANNEL, type StageEvent } from '@iot/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type RulesWorkerService, startRulesWorker } from './index.js';

const config = loadConfig({ PORT: '0' });
const log = createLogger({ level: 'silent', name: 'rules-worker-test' });

async function insertId(db: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ id: number }>(`${sql} RETURNING id`, params);
  return rows[0]!.id;
}

async function createDevice(db: Queryable, name = 'Cold store') {
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

interface RuleSpec {
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

async function createRule(db: Queryable, device: { companyId: number; deviceId: number }, spec: RuleSpec) {
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

interface Harness {
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
afterEach(async () => {
  for (const h of running.splice(0)) {
    await h.worker.stop();
    await h.queue.close();
    await h.eventLog.close();
  }
});

async function harness(
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

const minute = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function deviceLogs(db: Queryable, deviceId: number) {
  const { rows } = await db.query<{ level: number; message: string; payload: Record<string, unknown> }>(
    'SELECT level, message, payload FROM device_logs WHERE device_id = $1 ORDER BY id',
    [deviceId],
  );
  return rows;
}

async function alarms(db: Queryable, deviceId: number) {
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
function notToday(): number {
  const today = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', weekday: 'short' }).format(
    new Date(),
  );
  const iso = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(today) + 1;
  return (iso % 7) + 1;
}

forEachDb((suite) => {
  describe('uplinks through the log', () => {
    it('raises and clears alarms, logs firings and suppressions (schedule, max actions), enqueues once per action', async () => {
      const h = await harness(suite.db);
      const device = await createDevice(suite.db);
      // gte 8, at most 1 action per hour; and the same condition on a weekday that is not today.
      const limited = await createRule(suite.db, device, {
        name: 'limited',
        maxActions: 1,
        periodSeconds: 3600,
      });
      const scheduled = await createRule(suite.db, device, { name: 'weekday only', weekdays: [notToday()] });
      const t0 = Date.now() - 10 * minute;
      const ids = await h.publish(device, [
        { data: { temperature: 9 }, at: t0 }, // fires (limited), alarms raised for both
        { data: { temperature: 5 }, at: t0 + minute }, // condition ends: both alarms cleared
        { data: { temperature: 9.5 }, at: t0 + 2 * minute }, // new episode: limited held back by max actions
      ]);
      await h.settle();

      expect(h.processed).toEqual([`${limited.ruleId}:${ids[0]}:${limited.actionId}`]);
      const logs = await deviceLogs(suite.db, device.deviceId);
      const fired = logs.filter((l) => l.payload.kind === 'rule_fired');
      expect(fired).toHaveLength(1);
      expect(fired[0]).toMatchObject({ level: 5, payload: { ruleId: limited.ruleId, messageId: ids[0] } });
      expect(fired[0]!.message).toContain('Rule "limited" fired: temperature');
      const suppressed = logs
        .filter((l) => l.payload.kind === 'rule_suppressed')
        .map((l) => [l.level, l.payload.ruleId, l.payload.reason, l.payload.messageId]);
      expect(suppressed).toEqual([
        [6, scheduled.ruleId, 'schedule', ids[0]],
        [6, limited.ruleId, 'max_actions', ids[2]],
        [6, scheduled.ruleId, 'schedule', ids[2]],
      ]);
      expect(logs.find((l) => l.payload.reason === 'max_actions')?.message).toContain(
        'Rule "limited" did not notify (max_actions): max actions reached (1 per 3600 s)',
      );
      // Alarms are raised regardless of schedule and max actions; the first episode's alarms cleared.
      const rows = await alarms(suite.db, device.deviceId);
      expect(rows.map((a) => [a.rule_id, a.state, a.value])).toEqual([
        [limited.ruleId, 'cleared', 9],
        [scheduled.ruleId, 'cleared', 9],
        [limited.ruleId, 'raised', 9.5],
        [scheduled.ruleId, 'raised', 9.5],
      ]);
    });

    it("evaluates a device's uplinks of one batch in time order, not the order they were appended", async () => {
      const h = await harness(suite.db);
      const device = await createDevice(suite.db);
      const rule = await createRule(suite.db, device, {}); // gte 8
      const t0 = Date.now() - 10 * minute;
      const [first] = await h.publish(device, [{ data: { temperature: 9 }, at: t0 }]);
      await h.settle();
      // Appended later-first, as two ingest processes sharing a subscription can do: the 5 ends the
      // episode the 9 started, so the 9.5 after it (in time) starts a new one and fires again.
      const [warmer] = await h.publish(device, [
        { data: { temperature: 9.5 }, at: t0 + 2 * minute },
        { data: { temperature: 5 }, at: t0 + minute },
      ]);
      await h.settle();

      expect(h.processed).toEqual([
        `${rule.ruleId}:${first}:${rule.actionId}`,
        `${rule.ruleId}:${warmer}:${rule.actionId}`,
      ]);
      const logs = await deviceLogs(suite.db, device.deviceId);
      expect(logs.filter((l) => l.payload.kind === 'uplink_late')).toEqual([]);
      expect((await alarms(suite.db, device.deviceId)).map((a) => [a.state, a.value])).toEqual([
        ['cleared', 9],
        ['raised', 9.5],
      ]);
    });

    it('keeps notifying when the device clock steps back, and says so in the device log', async () => {
      const h = await harness(suite.db);
      const device = await createDevice(suite.db);
      const rule = await createRule(suite.db, device, {}); // gte 8
      const t0 = Date.now() - 30 * minute;
      const [first] = await h.publish(device, [{ data: { temperature: 9 }, at: t0 }]);
      await h.settle();
      // From here on the device's clock reads an hour behind; each uplink is received on time.
      await h.publish(device, [
        { data: { temperature: 5 }, at: t0 - 50 * minute, receivedAt: t0 + 10 * minute },
      ]);
      await h.settle();
      const [again] = await h.publish(device, [
        { data: { temperature: 9.5 }, at: t0 - 40 * minute, receivedAt: t0 + 20 * minute },
      ]);
      await h.settle();

      expect(h.processed).toEqual([
        `${rule.ruleId}:${first}:${rule.actionId}`,
        `${rule.ruleId}:${again}:${rule.actionId}`,
      ]);
      expect((await alarms(suite.db, device.deviceId)).map((a) => [a.state, a.value])).toEqual([
        ['cleared', 9],
        ['raised', 9.5],
      ]);
      const late = (await deviceLogs(suite.db, device.deviceId)).filter(
        (l) => l.payload.kind === 'uplink_late',
      );
      expect(
        late.map((l) => [l.level, l.payload.measuredAt, l.payload.lastAt, l.payload.evaluatedAt]),
      ).toEqual([
        [5, iso(t0 - 50 * minute), iso(t0), iso(t0 + 10 * minute)],
        [5, iso(t0 - 40 * minute), iso(t0 + 10 * minute), iso(t0 + 20 * minute)],
      ]);
      expect(late[0]!.message).toContain('older than the last one its rules evaluated');
    });

    it('clears the alarm in a later batch when the condition ends', async () => {
      const h = await harness(suite.db);
      const device = await createDevice(suite.db);
      const rule = await createRule(suite.db, device, {});
      const t0 = Date.now() - 10 * minute;
      await h.publish(device, [{ data: { temperature: 8 }, at: t0 }]); // gte 8: exactly 8 holds
      await h.settle();
      expect((await alarms(suite.db, device.deviceId)).map((a) => a.state)).toEqual(['raised']);
      await h.publish(device, [{ data: { temperature: 7.9 }, at: t0 + minute }]);
      await h.settle();
      const { rows } = await suite.db.query<{
        state: string;
        cleared_at: Date;
        details: { cleared: unknown };
      }>('SELECT state, cleared_at, details FROM alarms WHERE rule_id = $1', [rule.ruleId]);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.state).toBe('cleared');
      expect(rows[0]!.cleared_at.getTime()).toBe(t0 + minute);
      expect(rows[0]!.details.cleared).toEqual({ value: 7.9, reason: 'condition_ended' });
    });

    it('a batch redelivered after a crash between commit and enqueue fires nothing twice and loses no job', async () => {
      let crashes = 1;
      const h = await harness(suite.db, {
        afterCommit: () => {
          if (crashes-- > 0) throw new Error('simulated crash after the commit');
        },
      });
      const device = await createDevice(suite.db);
      const rule = await createRule(suite.db, device, {});
      const click = await createRule(suite.db, device, { name: 'button', trigger: 'click', clickType: 1 });
      const t0 = Date.now() - 10 * minute;
      const ids = await h.publish(device, [
        { data: { temperature: 12 }, at: t0 },
        { data: { click_type: 1 }, at: t0 + minute },
      ]);
      await h.settle();
      expect(crashes).toBe(-1); // the hook ran twice: the crash and the redelivery
      expect([...h.processed].sort()).toEqual(
        [`${rule.ruleId}:${ids[0]}:${rule.actionId}`, `${click.ruleId}:${ids[1]}:${click.actionId}`].sort(),
      );
      const logs = await deviceLogs(suite.db, device.deviceId);
      expect(logs.filter((l) => l.payload.kind === 'rule_fired')).toHaveLength(2);
      expect(await alarms(suite.db, device.deviceId)).toHaveLength(1);

      // The same uplinks published again (a front door retry): nothing fires, nothing is counted twice.
      await h.publish(device, [
        { data: { temperature: 12 }, at: t0, id: ids[0] },
        { data: { click_type: 1 }, at: t0 + minute, id: ids[1] },
      ]);
      await h.settle();
      const again = await deviceLogs(suite.db, device.deviceId);
      expect(again.filter((l) => l.payload.kind === 'rule_fired')).toHaveLength(2);
      expect(h.processed).toHaveLength(2);
      // ... and the worker did not forget: a new click still fires.
      const [next] = await h.publish(device, [{ data: { click_type: 1 }, at: t0 + 2 * minute }]);
      await h.settle();
      expect(h.processed).toContain(`${click.ruleId}:${next}:${click.actionId}`);
      expect(h.processed).toHaveLength(3);
    });

    it('stores virtual field values in the uplink data point, merging into a row the writer already wrote', async () => {
      const h = await harness(suite.db);
      const device = await createDevice(suite.db);
      const { rows } = await suite.db.query<{ uuid: string }>(
        `INSERT INTO virtual_data_fields (company_id, device_id, name, formula, function)
         VALUES ($1, $2, 'total', 'temperature', 'sum_up') RETURNING uuid::text`,
        [device.companyId, device.deviceId],
      );
      const key = `virtual.${rows[0]!.uuid}.total`;
      const t0 = Date.now() - 10 * minute;
      // The storage writer got to the second uplink first (its row has the uplink data only).
      await suite.db.query(
        `INSERT INTO device_data (device_id, company_id, created_at, data, message_id) VALUES ($1, $2, $3, $4, 'b')`,
        [
          device.deviceId,
          device.companyId,
          new Date(t0 + minute).toISOString(),
          { temperature: 3, humidity: 50 },
        ],
      );
      await h.publish(device, [
        { data: { temperature: 2 }, at: t0, id: 'a' },
        { data: { temperature: 3, humidity: 50 }, at: t0 + minute, id: 'b' },
      ]);
      await h.settle();
      const { rows: points } = await suite.db.query<{ message_id: string; data: Record<string, unknown> }>(
        'SELECT message_id, data FROM device_data WHERE device_id = $1 ORDER BY created_at',
        [device.deviceId],
      );
      expect(points).toEqual([
        { message_id: 'a', data: { temperature: 2, [key]: 2 } },
        { message_id: 'b', data: { temperature: 3, humidity: 50, [key]: 5 } },
      ]);
    });

    it('sensor checks on uplinks: implausible value and battery low raise and clear their alarms', async () => {
      const h = await harness(suite.db);
      const device = await createDevice(suite.db);
      const implausible = await insertId(
        suite.db,
        `INSERT INTO sensor_checks (company_id, device_id, kind, data_field, max_value) VALUES ($1, $2, 'implausible_value', 'temperature', 60)`,
        [device.companyId, device.deviceId],
      );
      const battery = await insertId(
        suite.db,
        `INSERT INTO sensor_checks (company_id, device_id, kind, min_value) VALUES ($1, $2, 'battery_low', 20)`,
        [device.companyId, device.deviceId],
      );
      const t0 = Date.now() - 10 * minute;
      await h.publish(device, [{ data: { temperature: 61, battery_level: 15 }, at: t0 }]);
      await h.settle();
      expect(
        (await alarms(suite.db, device.deviceId)).map((a) => [a.sensor_check_id, a.state, a.value]),
      ).toEqual(
        [
          [implausible, 'raised', 61],
          [battery, 'raised', 15],
        ].sort((a, b) => Number(a[0]) - Number(b[0])),
      );
      await h.publish(device, [{ data: { temperature: 20, battery_level: 20 }, at: t0 + minute }]);
      await h.settle();
      expect((await alarms(suite.db, device.deviceId)).map((a) => a.state)).toEqual(['cleared', 'cleared']);
      const logs = await deviceLogs(suite.db, device.deviceId);
      expect(logs.filter((l) => l.payload.kind === 'alarm_raise').map((l) => l.level)).toEqual([4, 4]);
    });

    it('never crosses companies: identical rules, an uplink of A touches nothing of B', async () => {
      const h = await harness(suite.db);
      const a = await createDevice(suite.db);
      const b = await createDevice(suite.db);
      const ruleA = await createRule(suite.db, a, {});
      const ruleB = await createRule(suite.db, b, {});
      const t0 = Date.now() - 10 * minute;
      await h.publish(a, [{ data: { temperature: 20 }, at: t0 }]);
      // An envelope naming B's device under A's company (a forged or stale record) finds nothing.
      await h.publish({ deviceId: b.deviceId, companyId: a.companyId }, [
        { data: { temperature: 20 }, at: t0 },
      ]);
      await h.settle();
      expect(h.processed).toEqual([expect.stringMatching(new RegExp(`^${ruleA.ruleId}:`))]);
      expect(await alarms(suite.db, b.deviceId)).toEqual([]);
      expect(await deviceLogs(suite.db, b.deviceId)).toEqual([]);
      const { rows } = await suite.db.query<{ id: number; state: Record<string, unknown> }>(
        'SELECT id, state FROM rules WHERE id = ANY($1::bigint[]) ORDER BY id',
        [[ruleA.ruleId, ruleB.ruleId]],
      );
      expect(rows[0]!.state).toMatchObject({ alarmOpen: true, lastValue: 20 });
      expect(rows[1]!.state).toEqual({});
      expect((await alarms(suite.db, a.deviceId)).map((x) => x.rule_id)).toEqual([ruleA.ruleId]);
    });
  });

  describe('timer', () => {
    it('raises a no-data alarm for a silent device once, and a no-data rule notifies once', async () => {
      let now = Date.now();
      const h = await harness(suite.db, { clock: () => now });
      const device = await createDevice(suite.db);
      await suite.db.query(
        `INSERT INTO device_current (device_id, company_id, updated_at, last_online_at) VALUES ($1, $2, $3, $3)
         ON CONFLICT (device_id) DO UPDATE SET last_online_at = EXCLUDED.last_online_at`,
        [device.deviceId, device.companyId, new Date(now - 10 * minute).toISOString()],
      );
      const checkId = await insertId(
        suite.db,
        `INSERT INTO sensor_checks (company_id, device_id, kind, max_silence_seconds) VALUES ($1, $2, 'no_data', 300)`,
        [device.companyId, device.deviceId],
      );
      const silent = await createRule(suite.db, device, {
        name: 'silent',
        trigger: 'no_data',
        timeWindowSeconds: 300,
      });
      await h.worker.tick();
      now += minute;
      await h.worker.tick(); // still silent: nothing new
      await h.settle();
      // The job runs after the tick's commit; on a loaded machine later than settle's 50 ms.
      await vi.waitFor(() => expect(h.processed).toHaveLength(1), { timeout: 10_000 });
      const rows = await alarms(suite.db, device.deviceId);
      expect(rows.map((a) => [a.sensor_check_id, a.rule_id, a.state])).toEqual([
        [checkId, null, 'raised'],
        [null, silent.ruleId, 'raised'],
      ]);
      const silenceStart = new Date(now - minute - 10 * minute).toISOString();
      expect(h.processed).toEqual([`${silent.ruleId}:no_data:${silenceStart}:${silent.actionId}`]);

      // The next uplink ends the silence: both alarms clear.
      await h.publish(device, [{ data: { temperature: 4 }, at: now }]);
      await h.settle();
      expect((await alarms(suite.db, device.deviceId)).map((a) => a.state)).toEqual(['cleared', 'cleared']);
    });
  });

  describe('unanswered LoRaWAN commands', () => {
    it('deletes log entries older than LOG_RETENTION_DAYS at its tick; 0 keeps them', async () => {
      const now = Date.now();
      const device = await createDevice(suite.db, 'Logged');
      const entry = async (daysAgo: number) => {
        const at = new Date(now - daysAgo * 24 * 60 * minute);
        await suite.db.query(
          'INSERT INTO device_logs (device_id, company_id, level, message, created_at) VALUES ($1, $2, 5, $3, $4)',
          [device.deviceId, device.companyId, `${daysAgo} days`, at],
        );
        await suite.db.query(
          `INSERT INTO notification_log (company_id, device_id, channel, recipient, status, created_at)
           VALUES ($1, $2, 'sms', $3, 'sent', $4)`,
          [device.companyId, device.deviceId, `${daysAgo} days`, at],
        );
      };
      for (const days of [45, 29]) await entry(days);
      const messages = async () =>
        (await deviceLogs(suite.db, device.deviceId)).map((l) => l.message).filter((m) => m.endsWith('days'));

      const keeping = await harness(suite.db, {
        clock: () => now,
        config: loadConfig({ PORT: '0', LOG_RETENTION_DAYS: '0' }),
      });
      expect((await keeping.worker.tick()).purgedLogs).toEqual({ device_logs: 0, notification_log: 0 });
      expect(await messages()).toEqual(['45 days', '29 days']);

      const trimming = await harness(suite.db, {
        clock: () => now,
        config: loadConfig({ PORT: '0', LOG_RETENTION_DAYS: '30' }),
      });
      expect((await trimming.worker.tick()).purgedLogs).toEqual({ device_logs: 1, notification_log: 1 });
      expect(await messages()).toEqual(['29 days']);
      const { rows } = await suite.db.query<{ recipient: string }>(
        'SELECT recipient FROM notification_log WHERE device_id = $1',
        [device.deviceId],
      );
      expect(rows).toEqual([{ recipient: '29 days' }]);
    });

    it('fails a command its network server never reported on after DOWNLINK_ACK_TIMEOUT_HOURS, and tells its company once', async () => {
      const now = Date.now();
      const h = await harness(suite.db, { clock: () => now });
      const hour = 60 * minute;
      const mine = await createDevice(suite.db, 'Valve north');
      const theirs = await createDevice(suite.db, 'Valve south');
      const downlink = (
        device: { companyId: number; deviceId: number },
        state: string,
        reference: string | null,
        sentHoursAgo: number,
      ) =>
        insertId(
          suite.db,
          `INSERT INTO downlinks (company_id, device_id, command, state, reference, created_at, sent_at)
           VALUES ($1, $2, 'switch_valve', $3, $4, $5, $5)`,
          [device.companyId, device.deviceId, state, reference, new Date(now - sentHoursAgo * hour)],
        );
      const ids = {
        unanswered: await downlink(mine, 'sent', 'q-unanswered', 25),
        young: await downlink(mine, 'sent', 'q-young', 23),
        mqtt: await downlink(mine, 'sent', null, 25), // MQTT: no report ever comes, `sent` is final
        acknowledged: await downlink(mine, 'acknowledged', 'q-acked', 25),
        theirs: await downlink(theirs, 'sent', 'q-theirs', 48),
      };

      expect(await h.worker.tick()).toMatchObject({ expiredDownlinks: 2 });
      expect(await h.worker.tick()).toMatchObject({ expiredDownlinks: 0 });

      const { rows } = await suite.db.query<{ id: number; state: string; error: string | null }>(
        'SELECT id::int AS id, state, error FROM downlinks WHERE id = ANY($1) ORDER BY id',
        [Object.values(ids)],
      );
      expect(rows).toEqual([
        { id: ids.unanswered, state: 'failed', error: 'no report from the network server within 24 h' },
        { id: ids.young, state: 'sent', error: null },
        { id: ids.mqtt, state: 'sent', error: null },
        { id: ids.acknowledged, state: 'acknowledged', error: null },
        { id: ids.theirs, state: 'failed', error: 'no report from the network server within 24 h' },
      ]);
      const messages = await suite.db.query<{
        company_id: number;
        subject: string;
        kind: string;
        params: unknown;
      }>(
        `SELECT company_id::int AS company_id, subject, kind, params FROM messages
          WHERE company_id = ANY($1) ORDER BY company_id`,
        [[mine.companyId, theirs.companyId]],
      );
      expect(messages.rows).toEqual([
        {
          company_id: mine.companyId,
          subject: 'Command not delivered: Valve north',
          kind: 'downlink_failed',
          params: expect.objectContaining({ downlink_id: ids.unanswered, device: 'Valve north' }),
        },
        {
          company_id: theirs.companyId,
          subject: 'Command not delivered: Valve south',
          kind: 'downlink_failed',
          params: expect.objectContaining({ downlink_id: ids.theirs, device: 'Valve south' }),
        },
      ]);
    });
  });

  describe('stage hook (tests/bench/rules.bench.ts)', () => {
    it('reports a batch at its stage boundaries, in order, only while the iot:stage channel has a subscriber', async () => {
      const seen: [string, string[]][] = [];
      const h = await harness(suite.db);
      const device = await createDevice(suite.db);
      await createRule(suite.db, device, {});
      const onStage = (message: unknown) => {
        const { stage, messageIds } = message as StageEvent;
        seen.push([stage, [...messageIds]]);
      };
      subscribe(STAGE_CHANNEL, onStage);
      try {
        const [id] = await h.publish(device, [{ data: { temperature: 9 }, at: Date.now() }]);
        await h.settle();
        const stages = seen.filter(([, ids]) => ids.includes(id as string)).map(([stage]) => stage);
        expect(stages).toEqual([
          'rw: batch delivered by the log',
          'rw: transaction started',
          'rw: devices, rules, fields and checks read',
          'rw: states written',
          'rw: alarms written',
          'rw: device log written, jobs preloaded and claimed',
          'rw: committed',
          'rw: jobs handed over',
        ]);
      } finally {
        unsubscribe(STAGE_CHANNEL, onStage);
      }
      const before = seen.length;
      await h.publish(device, [{ data: { temperature: 3 }, at: Date.now() + 1 }]);
      await h.settle();
      expect(seen.length).toBe(before);
    });
  });
});
