/**
 * Closed chart buckets from memory (issue #30): a repeated rolled-up read takes its closed buckets from
 * memory, per device and company, until the database announces a late row or a deleted rollup of the device
 * (migrations 0045, 0046); the device is checked for the reader's company on every read.
 */
import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, useCachingApps } from '../../../../../test/caching-apps';
import type { TestClient } from '../../../../../test/client';
import { DB_KINDS } from '../../../../../test/databases';
import { createDevice } from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';

const DAY_MS = 86_400_000;
/** Ten days of a month ago: every bucket long closed. */
const T0 = Math.floor((Date.now() - 40 * DAY_MS) / DAY_MS) * DAY_MS;

async function seedTenDays(db: Db, deviceId: number, companyId: number) {
  await db.query(
    `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
     SELECT $1, $2, $3::timestamptz + make_interval(mins => 10 * g),
            jsonb_build_object('temperature', 10 + g % 7), g::text
       FROM generate_series(0, 10 * 144 - 1) AS g`,
    [deviceId, companyId, new Date(T0).toISOString()],
  );
}

/** A chart of the ten days at day buckets (20 points at most), as the console asks for it. */
const chart = (id: number) =>
  `/api/v1/core/data/${id}?shape=flat&data_fields=temperature&max_points=20` +
  `&tsstart=${new Date(T0 - 3_600_000).toISOString()}&tsend=${new Date(T0 + 10 * DAY_MS + 3_600_000).toISOString()}`;

interface Point {
  created_at: string;
  max: Record<string, number | null>;
}

describe.each(DB_KINDS)('closed chart buckets from memory on %s', (kind) => {
  const env = useCachingApps(kind);
  let db: Db;
  let apps: FastifyInstance[];
  beforeAll(() => {
    ({ db, apps } = env);
  });

  const maxima = async (client: TestClient, id: number) => {
    const answer = await client.get(chart(id));
    expect(answer.status).toBe(200);
    const payload = answer.body.payload as { bucket_seconds: number; points: Point[] };
    expect(payload.bucket_seconds).toBe(86_400);
    return payload.points.map((p) => p.max.temperature);
  };

  it('keeps closed buckets until a deleted rollup is announced, in every API process', async () => {
    const team = await createTeam(db);
    const device = await createDevice(db, team.company.id, { name: 'Cold room' });
    await seedTenDays(db, device.id, team.company.id);
    const here = await env.signIn(team.main.email);
    const there = await env.signIn(team.plain.email, apps.at(-1));
    const before = await maxima(here, device.id);
    expect(before).toHaveLength(10);
    expect(new Set(before)).toEqual(new Set([16]));
    expect(await maxima(there, device.id)).toEqual(before);
    // The first day's stored blocks changed where nothing announces it (replication role): memory still answers.
    await db.transaction(async (tx) => {
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query(
        `UPDATE device_rollups SET stats = array_fill(1000::float8, ARRAY[cardinality(stats)])
          WHERE hours = 6 AND hour < $2 AND series = (SELECT id FROM device_series WHERE device_id = $1)`,
        [device.id, new Date(T0 + DAY_MS)],
      );
    });
    expect(await maxima(here, device.id)).toEqual(before);
    expect(await maxima(there, device.id)).toEqual(before);
    // A late row deletes its hour and block; the announcement drops the device's buckets everywhere.
    await db.query(
      `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
       VALUES ($1, $2, $3, '{"temperature": 99}', 'late')`,
      [device.id, team.company.id, new Date(T0 + 2 * DAY_MS + 5 * 60_000)],
    );
    for (const client of [here, there]) {
      await until('the late row', async () => (await maxima(client, device.id))[2] === 99);
      // Read again from the database: the blocks changed silently show now too.
      expect((await maxima(client, device.id))[0]).toBe(1000);
    }
  });

  it("never answers another company's reader from memory", async () => {
    const team = await createTeam(db);
    const stranger = await createTeam(db);
    const device = await createDevice(db, team.company.id, { name: 'Meter' });
    await seedTenDays(db, device.id, team.company.id);
    const owner = await env.signIn(team.main.email);
    expect(await maxima(owner, device.id)).toHaveLength(10);
    const other = await env.signIn(stranger.main.email);
    const answer = await other.get(chart(device.id));
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe(10);
  });
});
