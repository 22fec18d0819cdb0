import { forEachDb } from '@iot/db/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  alarms,
  createDevice,
  createRule,
  harness,
  insertId,
  minute,
  stopHarnesses,
} from './test-support/harness.js';
import { computeVirtualFields } from './virtual-devices.js';

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
        deviceId: await insertId(
          suite.db,
          `INSERT INTO devices (company_id, name, device_type, virtual_fields)
           VALUES ($1, 'Both tanks', 'virtual', $2::jsonb)`,
          [
            a.companyId,
            JSON.stringify([
              { key: 'temperature', formula: `d${a.deviceId}.temperature + d${b.deviceId}.temperature` },
            ]),
          ],
        ),
      };
      await suite.db.query(
        `INSERT INTO virtual_device_inputs (company_id, virtual_device_id, input_device_id) VALUES ($1, $2, $3), ($1, $2, $4)`,
        [a.companyId, sum.deviceId, a.deviceId, b.deviceId],
      );
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
  });
});
