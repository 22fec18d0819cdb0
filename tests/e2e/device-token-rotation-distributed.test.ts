/**
 * Distributed profile: the API and ingest hold separate Db instances on the machine's PostgreSQL (two
 * pools, as two processes would) and the API is not wired to ingest's cache at all. A device token
 * rotated through the API must stop working at ingest at once, not after the cache's 30 s TTL: the
 * rotation's transaction announces the change (pg_notify, migration 0009) and ingest LISTENs for it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { buildApp } from '@iot/api';
import { loadConfig } from '@iot/config';
import { openPostgres } from '@iot/db';
import { createTestDb, type TestDb } from '@iot/db/testing';
import { createInProcessEventLog } from '@iot/event-log';
import { type IngestService, startIngest } from '@iot/ingest';
import { createLogger } from '@iot/runtime';
import { hash } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api-session.js';

const PASSWORD = 'Rotation-Password-1!';
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

let apiDb: TestDb;
let ingestDb: ReturnType<typeof openPostgres>;
let api: FastifyInstance;
let ingest: IngestService;
const eventLog = createInProcessEventLog({ capacity: 10_000 });
let session: ApiSession;
let device: { id: number; uuid: string };
let token: string;

beforeAll(async () => {
  apiDb = await createTestDb('postgres');
  ingestDb = openPostgres({ url: apiDb.url!, max: 4 });
  const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1' });
  const { rows: company } = await apiDb.query<{ id: number }>(
    `INSERT INTO companies (name) VALUES ('Rotation') RETURNING id::int AS id`,
  );
  const companyId = company[0]!.id;
  const email = `main.${randomBytes(4).toString('hex')}@example.test`;
  await apiDb.query(
    `INSERT INTO users (company_id, email, name, password_hash, roles, eula_accepted)
     VALUES ($1, $2, 'Main user', $3, '{ROLE_MAINUSER}', true)`,
    [companyId, email, await hash(PASSWORD)],
  );
  token = randomBytes(16).toString('hex');
  const { rows } = await apiDb.query<{ id: number; uuid: string }>(
    `INSERT INTO devices (company_id, name, credentials_hash) VALUES ($1, 'Rotated', $2)
     RETURNING id::int AS id, uuid::text AS uuid`,
    [companyId, sha256(token)],
  );
  device = rows[0]!;
  // No onDeviceChanged: the API knows nothing of ingest, as in separate processes.
  api = buildApp({ config, db: apiDb, version: 'test' });
  const apiUrl = await api.listen({ port: 0, host: '127.0.0.1' });
  ingest = await startIngest({
    config,
    db: ingestDb,
    log: createLogger({ level: 'silent' }),
    mqtt: false,
    storageWriter: false,
    eventLog,
    http: { port: 0, host: '127.0.0.1' },
  });
  session = new ApiSession(apiUrl);
  expect((await session.login(email, PASSWORD)).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await ingest?.stop();
  await api?.close();
  await eventLog.close();
  await ingestDb?.close();
  await apiDb?.drop();
});

async function postUplink(bearer: string): Promise<number> {
  const response = await fetch(`${ingest.httpUrl}/uplinks/${device.uuid}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ temperature: 21.5 }),
  });
  await response.body?.cancel();
  return response.status;
}

describe('device token rotation across processes', () => {
  it('refuses the old token at ingest right after the API rotated it, and takes the new one', async () => {
    // The device is now in ingest's cache, valid for 30 s.
    expect(await postUplink(token)).toBe(202);
    expect(await postUplink(token)).toBe(202);
    const rotated = await session.call<{ token: string }>(
      'POST',
      `/api/v1/core/devices/${device.id}/credentials`,
    );
    expect(rotated.status).toBe(200);
    const newToken = rotated.body.payload!.token;
    const started = Date.now();
    // The announcement travels API -> PostgreSQL -> ingest asynchronously: allow it a moment, far below the TTL.
    await expect.poll(() => postUplink(token), { timeout: 2_000, interval: 20 }).toBe(401);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await postUplink(newToken)).toBe(202);
  });
});
