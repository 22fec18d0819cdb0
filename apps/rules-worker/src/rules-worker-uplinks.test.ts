import { forEachDb } from '@iot/db/testing';
import { wordServerText } from '@iot/domain';
import { afterEach, describe, expect, it } from 'vitest';
import {
  alarms,
  createDevice,
  createRule,
  deviceLogs,
  harness,
  insertId,
  iso,
  minute,
  notToday,
  stopHarnesses,
} from './test-support/harness.js';

afterEach(stopHarnesses);

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
      // The entry's kind and parameters (migration 0040) word it in the reader's language.
      expect(fired[0]).toMatchObject({
        kind: 'rule_fired',
        params: { rule: 'limited', field: 'temperature', actions: 1 },
      });
      expect(wordServerText(fired[0]!.kind, fired[0]!.params, 'de')?.text).toBe(
        'Regel „limited“ ausgelöst: Temperatur (°C) ≥ 8 (Wert 9); 1 Aktion(en) eingeplant',
      );
      const raised = logs.find((l) => l.kind === 'alarm_raise');
      expect(wordServerText(raised!.kind, raised!.params, 'en')?.text).toMatch(
        /^Rule "(limited|weekday only)": alarm raised \(Temperature \(°C\) ≥ 8 \(value 9\)\)$/,
      );
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
        `SELECT CASE message_hash WHEN device_message_hash('a') THEN 'a' WHEN device_message_hash('b') THEN 'b' END
                AS message_id, data
           FROM device_data WHERE device_id = $1 ORDER BY created_at`,
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
});
