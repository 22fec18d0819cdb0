/**
 * The distributed profile's cache invalidation on the real PostgreSQL: ingest and the changing side hold
 * two separate Db instances (two pools, as two processes would), and only the database connects them.
 */
import { LISTENER_APPLICATION_NAME, openPostgres } from '@iot/db';
import { createTestDb, type TestDb } from '@iot/db/testing';
import { createLogger } from '@iot/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createDevice, createIntegrationToken } from '../test-support/seed.js';
import { DeviceDirectory } from './device-directory.js';
import { followDeviceChanges, parseDeviceChange } from './follow-changes.js';

describe('following announced device changes (PostgreSQL)', () => {
  let db: TestDb;
  let ingestDb: ReturnType<typeof openPostgres>;

  beforeAll(async () => {
    db = await createTestDb('postgres');
    ingestDb = openPostgres({ url: db.url!, max: 2 });
  });
  afterAll(async () => {
    await ingestDb?.close();
    await db?.drop();
  });

  it('keeps devices cached for the long TTL once their changes are announced', async () => {
    let now = 0;
    let lookups = 0;
    // The directory's own Db counts its device lookups; the follower listens on ingestDb itself.
    const counting = {
      ...ingestDb,
      query: ((sql: string, params?: unknown[]) => {
        if (/FROM devices/.test(sql)) lookups += 1;
        return ingestDb.query(sql, params);
      }) as typeof ingestDb.query,
    };
    const directory = new DeviceDirectory(counting, { ttlMs: 1000, announcedTtlMs: 60_000, now: () => now });
    expect(directory.deviceTtlMs).toBe(1000);
    // Created before the follower listens: its creation's announcement cannot drop the entry mid-test.
    const device = await createDevice(db, await createCompany(db));
    const follower = await followDeviceChanges(ingestDb, directory, createLogger({ level: 'silent' }));
    try {
      expect(directory.deviceTtlMs).toBe(60_000);
      await directory.deviceByUuid(device.uuid);
      expect(lookups).toBe(1);
      now = 30_000;
      expect((await directory.deviceByUuid(device.uuid))?.id).toBe(device.id);
      expect(lookups).toBe(1);
      now = 60_001;
      expect((await directory.deviceByUuid(device.uuid))?.id).toBe(device.id);
      expect(lookups).toBe(2);
    } finally {
      await follower?.stop();
    }
  });

  it('drops a changed device, a revoked token and, after a reconnect, everything', async () => {
    // A TTL far beyond the test: only announcements can make the directory see a change.
    const directory = new DeviceDirectory(ingestDb, { ttlMs: 600_000, missTtlMs: 600_000 });
    const follower = await followDeviceChanges(ingestDb, directory, createLogger({ level: 'silent' }));
    expect(follower).not.toBeNull();
    try {
      const company = await createCompany(db);
      const device = await createDevice(db, company);
      const other = await createDevice(db, company);
      expect((await directory.deviceByUuid(device.uuid))?.state).toBe('ok');
      expect((await directory.deviceByUuid(other.uuid))?.state).toBe('ok');
      await db.query(`UPDATE devices SET credentials_hash = 'rotated' WHERE id = $1`, [device.id]);
      await expect
        .poll(async () => (await directory.deviceByUuid(device.uuid))?.credentialsHash)
        .toBe('rotated');

      const token = await createIntegrationToken(db, company, 'tts');
      expect((await directory.integrationToken(token))?.companyId).toBe(company);
      await db.query('UPDATE integration_tokens SET revoked_at = now() WHERE company_id = $1', [company]);
      await expect.poll(() => directory.integrationToken(token)).toBeNull();

      // Kill ingest's listening connection; a change made while it is down is never announced to it.
      await db.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = $1`,
        [LISTENER_APPLICATION_NAME],
      );
      await db.query(`UPDATE devices SET state = 'broken' WHERE id = $1`, [other.id]);
      // After the reconnect the whole cache is gone, so the missed change shows.
      await expect
        .poll(async () => (await directory.deviceByUuid(other.uuid))?.state, { timeout: 10_000 })
        .toBe('broken');
    } finally {
      await follower?.stop();
    }
  });

  it('while the announcements are lost keeps devices only the short TTL, and the long one once they are back', async () => {
    const events: string[] = [];
    class Recording extends DeviceDirectory {
      override changesAnnounced(): void {
        events.push(`announced`);
        super.changesAnnounced();
      }
      override changesUnannounced(): void {
        events.push(`unannounced, ttl ${this.deviceTtlMs}`);
        super.changesUnannounced();
        events.push(`ttl ${this.deviceTtlMs}`);
      }
    }
    const directory = new Recording(ingestDb, { ttlMs: 1000, announcedTtlMs: 60_000 });
    const follower = await followDeviceChanges(ingestDb, directory, createLogger({ level: 'silent' }));
    try {
      expect(events).toEqual(['announced']);
      await db.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = $1`,
        [LISTENER_APPLICATION_NAME],
      );
      await expect
        .poll(() => events, { timeout: 10_000 })
        .toEqual(['announced', 'unannounced, ttl 60000', 'ttl 1000', 'announced']);
      expect(directory.deviceTtlMs).toBe(60_000);
    } finally {
      await follower?.stop();
    }
  });

  it('reads the payload the trigger sends and refuses anything else', () => {
    expect(
      parseDeviceChange(
        '{"id": 4, "keys": [{"company_id": 2, "uuid": "u", "dev_eui": null}, {"company_id": 3, "uuid": "u", "dev_eui": "ab"}]}',
      ),
    ).toEqual({
      id: 4,
      keys: [
        { companyId: 2, uuid: 'u', devEui: null },
        { companyId: 3, uuid: 'u', devEui: 'ab' },
      ],
    });
    expect(parseDeviceChange('{"id": 4, "keys": [{"uuid": "u"}]}')).toBeNull();
    expect(parseDeviceChange('4')).toBeNull();
    expect(parseDeviceChange('not json')).toBeNull();
  });
});

describe('following announced device changes (PGlite in its worker thread)', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb('pglite');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('drops a changed device and keeps the rest for the long TTL', async () => {
    const directory = new DeviceDirectory(db, { ttlMs: 1000 });
    const follower = await followDeviceChanges(db, directory, createLogger({ level: 'silent' }));
    expect(follower).not.toBeNull();
    try {
      expect(directory.deviceTtlMs).toBe(3_600_000);
      const company = await createCompany(db);
      const device = await createDevice(db, company);
      await expect.poll(async () => (await directory.deviceByUuid(device.uuid))?.state).toBe('ok');
      // A change no API route reports: only the announcement can tell the cache.
      await db.query(`UPDATE devices SET state = 'disposed' WHERE id = $1`, [device.id]);
      await expect.poll(async () => (await directory.deviceByUuid(device.uuid))?.state).toBe('disposed');
    } finally {
      await follower?.stop();
    }
  });
});
