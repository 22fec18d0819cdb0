import {
  applyParkingReadings,
  recountParkingAreas,
  refreshParkingOnTimer,
  saveParkingAlarmActions,
} from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, insertId, minute, stopHarnesses } from './test-support/harness.js';

afterEach(stopHarnesses);

const hour = 60 * minute;

/** An action of a car park's alarm rule, its text the alarm's (a mail goes to ops@example.test). */
const alarmAction = (type: 'email' | 'system' = 'system') => ({
  type,
  recipients: type === 'email' ? ['ops@example.test'] : [],
  cc: [],
  subject: 'Parking',
  body: '{value}',
  voiceLanguage: null,
  url: null,
  httpMethod: null,
  targetDeviceId: null,
  command: null,
  commandParams: {},
  settings: {},
});

forEachDb((suite) => {
  /** A company with a car park of `type` fed by `sensors` new devices (bays, ... for FIX). */
  async function carPark(options: {
    type: 'FIX' | 'AI';
    sensors: number;
    capacity?: number;
    maxMinutes?: number;
    graceMinutes?: number;
  }) {
    const db = suite.db;
    const companyId = await insertId(
      db,
      `INSERT INTO companies (name, modules) VALUES ('Parking', '{parking}')`,
      [],
    );
    const areaId = await insertId(
      db,
      `INSERT INTO parking_areas (company_id, name, type, capacity, max_parking_minutes, grace_minutes)
       VALUES ($1, 'Marktplatz', $2, $3, $4, $5)`,
      [
        companyId,
        options.type,
        options.capacity ?? options.sensors,
        options.maxMinutes ?? null,
        options.graceMinutes ?? 0,
      ],
    );
    const devices: { companyId: number; deviceId: number }[] = [];
    for (let i = 1; i <= options.sensors; i++) {
      const deviceId = await insertId(
        db,
        `INSERT INTO devices (company_id, name, sensor_type, parking_area_id) VALUES ($1, $2, $3, $4)`,
        [companyId, `Sensor ${i}`, options.type === 'FIX' ? 8 : 1024, areaId],
      );
      await db.query(
        'INSERT INTO parking_bays (device_id, company_id, area_id, label) VALUES ($1, $2, $3, $4)',
        [deviceId, companyId, areaId, options.type === 'FIX' ? `A-${i}` : null],
      );
      devices.push({ companyId, deviceId });
    }
    return { companyId, areaId, devices };
  }

  async function area(areaId: number) {
    const { rows } = await suite.db.query<{
      free_slots: number | null;
      occupied_slots: number;
      unknown_slots: number;
      reported_count: number | null;
      count_warning: string | null;
    }>(
      `SELECT free_slots, occupied_slots, unknown_slots, reported_count, count_warning
         FROM parking_areas WHERE id = $1`,
      [areaId],
    );
    return rows[0];
  }

  async function overstayAlarms(deviceId: number) {
    const { rows } = await suite.db.query<{ state: string; details: Record<string, unknown> }>(
      'SELECT state, details FROM alarms WHERE device_id = $1 ORDER BY id',
      [deviceId],
    );
    return rows;
  }

  describe('parking from uplinks', () => {
    it('keeps the free slots of a FIX area current; a bay silent for 8 hours turns unknown, never free', async () => {
      const h = await harness(suite.db);
      const park = await carPark({ type: 'FIX', sensors: 3 });
      const [a, b, c] = park.devices;
      const now = Date.now();
      expect(await area(park.areaId)).toMatchObject({ free_slots: null, unknown_slots: 0 });

      await h.publish(a!, [{ data: { occupied: false }, at: now - 2 * minute }]);
      await h.publish(b!, [{ data: { occupied: 0, battery_level: 90 }, at: now - 2 * minute }]);
      await h.publish(c!, [{ data: { occupied: false }, at: now - 9 * hour }]); // already stale
      await h.settle();
      expect(await area(park.areaId)).toMatchObject({ free_slots: 2, occupied_slots: 0, unknown_slots: 1 });

      await h.publish(a!, [{ data: { occupied: true }, at: now - minute }]);
      // A late, older reading does not move the bay back.
      await h.publish(b!, [
        { data: { occupied: true }, at: now - minute },
        { data: { occupied: false }, at: now - 3 * minute },
      ]);
      await h.settle();
      expect(await area(park.areaId)).toMatchObject({ free_slots: 0, occupied_slots: 2, unknown_slots: 1 });
      // Uplinks without a parking field change nothing.
      await h.publish(a!, [{ data: { temperature: 4 }, at: now }]);
      await h.settle();
      expect(await area(park.areaId)).toMatchObject({ free_slots: 0, occupied_slots: 2 });

      // Eight hours on, the timer finds every reading stale.
      const stays = await suite.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM parking_stays WHERE area_id = $1 AND ended_at IS NULL',
        [park.areaId],
      );
      expect(stays.rows[0]!.n).toBe(2);
      await suite.db.transaction((tx) => refreshParkingOnTimer(tx, now + 8 * hour + minute));
      expect(await area(park.areaId)).toMatchObject({
        free_slots: null,
        occupied_slots: 0,
        unknown_slots: 3,
      });
    });

    it('AI: capacity minus the count, clamped to [0, capacity] with a plausibility warning', async () => {
      const h = await harness(suite.db);
      const park = await carPark({ type: 'AI', sensors: 2, capacity: 50 });
      const [north, south] = park.devices;
      const now = Date.now();
      await h.publish(north!, [{ data: { vehicle_count: 20 }, at: now - 2 * minute }]);
      await h.publish(south!, [{ data: { free_spaces: 45 }, at: now - 2 * minute }]); // 5 vehicles
      await h.settle();
      expect(await area(park.areaId)).toMatchObject({
        free_slots: 25,
        occupied_slots: 25,
        reported_count: 25,
        count_warning: null,
      });
      await h.publish(north!, [{ data: { vehicle_count: 60 }, at: now - minute }]);
      await h.settle();
      expect(await area(park.areaId)).toMatchObject({
        free_slots: 0,
        occupied_slots: 50,
        reported_count: 65,
        count_warning: 'above_capacity',
      });
      await h.publish(north!, [{ data: { vehicle_count: -30 }, at: now }]);
      await h.settle();
      expect(await area(park.areaId)).toMatchObject({
        free_slots: 50,
        occupied_slots: 0,
        reported_count: -25,
        count_warning: 'negative',
      });
    });

    it('raises an overstay alarm once per stay and clears it when the bay frees', async () => {
      const h = await harness(suite.db);
      const park = await carPark({ type: 'FIX', sensors: 2, maxMinutes: 30, graceMinutes: 10 });
      const [bay, other] = park.devices;
      const now = Date.now();
      await h.publish(bay!, [{ data: { occupied: true }, at: now - 45 * minute }]);
      await h.publish(other!, [{ data: { occupied: true }, at: now - 35 * minute }]); // within grace
      await h.settle();
      await h.worker.tick();
      await h.publish(bay!, [{ data: { occupied: true }, at: now - minute }]); // same stay, still occupied
      await h.settle();
      await h.worker.tick();

      const raised = await overstayAlarms(bay!.deviceId);
      expect(raised).toHaveLength(1);
      expect(raised[0]).toMatchObject({
        state: 'raised',
        details: { kind: 'parking_overstay', label: 'A-1', max_parking_minutes: 30, grace_minutes: 10 },
      });
      expect(await overstayAlarms(other!.deviceId)).toEqual([]);

      await h.publish(bay!, [{ data: { occupied: false }, at: now }]);
      await h.settle();
      expect((await overstayAlarms(bay!.deviceId)).map((a) => a.state)).toEqual(['cleared']);
      const { rows } = await suite.db.query<{ minutes: number }>(
        `SELECT round(extract(epoch FROM ended_at - started_at) / 60)::int AS minutes FROM parking_stays
          WHERE device_id = $1`,
        [bay!.deviceId],
      );
      expect(rows).toEqual([{ minutes: 45 }]);
      // A new stay may overstay again: a new alarm.
      await h.publish(bay!, [{ data: { occupied: true }, at: now + minute }]);
      await h.settle();
      await suite.db.transaction((tx) => refreshParkingOnTimer(tx, now + hour));
      expect((await overstayAlarms(bay!.deviceId)).map((a) => a.state)).toEqual(['cleared', 'raised']);
    });
    it('alarms once when an area falls below its free slots, with a cooldown for flickering counts', async () => {
      const park = await carPark({ type: 'AI', sensors: 1, capacity: 10 });
      await suite.db.query(
        'UPDATE parking_areas SET alert_free_below = 2, alert_cooldown_minutes = 15 WHERE id = $1',
        [park.areaId],
      );
      const camera = park.devices[0]!;
      const t0 = Date.now();
      const count = (vehicles: number, at: number) =>
        suite.db.transaction((tx) =>
          applyParkingReadings(
            tx,
            [{ ...camera, at: new Date(at).toISOString(), reading: { vehicles } }],
            at,
          ),
        );
      const states = async () =>
        (
          await suite.db.query<{ state: string }>(
            `SELECT state FROM alarms WHERE device_id = $1 AND details ->> 'kind' = 'parking_free_slots' ORDER BY id`,
            [camera.deviceId],
          )
        ).rows.map((r) => r.state);
      await count(9, t0); // 1 free: below 2
      await count(10, t0 + 1000); // full: still the same alarm
      expect(await states()).toEqual(['raised']);
      await count(7, t0 + 2000); // 3 free: cleared
      await count(9, t0 + 3000); // flickers back within the cooldown: no new alarm
      await count(7, t0 + 4000);
      await count(9, t0 + 5000);
      expect(await states()).toEqual(['cleared']);
      await count(7, t0 + 16 * minute);
      await count(9, t0 + 17 * minute); // after the cooldown: a new alarm
      expect(await states()).toEqual(['cleared', 'raised']);
    });

    it('hands every parking alarm to the actions of the area’s alarm rule, once each', async () => {
      const h = await harness(suite.db);
      const park = await carPark({ type: 'FIX', sensors: 2, maxMinutes: 30 });
      await suite.db.query('UPDATE parking_areas SET alert_free_below = 1 WHERE id = $1', [park.areaId]);
      await suite.db.transaction((tx) =>
        saveParkingAlarmActions(tx, park.companyId, park.areaId, 'Marktplatz', [
          alarmAction('email'),
          alarmAction('system'),
        ]),
      );
      const { rows: ids } = await suite.db.query<{ rule_id: number; action_id: number }>(
        `SELECT r.id::int AS rule_id, a.id::int AS action_id FROM rules r JOIN rule_actions a ON a.rule_id = r.id
          WHERE r.parking_area_id = $1 ORDER BY a.position`,
        [park.areaId],
      );
      expect(ids).toHaveLength(2);
      const [bay, other] = park.devices;
      const now = Date.now();
      await h.publish(bay!, [{ data: { occupied: true }, at: now - 45 * minute }]);
      await h.publish(other!, [{ data: { occupied: true }, at: now - 2 * minute }]); // full
      await h.settle();
      await h.worker.tick(); // bay overstays
      await h.worker.tick(); // nothing new
      await h.publish(other!, [{ data: { occupied: true }, at: now - minute }]); // still full: nothing new
      await h.settle();
      await h.worker.tick();

      const { rows: raised } = await suite.db.query<{ id: number; kind: string; device_id: number }>(
        `SELECT id::int AS id, details ->> 'kind' AS kind, device_id::int AS device_id FROM alarms
          WHERE company_id = $1 ORDER BY id`,
        [park.companyId],
      );
      expect(raised.map((a) => a.kind).sort()).toEqual(['parking_free_slots', 'parking_overstay']);
      const expected = raised.flatMap((alarm) =>
        ids.map((i) => `${i.rule_id}:parking:${alarm.id}:${i.action_id}`),
      );
      // Jobs run asynchronously after the hand-over.
      await expect.poll(() => [...h.processed].sort()).toEqual(expected.sort());
      await new Promise((r) => setTimeout(r, 100));
      expect(h.processed).toHaveLength(expected.length);
      // The jobs are in the alarm's device log entry, for the start-up sweep after a crash.
      const overstay = raised.find((a) => a.kind === 'parking_overstay')!;
      const { rows: logs } = await suite.db.query<{ payload: { kind: string; jobs?: unknown[] } }>(
        `SELECT payload FROM device_logs
          WHERE device_id = $1 AND payload ->> 'kind' = 'rule_fired' AND payload ->> 'alarmId' = $2`,
        [overstay.device_id, String(overstay.id)],
      );
      expect(logs.map((l) => l.payload.jobs?.length)).toEqual([2]);
    });

    it('notifies the alarm of a car park saved through the API at the next timer tick', async () => {
      const h = await harness(suite.db);
      const park = await carPark({ type: 'FIX', sensors: 2 });
      await suite.db.transaction((tx) =>
        saveParkingAlarmActions(tx, park.companyId, park.areaId, 'Marktplatz', [alarmAction()]),
      );
      const [bay, other] = park.devices;
      await h.publish(bay!, [{ data: { occupied: true }, at: Date.now() - minute }]);
      await h.publish(other!, [{ data: { occupied: false }, at: Date.now() - minute }]); // 1 of 2 free
      await h.settle();
      // The API saves the car park with a threshold it is now below; it cannot hand jobs over, so the
      // recount only marks the area (no `raised`), and no alarm exists yet.
      await suite.db.transaction(async (tx) => {
        await tx.query('UPDATE parking_areas SET alert_free_below = 2 WHERE id = $1', [park.areaId]);
        await recountParkingAreas(tx, [park.areaId], Date.now());
      });
      const alarms = async () =>
        (
          await suite.db.query<{ id: number; message: string }>(
            `SELECT id::int AS id, message FROM alarms WHERE company_id = $1 ORDER BY id`,
            [park.companyId],
          )
        ).rows;
      expect(await alarms()).toEqual([]);
      await h.worker.tick();
      const [alarm] = await alarms();
      expect(alarm?.message).toBe('Few free slots: Marktplatz (1) / Wenige freie Plätze: Marktplatz (1)');
      const { rows: ids } = await suite.db.query<{ rule_id: number; action_id: number }>(
        `SELECT r.id::int AS rule_id, a.id::int AS action_id FROM rules r JOIN rule_actions a ON a.rule_id = r.id
          WHERE r.parking_area_id = $1`,
        [park.areaId],
      );
      await expect
        .poll(() => h.processed)
        .toEqual([`${ids[0]!.rule_id}:parking:${alarm!.id}:${ids[0]!.action_id}`]);
      // Judged once: the mark is gone and a second tick raises and sends nothing more.
      await h.worker.tick();
      expect(await alarms()).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 100));
      expect(h.processed).toHaveLength(1);
    });

    it('raises an implausible-count alarm once per cooldown and notifies it', async () => {
      const h = await harness(suite.db);
      const park = await carPark({ type: 'AI', sensors: 1, capacity: 10 });
      await suite.db.transaction((tx) =>
        saveParkingAlarmActions(tx, park.companyId, park.areaId, 'Marktplatz', [alarmAction()]),
      );
      const camera = park.devices[0]!;
      const now = Date.now();
      const states = async () =>
        (
          await suite.db.query<{ state: string; message: string }>(
            `SELECT state, message FROM alarms WHERE device_id = $1 AND details ->> 'kind' = 'parking_count_warning'
              ORDER BY id`,
            [camera.deviceId],
          )
        ).rows;
      await h.publish(camera, [{ data: { vehicle_count: 12 }, at: now - 5 * minute }]);
      await h.settle();
      expect(await states()).toEqual([
        {
          state: 'raised',
          message: expect.stringContaining('Implausible count: Marktplatz reports 12 vehicles, capacity 10'),
        },
      ]);
      await h.publish(camera, [{ data: { vehicle_count: 8 }, at: now - 4 * minute }]); // plausible again
      await h.settle();
      await h.publish(camera, [{ data: { vehicle_count: -1 }, at: now - 3 * minute }]); // within the cooldown
      await h.settle();
      expect((await states()).map((a) => a.state)).toEqual(['cleared']);
      await expect.poll(() => h.processed.length).toBe(1);
      expect(h.processed[0]).toMatch(/^\d+:parking:\d+:\d+$/);
    });
  });
});
