import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db';
import { withTenant } from '../tenant';
import { forEachDb } from '../testing';
import { deferred, insertCompany, insertDevice, untilWaitingForLocks } from './deletion-test-support';
import { messageHash, upsertDerivedData, writeIngestBatch } from './device-data-writes';

// device_data has no foreign keys (migration 0013): triggers delete a device's or a company's points, and
// the writers lock the devices (or, since migration 0015, their device_current rows) they write points for. These tests hold what the keys used to guarantee.

async function insertPoint(q: Queryable, deviceId: number, companyId: number, messageId: string) {
  await q.query(
    `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
     VALUES ($1, $2, now(), '{"t": 1}', $3)`,
    [deviceId, companyId, messageId],
  );
}

/** The message ids of a device's points, told apart by their hashes (migration 0043 stores no text). */
async function pointsOf(q: Queryable, deviceId: number): Promise<string[]> {
  const ids = ['a', 'b', 'c', 'before sale', 'after sale', 'former', 'own', 'late', 'derived', 'racing'];
  const { rows } = await q.query<{ message_hash: number }>(
    'SELECT message_hash FROM device_data WHERE device_id = $1',
    [deviceId],
  );
  return rows.map((r) => ids.find((id) => messageHash(id) === r.message_hash) ?? `#${r.message_hash}`).sort();
}

const batchFor = (deviceId: number, companyId: number, messageId: string, at: string) => ({
  data: [
    {
      device_id: deviceId,
      company_id: companyId,
      created_at: at,
      data: { t: 2 },
      latitude: null,
      longitude: null,
      metalabel: null,
      fcnt: null,
      message_id: messageId,
    },
  ],
  current: [],
  status: [{ device_id: deviceId, company_id: companyId, last_online_at: at }],
  logs: [],
});

forEachDb((suite) => {
  describe('device_data without foreign keys', () => {
    it('deletes the points of a deleted device and keeps the others', async () => {
      const company = await insertCompany(suite.db, 'Deletes');
      const gone = await insertDevice(suite.db, company);
      const kept = await insertDevice(suite.db, company);
      await insertPoint(suite.db, gone, company, 'a');
      await insertPoint(suite.db, gone, company, 'b');
      await insertPoint(suite.db, kept, company, 'c');

      await suite.db.query('DELETE FROM devices WHERE id = $1', [gone]);

      expect(await pointsOf(suite.db, gone)).toEqual([]);
      expect(await pointsOf(suite.db, kept)).toEqual(['c']);
    });

    it('deletes what a deleted company recorded, also on a device since handed to another company', async () => {
      const seller = await insertCompany(suite.db, 'Seller');
      const buyer = await insertCompany(suite.db, 'Buyer');
      const sold = await insertDevice(suite.db, seller);
      await insertPoint(suite.db, sold, seller, 'before sale');
      await suite.db.query('UPDATE devices SET company_id = $1 WHERE id = $2', [buyer, sold]);
      await insertPoint(suite.db, sold, buyer, 'after sale');

      await suite.db.query('DELETE FROM companies WHERE id = $1', [seller]);

      expect(await pointsOf(suite.db, sold)).toEqual(['after sale']);
    });

    it('remembers the companies a device left, and forgets them with the device or the company', async () => {
      const first = await insertCompany(suite.db, 'First owner');
      const second = await insertCompany(suite.db, 'Second owner');
      const third = await insertCompany(suite.db, 'Third owner');
      const device = await insertDevice(suite.db, first);
      const other = await insertDevice(suite.db, first);
      const formerOf = async (id: number) =>
        (
          await suite.db.query<{ company_id: number }>(
            'SELECT company_id::int FROM device_former_companies WHERE device_id = $1 ORDER BY company_id',
            [id],
          )
        ).rows.map((r) => r.company_id);

      // Edits that leave the company alone remember nothing; each reassignment remembers the company left.
      await suite.db.query("UPDATE devices SET name = 'renamed', latitude = 48.0 WHERE id = $1", [device]);
      expect(await formerOf(device)).toEqual([]);
      await suite.db.query('UPDATE devices SET company_id = $1 WHERE id IN ($2, $3)', [
        second,
        device,
        other,
      ]);
      await suite.db.query('UPDATE devices SET company_id = $1 WHERE id = $2', [third, device]);
      expect(await formerOf(device)).toEqual([first, second].sort((a, b) => a - b));

      await suite.db.query('DELETE FROM companies WHERE id = $1', [first]);
      expect(await formerOf(device)).toEqual([second]);
      expect(await formerOf(other)).toEqual([]);
      await suite.db.query('DELETE FROM devices WHERE id = $1', [device]);
      expect(await formerOf(device)).toEqual([]);
    });

    it('deletes every point of a device deleted by its tenant, those of its former company included', async () => {
      const seller = await insertCompany(suite.db, 'Former owner');
      const buyer = await insertCompany(suite.db, 'Owner');
      const device = await insertDevice(suite.db, seller);
      await insertPoint(suite.db, device, seller, 'former');
      await suite.db.query('UPDATE devices SET company_id = $1 WHERE id = $2', [buyer, device]);
      await insertPoint(suite.db, device, buyer, 'own');

      // Row-level security hides the former owner's points from the tenant; the trigger runs as the owner.
      await withTenant(suite.db, buyer, (tx) => tx.query('DELETE FROM devices WHERE id = $1', [device]));

      expect(await pointsOf(suite.db, device)).toEqual([]);
    });

    it('leaves out the points of a device that does not exist', async () => {
      const company = await insertCompany(suite.db, 'Unknown device');
      const device = await insertDevice(suite.db, company);
      await suite.db.query('DELETE FROM devices WHERE id = $1', [device]);
      const at = new Date().toISOString();

      expect(await writeIngestBatch(suite.db, batchFor(device, company, 'late', at))).toBe(0);
      await upsertDerivedData(suite.db, [
        {
          device_id: device,
          company_id: company,
          created_at: at,
          message_id: 'derived',
          data: { t: 3 },
          latitude: null,
          longitude: null,
          fcnt: null,
        },
      ]);
      expect(await pointsOf(suite.db, device)).toEqual([]);
    });
  });
});

