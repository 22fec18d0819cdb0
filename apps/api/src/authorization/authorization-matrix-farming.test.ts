/**
 * The farming rows of the authorization matrix (matrix-farming-routes.ts) against every kind of caller,
 * each case in a fresh world whose two companies are licensed for farming.
 */
import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app';
import { TestClient } from '../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../test/databases';
import { PASSWORD } from '../test/fixtures';
import { FARMING_PLACEHOLDERS, FARMING_ROWS, type FarmingWorld } from './matrix-farming-routes';
import { ACTORS, createWorld } from './matrix-world';

const CASES = FARMING_ROWS.flatMap((row) =>
  ACTORS.map((actor, i) => ({ row, actor, expected: row.expect[i]!, path: row.path(FARMING_PLACEHOLDERS) })),
);

async function createFarmingWorld(db: Db, countryId: number, stateId: number) {
  const { world, emails } = await createWorld(db, countryId, stateId);
  await db.query(
    `UPDATE companies SET modules = array_append(modules, 'farming'), country_id = $2
      WHERE id = $1 OR id IN (SELECT company_id FROM users WHERE email = $3)`,
    [world.homeId, countryId, emails.otherMain],
  );
  const one = async (sql: string) =>
    (await db.query<{ id: number }>(`${sql} RETURNING id::int AS id`, [world.homeId])).rows[0]!.id;
  const farming: FarmingWorld = {
    homeDeviceId: world.homeDeviceId,
    homeFieldId: await one(`INSERT INTO farming_fields (company_id, name) VALUES ($1, 'Matrix field')`),
    homeParcelId: await one(
      `INSERT INTO parcels (company_id, parcel_id, registration_number, size_m2) VALUES ($1, '1', 'DEBWLI0883800010', 100)`,
    ),
    homeTaskId: await one(
      `INSERT INTO tasks (company_id, title, type) VALUES ($1, 'Matrix task', 'harvest')`,
    ),
    homeSoilId: await one(
      `INSERT INTO soils (company_id, code, name, name_en) VALUES ($1, 'own-soil', 'Eigen', 'Own')`,
    ),
    homePlantId: await one(
      `INSERT INTO plants (company_id, code, name, name_en) VALUES ($1, 'own-plant', 'Eigen', 'Own')`,
    ),
  };
  return { farming, emails };
}

describe.each(DB_KINDS)('farming authorization matrix on %s', (kind) => {
  let testDb: TestDb;
  let app: FastifyInstance;
  let countryId: number;
  let stateId: number;

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    app = buildTestApp(testDb.db);
    await app.ready();
    const { rows } = await testDb.db.query<{ country_id: number; state_id: number }>(
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
    const { farming, emails } = await createFarmingWorld(testDb.db, countryId, stateId);
    const client = new TestClient(app);
    if (actor === 'anonymous') await client.csrf();
    else await client.login(emails[actor], PASSWORD);
    const res = await client.request(
      row.method,
      row.path(farming),
      row.body?.(farming) ?? (row.method === 'GET' || row.method === 'DELETE' ? undefined : {}),
    );
    const got = res.status === 200 ? 200 : [res.status, res.body?.code];
    expect(got).toEqual(expected);
  });
});
