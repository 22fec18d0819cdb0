/**
 * Every route of the identity issue against every kind of caller, each with its expected answer.
 * Each case gets a fresh world (two companies, their users, a super admin), so mutating calls cannot
 * influence one another. The caller always holds a valid CSRF token: this table is about authorization.
 */
import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app';
import { TestClient } from '../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../test/databases';
import { PASSWORD } from '../test/fixtures';
import { CLIENTS_ROWS } from './matrix-clients-routes';
import { CODEC_ROWS } from './matrix-codecs-routes';
import { DATA_ROWS } from './matrix-data-routes';
import { IDENTITY_ROWS } from './matrix-identity-routes';
import { PARKING_ROWS } from './matrix-parking-routes';
import { ACTORS, createWorld, PLACEHOLDERS } from './matrix-world';

const ROWS = [...IDENTITY_ROWS, ...DATA_ROWS, ...CLIENTS_ROWS, ...PARKING_ROWS, ...CODEC_ROWS];

const CASES = ROWS.flatMap((row) =>
  ACTORS.map((actor, i) => ({ row, actor, expected: row.expect[i]!, path: row.path(PLACEHOLDERS) })),
);

describe.each(DB_KINDS)('authorization matrix on %s', (kind) => {
  let testDb: TestDb;
  let db: Db;
  let app: FastifyInstance;
  let countryId: number;
  let stateId: number;

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    db = testDb.db;
    app = buildTestApp(db, {
      rateLimits: {
        loginPerAddress: { max: 100_000, windowMs: 60_000 },
        forgotPerAddress: { max: 100_000, windowMs: 60_000 },
      },
    });
    await app.ready();
    const { rows } = await db.query<{ country_id: number; state_id: number }>(
      `SELECT c.id AS country_id, min(s.id)::int AS state_id FROM countries c JOIN states s ON s.country_id = c.id
        WHERE c.code = 'DE' GROUP BY c.id`,
    );
    countryId = rows[0]!.country_id;
    stateId = rows[0]!.state_id;
  });

  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  it.each(CASES)('$row.method $path as $actor', async ({ row, actor, expected }) => {
    const { world, emails } = await createWorld(db, countryId, stateId);
    const client = new TestClient(app);
    if (actor === 'anonymous') await client.csrf();
    else await client.login(emails[actor], PASSWORD);

    const res = await client.request(
      row.method,
      row.path(world),
      row.body?.(world) ?? (row.method === 'GET' || row.method === 'DELETE' ? undefined : {}),
      row.contentType ? { headers: { 'content-type': row.contentType } } : {},
    );
    const got = res.status === 200 ? 200 : [res.status, res.body?.code];
    expect(got).toEqual(expected);
  });
});