// Two sessions at once: only PostgreSQL has them (PGlite runs one transaction at a time).
forEachDb(
  (suite) => {
    const untilWaiting = (n: number) => untilWaitingForLocks(suite.db, n);

    // The writer locks the device_current row it updates; for a device without one, its insert locks the
    // devices row through the foreign key. Deleting the device waits for either.
    it.each([
      ['its first uplink', false],
      ['a later uplink', true],
    ])(
      'a device deleted while the storage writer stores %s takes the new point with it',
      async (_, reported) => {
        const company = await insertCompany(suite.db, 'Race');
        const device = await insertDevice(suite.db, company);
        const at = new Date().toISOString();
        if (reported)
          await suite.db.query(
            `INSERT INTO device_current (device_id, company_id, updated_at, last_online_at)
           VALUES ($1, $2, now() - interval '1 hour', now() - interval '1 hour')`,
            [device, company],
          );

        // Holds the writer at the start of its transaction: the uncommitted row holds the device's
        // deduplication lock (migration 0043), which the writer takes before its device state, so the
        // deletion goes first and the writer then finds no device to store a point for.
        const released = deferred();
        const holding = deferred();
        const blocker = suite.db.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
           VALUES ($1, $2, $3, '{}', 'racing')`,
            [device, company, at],
          );
          holding.resolve();
          await released.promise;
          throw new Error('roll back');
        });
        await holding.promise;
        const write = writeIngestBatch(suite.db, batchFor(device, company, 'racing', at));
        await untilWaiting(1);
        await suite.db.query('DELETE FROM devices WHERE id = $1', [device]);

        released.resolve();
        await expect(blocker).rejects.toThrow('roll back');
        expect(await write).toBe(0);

        expect(await pointsOf(suite.db, device)).toEqual([]);
      },
    );
  },
  { kinds: ['postgres'] },
);
