import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db';
import { withTenant } from '../tenant';
import { forEachDb } from '../testing';
import { deferred, insertCompany, insertDevice, untilWaitingForLocks } from './deletion-test-support';
import { type DeviceLogRow, insertDeviceLogRows } from './device-logs';

// device_logs has no foreign keys (migration 0016): triggers delete a device's or a company's entries, and
// the one insert (insertDeviceLogRows, used by the storage writer and the rules worker) joins and locks
// the devices it writes entries for. These tests hold what the keys used to guarantee.

const entry = (deviceId: number, companyId: number, message: string): DeviceLogRow => ({
  device_id: deviceId,
  company_id: companyId,
  level: 5,
  message,
  payload: { kind: 'test' },
  raw: null,
  created_at: new Date().toISOString(),
});

async function entriesOf(q: Queryable, deviceId: number): Promise<string[]> {
  const { rows } = await q.query<{ message: string }>(
    'SELECT message FROM device_logs WHERE device_id = $1 ORDER BY message',
    [deviceId],
  );
  return rows.map((r) => r.message);
}

forEachDb((suite) => {
  describe('device_logs without foreign keys', () => {
    it('deletes the entries of a deleted device and keeps the others', async () => {
      const company = await insertCompany(suite.db, 'Deletes');
      const gone = await insertDevice(suite.db, company);
      const kept = await insertDevice(suite.db, company);
      await insertDeviceLogRows(suite.db, [
        entry(gone, company, 'a'),
        entry(gone, company, 'b'),
        entry(kept, company, 'c'),
      ]);

      await suite.db.query('DELETE FROM devices WHERE id = $1', [gone]);

      expect(await entriesOf(suite.db, gone)).toEqual([]);
      expect(await entriesOf(suite.db, kept)).toEqual(['c']);
    });

    it('deletes what a deleted company logged, also on a device since handed to another company', async () => {
      const seller = await insertCompany(suite.db, 'Seller');
      const buyer = await insertCompany(suite.db, 'Buyer');
      const sold = await insertDevice(suite.db, seller);
      const own = await insertDevice(suite.db, seller);
      await insertDeviceLogRows(suite.db, [entry(sold, seller, 'before sale'), entry(own, seller, 'own')]);
      await suite.db.query('UPDATE devices SET company_id = $1 WHERE id = $2', [buyer, sold]);
      await insertDeviceLogRows(suite.db, [entry(sold, buyer, 'after sale')]);

      await suite.db.query('DELETE FROM companies WHERE id = $1', [seller]);

      expect(await entriesOf(suite.db, sold)).toEqual(['after sale']);
      expect(await entriesOf(suite.db, own)).toEqual([]);
    });

    it('deletes every entry of a device deleted by its tenant, those of its former company included', async () => {
      const seller = await insertCompany(suite.db, 'Former owner');
      const buyer = await insertCompany(suite.db, 'Owner');
      const device = await insertDevice(suite.db, seller);
      await insertDeviceLogRows(suite.db, [entry(device, seller, 'former')]);
      await suite.db.query('UPDATE devices SET company_id = $1 WHERE id = $2', [buyer, device]);
      await insertDeviceLogRows(suite.db, [entry(device, buyer, 'own')]);

      // Row-level security hides the former owner's entries from the tenant; the trigger runs as the owner.
      await withTenant(suite.db, buyer, (tx) => tx.query('DELETE FROM devices WHERE id = $1', [device]));

      expect(await entriesOf(suite.db, device)).toEqual([]);
    });

    it('leaves out the entries of a device that does not exist and writes the others', async () => {
      const company = await insertCompany(suite.db, 'Unknown device');
      const gone = await insertDevice(suite.db, company);
      const kept = await insertDevice(suite.db, company);
      await suite.db.query('DELETE FROM devices WHERE id = $1', [gone]);

      await insertDeviceLogRows(suite.db, [entry(gone, company, 'late'), entry(kept, company, 'on time')]);

      expect(await entriesOf(suite.db, gone)).toEqual([]);
      expect(await entriesOf(suite.db, kept)).toEqual(['on time']);
    });
  });
});

// Two sessions at once: only PostgreSQL has them (PGlite runs one transaction at a time).
forEachDb(
  (suite) => {
    const untilWaiting = (n: number) => untilWaitingForLocks(suite.db, n);

    it('a device deleted while a writer logs for it waits for the writer and takes the new entries with it', async () => {
      const company = await insertCompany(suite.db, 'Race');
      const device = await insertDevice(suite.db, company);

      // The writer's transaction: entries inserted, not yet committed.
      const released = deferred();
      const inserted = deferred();
      const writer = suite.db.transaction(async (tx) => {
        await insertDeviceLogRows(tx, [entry(device, company, 'racing')]);
        inserted.resolve();
        await released.promise;
      });
      await inserted.promise;
      const deletion = suite.db.query('DELETE FROM devices WHERE id = $1', [device]);
      // Without the lock the deletion would not wait: it would delete the device, find no committed
      // entries, and leave the writer's behind once it commits.
      await untilWaiting(1);

      released.resolve();
      await writer;
      await deletion;

      expect(await entriesOf(suite.db, device)).toEqual([]);
    });
  },
  { kinds: ['postgres'] },
);
