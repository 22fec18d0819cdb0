/**
 * The device list from memory (issue #29): a repeated list read (table or map) is answered without the
 * database, per company; every write to what it shows is announced by the database's triggers (migration
 * 0042), whoever makes it, and shows at once in every API process; one company's writes keep the other
 * companies' lists. Compressed copies are made once and carry the same JSON.
 */

import { brotliDecompressSync } from 'node:zlib';
import { type Db, upsertDeviceStateRows } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, useCachingApps } from '../../../../../test/caching-apps';
import type { TestClient } from '../../../../../test/client';
import { DB_KINDS } from '../../../../../test/databases';
import { createDevice } from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';

const LIST = '/api/v1/core/devices?sort=name';
const MAP = '/api/v1/core/devices?view=map&data_fields=temperature';
/** The map coloured by state: no latest values, kept in memory through a fleet's uplinks. */
const PINS = '/api/v1/core/devices?view=map';

/** What the storage writer writes for one uplink of the device: its latest values, now. */
function writeLatest(db: Db, device: { id: number }, companyId: number, data: Record<string, unknown>) {
  const at = new Date().toISOString();
  const fieldTimes = Object.fromEntries(Object.keys(data).map((field) => [field, at]));
  return upsertDeviceStateRows(db, [
    {
      device_id: device.id,
      company_id: companyId,
      data,
      field_times: fieldTimes,
      latitude: null,
      longitude: null,
      updated_at: at,
    },
  ]);
}

