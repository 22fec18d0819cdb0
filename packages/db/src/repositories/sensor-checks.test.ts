import { describe, expect, it } from 'vitest';
import { forEachDb } from '../testing';
import { insertCompany } from './companies';
import {
  insertSensorCheck,
  listSensorChecks,
  type SensorCheckValues,
  updateSensorCheck,
} from './sensor-checks';

const BATTERY: SensorCheckValues = {
  kind: 'battery_low',
  dataField: null,
  maxSilenceSeconds: null,
  minValue: 20,
  maxValue: null,
  isActive: true,
};

describe('sensor checks (migrations 0003, 0010)', () => {
  forEachDb((suite) => {
    async function device() {
      const company = await insertCompany(suite.db, { name: 'Checks' });
      const { rows } = await suite.db.query<{ id: number }>(
        `INSERT INTO devices (company_id, name) VALUES ($1, 'Sensor') RETURNING id::int AS id`,
        [company.id],
      );
      return { companyId: company.id, deviceId: rows[0]!.id };
    }

    it('stores battery_low with its level; refuses it without a level and refuses unknown kinds', async () => {
      const { companyId, deviceId } = await device();
      const stored = await insertSensorCheck(suite.db, companyId, deviceId, BATTERY);
      expect(stored).toMatchObject({ kind: 'battery_low', minValue: 20 });
      await expect(
        insertSensorCheck(suite.db, companyId, deviceId, { ...BATTERY, minValue: null }),
      ).rejects.toThrow(/sensor_checks_battery_level/);
      await expect(
        suite.db.query(`INSERT INTO sensor_checks (company_id, device_id, kind) VALUES ($1, $2, 'smoke')`, [
          companyId,
          deviceId,
        ]),
      ).rejects.toThrow(/sensor_checks_kind_check/);
      expect(await listSensorChecks(suite.db, companyId, deviceId)).toHaveLength(1);
    });

    it('resets the state when the condition changes, keeps it otherwise; another company changes nothing', async () => {
      const { companyId, deviceId } = await device();
      const other = await insertCompany(suite.db, { name: 'Other' });
      const check = await insertSensorCheck(suite.db, companyId, deviceId, BATTERY);
      await suite.db.query(`UPDATE sensor_checks SET state = '{"alarmOpen": true}' WHERE id = $1`, [
        check.id,
      ]);
      const state = async () =>
        (
          await suite.db.query<{ state: unknown }>('SELECT state FROM sensor_checks WHERE id = $1', [
            check.id,
          ])
        ).rows[0]!.state;
      expect(
        await updateSensorCheck(suite.db, other.id, deviceId, check.id, { ...BATTERY, minValue: 5 }),
      ).toBeNull();
      const same = await updateSensorCheck(suite.db, companyId, deviceId, check.id, {
        ...BATTERY,
        isActive: false,
      });
      expect(same?.conditionChanged).toBe(false);
      expect(await state()).toEqual({ alarmOpen: true });
      const changed = await updateSensorCheck(suite.db, companyId, deviceId, check.id, {
        ...BATTERY,
        minValue: 10,
      });
      expect(changed).toMatchObject({ conditionChanged: true, record: { minValue: 10, isActive: true } });
      expect(await state()).toEqual({});
    });
  });
});
