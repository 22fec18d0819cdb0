/**
 * The alarm poll from memory (issue #29): a repeated poll is answered without the database, and every
 * change shows at once: through the API (in every API process), announced by the rules worker's
 * transactions (`announceAlarmsChanged`), or to the company. Per company and language, never across.
 */
import { announceAlarmsChanged, type Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, useCachingApps } from '../../../../../test/caching-apps';
import type { TestClient } from '../../../../../test/client';
import { DB_KINDS } from '../../../../../test/databases';
import { createDevice } from '../../../../../test/device-fixtures';
import { createTeam, createUser } from '../../../../../test/fixtures';

const POLL = '/api/v1/core/devices/alarms?state=open';

describe.each(DB_KINDS)('the alarm poll from memory on %s', (kind) => {
  const env = useCachingApps(kind);
  let db: Db;
  let apps: FastifyInstance[];
  beforeAll(() => {
    ({ db, apps } = env);
  });
  const signIn = (email: string, app?: FastifyInstance) => env.signIn(email, app);

  async function insertAlarm(companyId: number, deviceId: number, q = db): Promise<number> {
    const { rows } = await q.query<{ id: number }>(
      `INSERT INTO alarms (company_id, device_id, value, data_field) VALUES ($1, $2, 31.5, 'temperature')
       RETURNING id::int AS id`,
      [companyId, deviceId],
    );
    return rows[0]!.id;
  }

  const ids = async (client: TestClient) => {
    const answer = await client.get(POLL);
    expect(answer.status).toBe(200);
    return (answer.body.payload as { id: number }[]).map((a) => a.id);
  };

  it('answers a repeated poll from memory until a change is announced', async () => {
    const team = await createTeam(db);
    const device = await createDevice(db, team.company.id);
    const first = await insertAlarm(team.company.id, device.id);
    const plain = await signIn(team.plain.email);
    expect(await ids(plain)).toEqual([first]);
    // Written behind the API's back and not announced: the poll still answers what it read.
    const silent = await insertAlarm(team.company.id, device.id);
    expect(await ids(plain)).toEqual([first]);
    // The rules worker announces in the transaction that raises.
    const announced = await db.transaction(async (tx) => {
      const id = await insertAlarm(team.company.id, device.id, tx as unknown as Db);
      await announceAlarmsChanged(tx);
      return id;
    });
    await until('the announced alarm', async () => (await ids(plain)).includes(announced));
    expect(await ids(plain)).toEqual([announced, silent, first]);
  });

  it('shows a change through the API at once, in every API process', async () => {
    const team = await createTeam(db);
    const device = await createDevice(db, team.company.id, { name: 'Cold store' });
    const id = await insertAlarm(team.company.id, device.id);
    const here = await signIn(team.plain.email);
    const there = await signIn(team.main.email, apps.at(-1));
    expect((await there.get(POLL)).body.payload[0]).toMatchObject({ id, state: 'raised' });
    const acknowledged = await here.put(`/api/v1/core/devices/alarms/${id}/acknowledge`);
    expect(acknowledged.status).toBe(200);
    expect((await here.get(POLL)).body.payload[0]).toMatchObject({ id, state: 'acknowledged' });
    await until('the other process to see the acknowledgement', async () => {
      return (await there.get(POLL)).body.payload[0]?.state === 'acknowledged';
    });
    const renamed = await there.put(`/api/v1/core/devices/${device.id}`, { name: 'Freezer' });
    expect(renamed.status).toBe(200);
    await until('the renamed device', async () => {
      return (await here.get(POLL)).body.payload[0]?.device_name === 'Freezer';
    });
  });

  it('keeps companies and languages apart', async () => {
    const team = await createTeam(db);
    const other = await createTeam(db);
    const device = await createDevice(db, team.company.id);
    const otherDevice = await createDevice(db, other.company.id);
    const ours = await insertAlarm(team.company.id, device.id);
    const theirs = await insertAlarm(other.company.id, otherDevice.id);
    await db.query(`UPDATE alarms SET message = 'Too warm', details = '{"reason":"above"}' WHERE id = $1`, [
      ours,
    ]);
    await db.query(
      `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value)
       VALUES ($1, $2, 'Hot', 'data', 'temperature', 'gte', 30)`,
      [team.company.id, device.id],
    );
    await db.query(`UPDATE alarms SET rule_id = (SELECT id FROM rules WHERE company_id = $1) WHERE id = $2`, [
      team.company.id,
      ours,
    ]);
    const german = await createUser(db, team.company.id, { locale: 'de' });
    const english = await signIn(team.plain.email);
    const deutsch = await signIn(german.email);
    const stranger = await signIn(other.plain.email);
    expect(await ids(english)).toEqual([ours]);
    expect(await ids(stranger)).toEqual([theirs]);
    const en = (await english.get(POLL)).body.payload[0].message;
    const de = (await deutsch.get(POLL)).body.payload[0].message;
    expect(en).toContain('Hot');
    expect(de).toContain('Hot');
    expect(de).not.toBe(en);
  });
});
