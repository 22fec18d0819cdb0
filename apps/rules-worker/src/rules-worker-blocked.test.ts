/**
 * A blocked or deleted client's rules stop acting (issue #27): an uplink of its device that was already
 * in the log when it was blocked fires nothing, its no-data rules stay quiet on the timer, and once it
 * is unblocked its rules act again.
 */
import { forEachDb } from '@iot/db/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { alarms, createDevice, createRule, harness, minute, stopHarnesses } from './test-support/harness.js';

afterEach(stopHarnesses);

forEachDb((suite) => {
  describe('blocked and deleted clients', () => {
    it('fires no rule of a blocked client, and fires again once it is unblocked', async () => {
      const h = await harness(suite.db);
      const device = await createDevice(suite.db);
      const rule = await createRule(suite.db, device, {}); // gte 8
      await suite.db.query('UPDATE companies SET blocked = true WHERE id = $1', [device.companyId]);
      const t0 = Date.now() - 10 * minute;
      await h.publish(device, [{ data: { temperature: 9 }, at: t0 }]);
      await h.settle();
      expect(h.processed).toEqual([]);
      expect(await alarms(suite.db, device.deviceId)).toEqual([]);

      await suite.db.query('UPDATE companies SET blocked = false WHERE id = $1', [device.companyId]);
      const [warm] = await h
        .publish(device, [
          { data: { temperature: 5 }, at: t0 + minute },
          { data: { temperature: 9 }, at: t0 + 2 * minute },
        ])
        .then((ids) => [ids[1]]);
      await h.settle();
      expect(h.processed).toEqual([`${rule.ruleId}:${warm}:${rule.actionId}`]);
    });

    it('keeps the no-data rules of a deleted client quiet on the timer', async () => {
      const now = Date.now();
      const h = await harness(suite.db, { clock: () => now });
      const device = await createDevice(suite.db);
      await suite.db.query(
        `INSERT INTO device_current (device_id, company_id, updated_at, last_online_at) VALUES ($1, $2, $3, $3)
         ON CONFLICT (device_id) DO UPDATE SET last_online_at = EXCLUDED.last_online_at`,
        [device.deviceId, device.companyId, new Date(now - 10 * minute).toISOString()],
      );
      await createRule(suite.db, device, { name: 'silent', trigger: 'no_data', timeWindowSeconds: 300 });
      await suite.db.query('UPDATE companies SET deleted_at = now() WHERE id = $1', [device.companyId]);
      await h.worker.tick();
      await h.settle();
      expect(h.processed).toEqual([]);
      expect(await alarms(suite.db, device.deviceId)).toEqual([]);
    });
  });
});
