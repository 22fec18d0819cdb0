import { createServer, type Server, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db';
import { LISTENER_APPLICATION_NAME, PgListener } from './pg-listener';
import { openPostgres } from './postgres';
import { DEVICE_CHANGED_CHANNEL } from './repositories/device-credentials';
import { INTEGRATION_TOKEN_CHANGED_CHANNEL } from './repositories/integration-tokens';
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
        WHERE datname = current_database() AND application_name = $1`,
      [LISTENER_APPLICATION_NAME],
    );
    await expect.poll(() => changes.reconnects(), { timeout: 10_000 }).toBe(1);
    await db.query(`INSERT INTO devices (company_id, name) VALUES ($1, 'after')`, [companyId]);
    await expect.poll(() => changes.payloads.length).toBe(1);
    await changes.stop();
  });

  it('takes a connection that stops answering for lost: tells the subscriber, reconnects and hears again', async () => {
    // A TCP proxy to PostgreSQL that can go silent: it keeps both sockets open but stops passing bytes,
    // as a network path that drops packets without a reset does.
    const target = new URL(db.url!);
    const proxy = await startProxy(target.hostname, Number(target.port || 5432));
    const url = new URL(db.url!);
    url.host = `127.0.0.1:${proxy.port}`;
    const errors: string[] = [];
    const listener = new PgListener(url.toString(), {
      heartbeatMs: 100,
      heartbeatTimeoutMs: 300,
      onError: (error) => errors.push(error.message),
    });
    const events: string[] = [];
    const payloads: string[] = [];
    try {
      await listener.listen(
        'iot_heartbeat_test',
        (payload) => payloads.push(payload),
        () => events.push('reconnected'),
        () => events.push('lost'),
      );
      await db.query("SELECT pg_notify('iot_heartbeat_test', 'before')");
      await expect.poll(() => payloads).toEqual(['before']);

      proxy.freeze();
      await db.query("SELECT pg_notify('iot_heartbeat_test', 'while silent')");
      await expect.poll(() => events, { timeout: 5_000 }).toEqual(['lost']);
      expect(errors.some((e) => e.includes('heartbeat'))).toBe(true);

      proxy.thaw();
      await expect.poll(() => events, { timeout: 10_000 }).toEqual(['lost', 'reconnected']);
      await db.query("SELECT pg_notify('iot_heartbeat_test', 'after')");
      await expect.poll(() => payloads).toEqual(['before', 'after']);
    } finally {
      await listener.close();
      await proxy.close();
    }
  });
});

/** A TCP proxy whose open connections can be frozen (nothing passes, nothing closes) and new ones refused. */
async function startProxy(host: string, port: number) {
  const pairs = new Set<[Socket, Socket]>();
  let frozen = false;
  const server: Server = createServer((inbound) => {
    if (frozen) {
      inbound.destroy();
      return;
    }
    const outbound = new Socket();
    const pair: [Socket, Socket] = [inbound, outbound];
    pairs.add(pair);
    outbound.connect(port, host);
    inbound.on('data', (chunk) => {
      if (!frozen) outbound.write(chunk);
    });
    outbound.on('data', (chunk) => {
      if (!frozen) inbound.write(chunk);
    });
    const end = () => {
      pairs.delete(pair);
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('close', end);
    outbound.on('close', end);
    inbound.on('error', end);
    outbound.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  return {
    port: address.port,
    freeze() {
      frozen = true;
    },
    /** Passes bytes again for new connections; the frozen ones are dropped. */
    thaw() {
      for (const [inbound, outbound] of pairs) {
        inbound.destroy();
        outbound.destroy();
      }
      frozen = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [inbound, outbound] of pairs) {
          inbound.destroy();
          outbound.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
