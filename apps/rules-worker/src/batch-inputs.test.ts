/**
 * lockRulesWorkerBatch (the batch's devices, rule versions, virtual fields and sensor checks in one
 * statement, which evaluateUplinkBatch uses with the rule cache) returns what the separate statements
 * return, keeps companies apart, and locks the rows it read.
 */
import { randomBytes } from 'node:crypto';
import {
  type DeviceRef,
  loadRulesWorkerDevices,
  lockDeviceSensorChecks,
  lockDeviceVirtualFields,
  lockRulesWorkerBatch,
  type Queryable,
} from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';

async function insertId(db: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ id: number }>(`${sql} RETURNING id`, params);
  return rows[0]!.id;
}

async function company(db: Queryable, timezone: string) {
  const companyId = await insertId(db, 'INSERT INTO companies (name, timezone) VALUES ($1, $2)', [
    `Inputs ${randomBytes(3).toString('hex')}`,
    timezone,
  ]);
  const deviceId = await insertId(
    db,
    `INSERT INTO devices (company_id, name, device_details)
     VALUES ($1, 'Cold room', '{"data_fields": ["temperature", "humidity"]}')`,
    [companyId],
  );
  await db.query(
    `INSERT INTO device_current (device_id, company_id, updated_at, last_online_at)
     VALUES ($1, $2, '2026-07-01T10:00:00.123456Z', '2026-07-01T10:00:00.123456Z')`,
    [deviceId, companyId],
  );
  const ruleId = await insertId(
    db,
    `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value, state)
     VALUES ($1, $2, 'warm', 'data', 'temperature', 'gte', 8.5, '{"lastValue": 3}')`,
    [companyId, deviceId],
  );
  await insertId(
    db,
    `INSERT INTO rule_actions (company_id, rule_id, type, subject) VALUES ($1, $2, 'system', 'warm')`,
    [companyId, ruleId],
  );
  await insertId(
    db,
    `INSERT INTO virtual_data_fields (company_id, device_id, name, unit, formula, mapping, state)
     VALUES ($1, $2, 'dew', '°C', 'temperature - 2', '{"1": "on"}', '{"n": 1.5}')`,
    [companyId, deviceId],
  );
  await insertId(
    db,
    `INSERT INTO sensor_checks (company_id, device_id, kind, data_field, min_value, max_value)
     VALUES ($1, $2, 'implausible_value', 'temperature', -40.5, 85)`,
    [companyId, deviceId],
  );
  return { companyId, deviceId };
}

forEachDb((suite) => {
  describe('rules worker batch inputs', () => {
    it('reads in one statement what the separate statements read, and nothing of another company', async () => {
      const { db } = suite;
      const a = await company(db, 'Europe/Berlin');
      const b = await company(db, 'UTC');
      const refs: DeviceRef[] = [a, { deviceId: b.deviceId, companyId: a.companyId }];
      const lockRows = db.kind !== 'pglite';
      await db.transaction(async (tx) => {
        const one = await lockRulesWorkerBatch(tx, refs, { lockRuleRows: lockRows });
        expect(one.devices).toEqual(await loadRulesWorkerDevices(tx, refs));
        // A rule's version is its row's xmin (a change of its actions touches the row, migration 0012).
        const { rows: versions } = await tx.query(
          `SELECT id, device_id, xmin::text AS rule_v FROM rules
            WHERE company_id = $1 AND device_id = $2 AND is_active ORDER BY id`,
          [a.companyId, a.deviceId],
        );
        expect(one.ruleVersions).toEqual(versions);
        expect(one.fields).toEqual(await lockDeviceVirtualFields(tx, refs));
        expect(one.checks).toEqual(await lockDeviceSensorChecks(tx, refs));
        // Only company A's device: B's device named with A's company finds nothing.
        expect(one.devices.map((d) => d.id)).toEqual([a.deviceId]);
        expect(one.devices[0]!.lastOnlineAt).toBeInstanceOf(Date);
        expect(one.devices[0]!.dataFields).toEqual(['temperature', 'humidity']);
        expect(one.ruleVersions).toHaveLength(1);
        expect(one.fields.map((f) => f.deviceId)).toEqual([a.deviceId]);
        expect(one.checks.map((c) => c.deviceId)).toEqual([a.deviceId]);
      });
      expect(await lockRulesWorkerBatch(db, [], { lockRuleRows: lockRows })).toEqual({
        devices: [],
        ruleVersions: [],
        fields: [],
        checks: [],
        virtual: { devices: [], latest: new Map() },
      });
    });

    if (suite.kind !== 'pglite')
      it('locks the rule, field and check rows it read until the transaction ends', async () => {
        const { db } = suite;
        const a = await company(db, 'Europe/Berlin');
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let locked: () => void = () => {};
        const isLocked = new Promise<void>((resolve) => {
          locked = resolve;
        });
        const holder = db.transaction(async (tx) => {
          await lockRulesWorkerBatch(tx, [a], { lockRuleRows: true });
          locked();
          await held;
        });
        await isLocked;
        for (const table of ['rules', 'virtual_data_fields', 'sensor_checks']) {
          const { rows } = await db.query<{ id: number }>(
            `SELECT id FROM ${table} WHERE device_id = $1 FOR UPDATE SKIP LOCKED`,
            [a.deviceId],
          );
          expect(rows, table).toEqual([]);
        }
        release();
        await holder;
      });
  });
});
