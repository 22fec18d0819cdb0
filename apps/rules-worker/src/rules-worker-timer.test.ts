import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { loadConfig } from '@iot/config';
import { forEachDb } from '@iot/db/testing';
import { STAGE_CHANNEL, type StageEvent } from '@iot/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  alarms,
  createDevice,
  createRule,
  deviceLogs,
  harness,
  insertId,
  minute,
  stopHarnesses,
} from './test-support/harness.js';

afterEach(stopHarnesses);

forEachDb((suite) => {
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

  describe('device data retention', () => {
    it("deletes a company's points past its retention at the tick and keeps their chart rollups", async () => {
      const now = Date.now();
      const device = await createDevice(suite.db, 'Retained');
      await suite.db.query('UPDATE companies SET data_retention_days = 40 WHERE id = $1', [device.companyId]);
      for (const daysAgo of [50, 45, 39]) {
        await suite.db.query(
          `INSERT INTO device_data (device_id, company_id, created_at, data) VALUES ($1, $2, $3, $4)`,
          [
            device.deviceId,
            device.companyId,
            new Date(now - daysAgo * 24 * 60 * minute),
            { temperature: daysAgo },
          ],
        );
      }
      const h = await harness(suite.db, { clock: () => now });

      expect((await h.worker.tick()).purgedDeviceData.points).toBe(2);

      const { rows } = await suite.db.query<{ points: number; hours: number }>(
        `SELECT (SELECT count(*)::int FROM device_data WHERE device_id = $1) AS points,
                (SELECT count(*)::int FROM device_rollups h JOIN device_series s ON s.id = h.series
                  WHERE s.device_id = $1 AND h.hours = 1 AND h.rows > 0) AS hours`,
        [device.deviceId],
      );
      // The deleted points' two hours rolled up (coarser buckets are merged from hours when read). Their
      // 6-hour blocks are stored as well where the purged range holds them whole, which depends on the
      // time of day the test runs: not counted.
      expect(rows[0]).toEqual({ points: 1, hours: 2 });
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