describe.each(DB_KINDS)('the device list from memory on %s', (kind) => {
  const env = useCachingApps(kind);
  let db: Db;
  let apps: FastifyInstance[];
  beforeAll(() => {
    ({ db, apps } = env);
  });
  const signIn = (email: string, app?: FastifyInstance) => env.signIn(email, app);

  const names = async (client: TestClient) => {
    const answer = await client.get(LIST);
    expect(answer.status).toBe(200);
    return (answer.body.payload as { name: string }[]).map((d) => d.name);
  };

  /** A write no trigger announces (replication role): what the cache serves shows in the answer. */
  async function renameSilently(deviceId: number, name: string) {
    await db.transaction(async (tx) => {
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query('UPDATE devices SET name = $1 WHERE id = $2', [name, deviceId]);
    });
  }

  it('answers a repeated read from memory until a write is announced, in every API process', async () => {
    const team = await createTeam(db);
    const device = await createDevice(db, team.company.id, { name: 'Boiler' });
    const here = await signIn(team.plain.email);
    const there = await signIn(team.main.email, apps.at(-1));
    expect(await names(here)).toEqual(['Boiler']);
    expect(await names(there)).toEqual(['Boiler']);
    await renameSilently(device.id, 'Silent');
    expect(await names(here)).toEqual(['Boiler']);
    // A script's write is announced by the trigger as well as the API's own.
    await db.query('UPDATE devices SET name = $1 WHERE id = $2', ['Kettle', device.id]);
    await until('the renamed device here', async () => (await names(here))[0] === 'Kettle');
    await until('the renamed device there', async () => (await names(there))[0] === 'Kettle');
  });

  it("keeps the list through others' sign-ins and shows the API's own change at once", async () => {
    const team = await createTeam(db);
    const device = await createDevice(db, team.company.id, { name: 'Pump' });
    const client = await signIn(team.main.email);
    expect(await names(client)).toEqual(['Pump']);
    await renameSilently(device.id, 'Silent');
    // Signing in (a POST) changes no device list: still what was read before.
    await signIn(team.plain.email);
    expect(await names(client)).toEqual(['Pump']);
    // The API's own change shows in this process's next read, before any announcement could arrive.
    const renamed = await client.put(`/api/v1/core/devices/${device.id}`, { name: 'Main pump' });
    expect(renamed.status).toBe(200);
    expect(await names(client)).toEqual(['Main pump']);
  });

  it("shows the storage writer's latest values at once and keeps other companies' lists", async () => {
    const team = await createTeam(db, { modules: ['map_view'] });
    const other = await createTeam(db);
    const device = await createDevice(db, team.company.id, {
      name: 'Cold room',
      latitude: 52.5,
      longitude: 13.4,
    });
    const theirs = await createDevice(db, other.company.id, { name: 'Theirs' });
    const client = await signIn(team.plain.email);
    const stranger = await signIn(other.plain.email);
    const latest = async () => (await client.get(MAP)).body.payload.data.temperature[0] as number | null;
    expect(await latest()).toBeNull();
    expect(await names(stranger)).toEqual(['Theirs']);
    await renameSilently(theirs.id, 'Silent');
    await writeLatest(db, device, team.company.id, { temperature: 7.5 });
    await until('the latest value on the map', async () => (await latest()) === 7.5);
    expect((await client.get(LIST)).body.payload[0].data).toEqual({ temperature: 7.5 });
    // Company 1's uplink did not clear the other company's list: still what it read before.
    expect(await names(stranger)).toEqual(['Theirs']);
  });

  it("drops the map's pins when a device goes offline or moves, whoever writes it", async () => {
    const team = await createTeam(db, { modules: ['map_view'] });
    const device = await createDevice(db, team.company.id, {
      name: 'Tracker',
      latitude: 52.5,
      longitude: 13.4,
    });
    const client = await signIn(team.plain.email);
    const pins = async () => {
      const answer = await client.get(PINS);
      expect(answer.status).toBe(200);
      const map = answer.body.payload as { is_active: number[]; latitude: number[] };
      return { online: map.is_active[0], latitude: map.latitude[0] };
    };
    await writeLatest(db, device, team.company.id, { temperature: 1 });
    await until('the device online on the map', async () => (await pins()).online === 1);
    // Off-line (the online sweep, a script): announced for the map.
    await db.query('UPDATE device_current SET is_active = false WHERE device_id = $1', [device.id]);
    await until('the device offline on the map', async () => (await pins()).online === 0);
    // Moved (a tracker's position, written to the device by the storage writer): announced for the map.
    await db.query('UPDATE devices SET latitude = 48.1 WHERE id = $1', [device.id]);
    await until('the device moved on the map', async () => (await pins()).latitude === 48.1);
  });

  it('answers the pins from memory through latest values until a map change is announced', async () => {
    const team = await createTeam(db, { modules: ['map_view'] });
    const device = await createDevice(db, team.company.id, { name: 'Gate', latitude: 50, longitude: 8 });
    const client = await signIn(team.plain.email);
    const latitude = async () => (await client.get(PINS)).body.payload.latitude[0] as number;
    /** A move no trigger announces: while the pins come from memory, the old position shows. */
    const moveSilently = (to: number) =>
      db.transaction(async (tx) => {
        await tx.query('SET LOCAL session_replication_role = replica');
        await tx.query('UPDATE devices SET latitude = $1 WHERE id = $2', [to, device.id]);
      });
    expect(await latitude()).toBe(50);
    await moveSilently(51);
    expect(await latitude()).toBe(50);
    // The device's first latest values add its row (online now: announced for the map).
    await writeLatest(db, device, team.company.id, { temperature: 3 });
    await until('the first latest values announced', async () => (await latitude()) === 51);
    // Its next ones change no pin: the list follows them, the pins stay in memory.
    await moveSilently(52);
    await writeLatest(db, device, team.company.id, { temperature: 4 });
    // Both channels' notifications of one transaction arrive together: once the table shows the values,
    // a map announcement of theirs would have arrived too.
    await until(
      'the latest values in the table',
      async () => (await client.get(LIST)).body.payload[0].data?.temperature === 4,
    );
    expect(await latitude()).toBe(51);
  });

  it('sends the compressed copy the client accepts, the same JSON as the plain answer', async () => {
    const team = await createTeam(db);
    for (let i = 0; i < 30; i++) await createDevice(db, team.company.id, { name: `Sensor ${i}` });
    const client = await signIn(team.plain.email);
    const plain = await client.get(LIST);
    const app = apps[0] as FastifyInstance;
    for (let round = 0; round < 2; round++) {
      const br = await app.inject({
        method: 'GET',
        url: LIST,
        headers: { cookie: client.cookieHeader(), 'accept-encoding': 'gzip, deflate, br' },
      });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toContain('accept-encoding');
      expect(br.headers['content-type']).toContain('application/json');
      expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.body);
    }
  });
});
