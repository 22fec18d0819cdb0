import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db';
import { openPostgres } from './postgres';
import { DEVICE_CHANGED_CHANNEL, INTEGRATION_TOKEN_CHANGED_CHANNEL } from './repositories/devices-ingest';
import { createTestDb, type TestDb } from './testing';

/** Collects the payloads of one channel, received on a second Db of the same database (another process's view). */
async function collect(db: Db, channel: string) {
  const payloads: string[] = [];
  let reconnects = 0;
  const stop = await db.listen!(
    channel,
    (payload) => payloads.push(payload),
    () => {
      reconnects += 1;
    },
  );
  return { payloads, reconnects: () => reconnects, stop };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('PostgreSQL announcements (Db.listen, migration 0009)', () => {
  let db: TestDb;
  let follower: Db;
  let companyId: number;

  beforeAll(async () => {
    db = await createTestDb('postgres');
    follower = openPostgres({ url: db.url!, max: 2 });
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO companies (name) VALUES ('A') RETURNING id::int AS id`,
    );
    companyId = rows[0]!.id;
  });
  afterAll(async () => {
    await follower?.close();
    await db?.drop();
  });

  it('announces committed device changes ingest caches, nothing rolled back, no status updates', async () => {
    const changes = await collect(follower, DEVICE_CHANGED_CHANNEL);
    const { rows } = await db.query<{ id: number; uuid: string }>(
      `INSERT INTO devices (company_id, name, dev_eui) VALUES ($1, 'd', '70b3d57ed0000001')
       RETURNING id::int AS id, uuid::text AS uuid`,
      [companyId],
    );
    const device = rows[0]!;
    await expect.poll(() => changes.payloads.length).toBe(1);
    expect(JSON.parse(changes.payloads[0]!)).toEqual({
      id: device.id,
      keys: [{ company_id: companyId, uuid: device.uuid, dev_eui: '70b3d57ed0000001' }],
    });
    // What the storage writer updates is not announced.
    await db.query('UPDATE devices SET latitude = 48.04, longitude = 7.58, name = $2 WHERE id = $1', [
      device.id,
      'renamed',
    ]);
    // A rotation that rolls back is not announced.
    await db
      .transaction(async (tx) => {
        await tx.query("UPDATE devices SET credentials_hash = 'rolled back' WHERE id = $1", [device.id]);
        throw new Error('roll back');
      })
      .catch(() => {});
    // Inside a transaction the announcement waits for the commit.
    await db.transaction(async (tx) => {
      await tx.query("UPDATE devices SET credentials_hash = 'new' WHERE id = $1", [device.id]);
      await settle();
      expect(changes.payloads).toHaveLength(1);
    });
    await expect.poll(() => changes.payloads.length).toBe(2);
    // A change of key announces the keys before and after it.
    await db.query("UPDATE devices SET dev_eui = '70b3d57ed0000002' WHERE id = $1", [device.id]);
    await expect.poll(() => changes.payloads.length).toBe(3);
    expect(JSON.parse(changes.payloads[2]!).keys.map((k: { dev_eui: string }) => k.dev_eui)).toEqual([
      '70b3d57ed0000001',
      '70b3d57ed0000002',
    ]);
    await db.query("UPDATE devices SET state = 'maintenance' WHERE id = $1", [device.id]);
    await db.query('DELETE FROM devices WHERE id = $1', [device.id]);
    await expect.poll(() => changes.payloads.length).toBe(5);
    await settle();
    expect(changes.payloads.map((p) => JSON.parse(p).id)).toEqual(Array(5).fill(device.id));
    await changes.stop();
  });

  it('announces revoked integration tokens, not their use', async () => {
    const tokens = await collect(follower, INTEGRATION_TOKEN_CHANGED_CHANNEL);
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO integration_tokens (company_id, kind, name, token_hash) VALUES ($1, 'tts', 't', 'h1')
       RETURNING id::int AS id`,
      [companyId],
    );
    const id = rows[0]!.id;
    await db.query('UPDATE integration_tokens SET last_used_at = now() WHERE id = $1', [id]);
    await db.query('UPDATE integration_tokens SET revoked_at = now() WHERE id = $1', [id]);
    await expect.poll(() => tokens.payloads).toEqual([String(id)]);
    await settle();
    expect(tokens.payloads).toEqual([String(id)]);
    await tokens.stop();
  });

  it('reconnects after the connection is killed, tells the subscriber, and hears announcements again', async () => {
    const changes = await collect(follower, DEVICE_CHANGED_CHANNEL);
    await db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND (query LIKE 'LISTEN%' OR query LIKE 'UNLISTEN%')`,
    );
    await expect.poll(() => changes.reconnects(), { timeout: 10_000 }).toBe(1);
    await db.query(`INSERT INTO devices (company_id, name) VALUES ($1, 'after')`, [companyId]);
    await expect.poll(() => changes.payloads.length).toBe(1);
    await changes.stop();
  });
});
