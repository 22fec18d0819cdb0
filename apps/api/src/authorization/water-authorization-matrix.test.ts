/**
 * The water association routes against every kind of caller (matrix-water-routes.ts), each case in a
 * fresh water world, on both databases.
 */
import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app';
import { TestClient } from '../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../test/databases';
import { createSuperAdmin, PASSWORD } from '../test/fixtures';
import { addControlValve, createWaterWorld } from '../test/water-fixtures';
import { WATER_ACTORS, WATER_ROWS } from './matrix-water-routes';

const CASES = WATER_ROWS.flatMap((row, r) =>
  WATER_ACTORS.map((actor, i) => ({ row, actor, expected: row.expect[i]!, name: `row ${r}` })),
);

describe.each(DB_KINDS)('water authorization matrix on %s', (kind) => {
  let testDb: TestDb;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    db = testDb.db;
    app = buildTestApp(db, {
      // Commands leave through a broker that takes everything (the valve rows expect them sent).
      publishDownlink: async () => {},
      rateLimits: {
        loginPerAddress: { max: 100_000, windowMs: 60_000 },
        forgotPerAddress: { max: 100_000, windowMs: 60_000 },
      },
    });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  it.each(CASES)('$name $row.method as $actor', async ({ row, actor, expected }) => {
    const world = await createWaterWorld(db);
    const w = { ...world, valve: await addControlValve(db, world) };
    const client = new TestClient(app);
    const emails: Record<Exclude<typeof actor, 'anonymous'>, string> = {
      nwaMain: w.nwa.main.email,
      nwaPlain: w.nwa.plain.email,
      adminMember: w.adminMember.main.email,
      member: w.member.main.email,
      outsider: w.outsider.main.email,
      superAdmin: (await createSuperAdmin(db)).email,
    };
    if (actor === 'anonymous') await client.csrf();
    else await client.login(emails[actor], PASSWORD);
    const res = await client.request(
      row.method,
      row.path(w),
      row.body?.(w) ?? (row.method === 'GET' || row.method === 'DELETE' ? undefined : {}),
    );
    const got = res.status === 200 ? 200 : [res.status, res.body?.code];
    expect(got).toEqual(expected);
  });
});
