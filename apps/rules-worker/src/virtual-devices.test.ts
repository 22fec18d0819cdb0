import { randomBytes } from 'node:crypto';
import { type Db, insertVirtualDevice, type Queryable, type Transaction } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { createLogger } from '@iot/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluateUplinkBatch } from './evaluate-uplink-batch.js';
import { createRuleCache } from './rule-cache.js';
import {
  alarms,
  createDevice,
  createRule,
  harness,
  insertId,
  minute,
  stopHarnesses,
} from './test-support/harness.js';
import type { PositionedUplink } from './uplink-record.js';
import { computeVirtualFields } from './virtual-devices.js';

/** The db with every statement of its transactions recorded in `statements`. */
function recording(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const watch = (tx: Transaction): Transaction =>
    new Proxy(tx, {
      get(target, key) {
        if (key === 'query')
          return (sql: string, params?: unknown[]) => {
            statements.push(sql);
            return target.query(sql, params);
          };
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const transaction: Db['transaction'] = (fn, options) => db.transaction((tx) => fn(watch(tx)), options);
  return {
    db: new Proxy(db, { get: (t, k) => (k === 'transaction' ? transaction : Reflect.get(t, k)) }),
    statements,
  };
}

let offset = 0;
function uplinkOf(device: { deviceId: number; companyId: number }, temperature: number): PositionedUplink {
  const at = new Date(Date.now() - 60_000).toISOString();
  return {
    uplink: {
      deviceId: device.deviceId,
      companyId: device.companyId,
      receivedAt: at,
      measuredAt: at,
      messageId: `m-${randomBytes(4).toString('hex')}`,
      data: { temperature },
    },
    partition: 0,
    offset: String(++offset),
    timestamp: Date.parse(at),
  };
}

async function dataOf(db: Queryable, deviceId: number) {
  const { rows } = await db.query<{ data: Record<string, number> }>(
    'SELECT data FROM device_data WHERE device_id = $1 ORDER BY created_at',
    [deviceId],
  );
  return rows.map((r) => r.data);
}

afterEach(stopHarnesses);

describe('computeVirtualFields', () => {
  it('computes each formula from its inputs and leaves out a field whose input has no value', () => {
    const latest = new Map<number, Record<string, unknown>>([
      [1, { soil_humidity: 30 }],
      [2, { soil_humidity: '40' }],
    ]);
    expect(
      computeVirtualFields(
        {
          fields: [
            { key: 'mean', formula: '(d1.soil_humidity + d2.soil_humidity) / 2' },
            { key: 'missing', formula: 'd3.soil_humidity * 2' },
          ],
        },
        latest,
      ),
    ).toEqual({ mean: 35 });
  });
});

forEachDb((suite) => {
  describe('virtual devices', () => {
    it('computes a virtual device when an input reports, stores it like an uplink and fires its rule', async () => {
      const h = await harness(suite.db);
      const a = await createDevice(suite.db, 'Tank A');
      const b = {
        companyId: a.companyId,
        deviceId: await insertId(suite.db, `INSERT INTO devices (company_id, name) VALUES ($1, 'Tank B')`, [
          a.companyId,
        ]),
      };
      const sum = {
        companyId: a.companyId,
        deviceId: await insertVirtualDevice(suite.db, a.companyId, {
          name: 'Both tanks',
          description: null,
          groupId: null,
          fields: [
            { key: 'temperature', formula: `d${a.deviceId}.temperature + d${b.deviceId}.temperature` },
          ],
          inputDeviceIds: [a.deviceId, b.deviceId],
        }),
      };
      // B's latest value is known from before; A's uplinks make the sum.
      await suite.db.query(
        `INSERT INTO device_current (device_id, company_id, data, updated_at) VALUES ($1, $2, '{"temperature": 3}', now())`,
        [b.deviceId, a.companyId],
      );
      const rule = await createRule(suite.db, sum, { field: 'temperature', operator: 'gte', value: 8 });
      const t0 = Date.now() - 10 * minute;
      await h.publish(a, [
        { data: { temperature: 2 }, at: t0 },
        { data: { temperature: 6 }, at: t0 + minute },
      ]);
      await h.settle();

      const { rows } = await suite.db.query<{ data: Record<string, number> }>(
        'SELECT data FROM device_data WHERE device_id = $1 ORDER BY created_at',
        [sum.deviceId],
      );
      expect(rows.map((r) => r.data)).toEqual([{ temperature: 5 }, { temperature: 9 }]);
      const current = await suite.db.query<{ data: Record<string, number> }>(
        'SELECT data FROM device_current WHERE device_id = $1',
        [sum.deviceId],
      );
      expect(current.rows[0]?.data).toEqual({ temperature: 9 });
      expect((await alarms(suite.db, sum.deviceId)).map((x) => [x.rule_id, x.state, x.value])).toEqual([
        [rule.ruleId, 'raised', 9],
      ]);
    });

    it('reads the virtual devices with the batch: no statement of their own, with or without the rule cache', async () => {
      const a = await createDevice(suite.db, 'Tank A');
      const plain = {
        companyId: a.companyId,
        deviceId: await insertId(suite.db, `INSERT INTO devices (company_id, name) VALUES ($1, 'Plain')`, [
          a.companyId,
        ]),
      };
      const double = await insertVirtualDevice(suite.db, a.companyId, {
        name: 'Double',
        description: null,
        groupId: null,
        fields: [{ key: 'temperature', formula: `d${a.deviceId}.temperature * 2` }],
        inputDeviceIds: [a.deviceId],
      });
      const rule = await createRule(suite.db, { companyId: a.companyId, deviceId: double }, { value: 10 });
      const log = createLogger({ level: 'silent', name: 'virtual-test' });
      const cache = createRuleCache({ lockRows: suite.db.kind !== 'pglite' });

      // With the rule cache: one statement reads devices, rules, fields, checks and virtual devices.
      const withCache = recording(suite.db);
      await evaluateUplinkBatch({
        db: withCache.db,
        uplinks: [uplinkOf(plain, 1)],
        now: Date.now(),
        log,
        ruleCache: cache,
      });
      expect(withCache.statements.filter((sql) => sql.includes('virtual_device_inputs'))).toHaveLength(1);
      expect(withCache.statements[0]).toContain('virtual_device_inputs');

      const fired = recording(suite.db);
      const result = await evaluateUplinkBatch({
        db: fired.db,
        uplinks: [uplinkOf(a, 6)],
        now: Date.now(),
        log,
        ruleCache: cache,
      });
      if (result.pendingRules) cache.commit(result.pendingRules);
      expect(fired.statements.filter((sql) => sql.includes('virtual_device_inputs'))).toHaveLength(1);
      expect(fired.statements.filter((sql) => sql.includes('FROM device_current c'))).toHaveLength(1);
      expect(await dataOf(suite.db, double)).toEqual([{ temperature: 12 }]);
      expect((await alarms(suite.db, double)).map((x) => [x.rule_id, x.state])).toEqual([
        [rule.ruleId, 'raised'],
      ]);

      // Without it (four statements), the virtual devices are one statement before them, and compute the same.
      const without = recording(suite.db);
      await evaluateUplinkBatch({ db: without.db, uplinks: [uplinkOf(a, 3)], now: Date.now() + 1, log });
      expect(without.statements.filter((sql) => sql.includes('virtual_device_inputs'))).toHaveLength(1);
      expect(await dataOf(suite.db, double)).toEqual([{ temperature: 12 }, { temperature: 6 }]);
    });

    it('makes a stored virtual data field a latest value of its device, the newer time winning', async () => {
      const h = await harness(suite.db);
      const device = await createDevice(suite.db, 'Cold room');
      const { rows } = await suite.db.query<{ uuid: string }>(
        `INSERT INTO virtual_data_fields (company_id, device_id, name, unit, formula, store)
         VALUES ($1, $2, 'Fahrenheit', '°F', 'temperature * 1.8 + 32', true) RETURNING uuid::text AS uuid`,
        [device.companyId, device.deviceId],
      );
      const key = `virtual.${rows[0]!.uuid}.Fahrenheit`;
      // The storage writer's row (it runs beside the rules worker, not in this harness).
      await suite.db.query(
        `INSERT INTO device_current (device_id, company_id, data, updated_at) VALUES ($1, $2, '{"temperature": 20}', now())`,
        [device.deviceId, device.companyId],
      );
      const t0 = Date.now() - 10 * minute;
      await h.publish(device, [{ data: { temperature: 10 }, at: t0 }]);
      await h.settle();
      await h.publish(device, [
        { data: { temperature: 20 }, at: t0 + 2 * minute },
        { data: { temperature: 0 }, at: t0 + minute },
      ]);
      await h.settle();
      const current = await suite.db.query<{
        data: Record<string, unknown>;
        field_times: Record<string, string>;
      }>('SELECT data, field_times FROM device_current WHERE device_id = $1', [device.deviceId]);
      expect(current.rows[0]?.data).toMatchObject({ temperature: 20, [key]: 68 });
      expect(Date.parse(current.rows[0]!.field_times[key]!)).toBe(t0 + 2 * minute);
    });
  });
});
