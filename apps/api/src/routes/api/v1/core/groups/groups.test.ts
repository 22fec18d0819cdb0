import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { createDevice, createGroup } from '../../../../../test/device-fixtures';
import { createTeam, PASSWORD } from '../../../../../test/fixtures';

forEachDb((suite) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = buildTestApp(suite.db);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  async function signIn(email: string) {
    const client = new TestClient(app);
    await client.login(email, PASSWORD);
    return client;
  }

  /** device id -> group id of the company's devices, straight from the database. */
  async function assignments(companyId: number) {
    const { rows } = await suite.db.query<{ id: number; group_id: number | null }>(
      'SELECT id::int AS id, group_id::int AS group_id FROM devices WHERE company_id = $1 ORDER BY id',
      [companyId],
    );
    return Object.fromEntries(rows.map((r) => [r.id, r.group_id]));
  }

  async function groupNames(companyId: number) {
    const { rows } = await suite.db.query<{ name: string }>(
      'SELECT name FROM groups WHERE company_id = $1 ORDER BY id',
      [companyId],
    );
    return rows.map((r) => r.name);
  }

  describe('/core/groups', () => {
    it('creates a group with devices, lists it, reads it, edits it and deletes it', async () => {
      const team = await createTeam(suite.db);
      const [a, b, c] = [
        await createDevice(suite.db, team.company.id),
        await createDevice(suite.db, team.company.id),
        await createDevice(suite.db, team.company.id),
      ];
      const main = await signIn(team.main.email);
      const created = await main.post('/api/v1/core/groups', {
        name: ' Keller ',
        description: 'Sensoren im Keller',
        device_ids: [b!.id, a!.id, a!.id],
      });
      expect(created.status).toBe(200);
      const group = created.body.payload;
      expect(group).toMatchObject({
        name: 'Keller',
        description: 'Sensoren im Keller',
        device_count: 2,
        device_ids: [a!.id, b!.id],
      });
      expect(await assignments(team.company.id)).toEqual({
        [a!.id]: group.id,
        [b!.id]: group.id,
        [c!.id]: null,
      });

      await main.post('/api/v1/core/groups', { name: 'Außen' });
      const list = await main.get('/api/v1/core/groups');
      expect(
        list.body.payload.map((g: { name: string; device_count: number }) => [g.name, g.device_count]),
      ).toEqual([
        ['Außen', 0],
        ['Keller', 2],
      ]);
      const one = await main.get(`/api/v1/core/groups/${group.id}`);
      expect(one.body.payload).toEqual(group);

      // device_ids replaces the group's devices: b and c in, a out.
      const edited = await main.put(`/api/v1/core/groups/${group.id}`, {
        name: 'Keller Nord',
        device_ids: [c!.id, b!.id],
      });
      expect(edited.status).toBe(200);
      expect(edited.body.payload).toMatchObject({
        name: 'Keller Nord',
        device_ids: [b!.id, c!.id],
        device_count: 2,
      });
      expect(await assignments(team.company.id)).toEqual({
        [a!.id]: null,
        [b!.id]: group.id,
        [c!.id]: group.id,
      });

      // The device list's group_id filter sees the same.
      const devices = await main.get(`/api/v1/core/devices?group_id=${group.id}&sort=id`);
      expect(devices.body.payload.map((d: { id: number }) => d.id)).toEqual(
        [b!.id, c!.id].sort((x, y) => x - y),
      );

      // Without device_ids the devices stay; an empty list unassigns all.
      await main.put(`/api/v1/core/groups/${group.id}`, { description: null });
      expect((await main.get(`/api/v1/core/groups/${group.id}`)).body.payload).toMatchObject({
        description: null,
        device_count: 2,
      });
      await main.put(`/api/v1/core/groups/${group.id}`, { device_ids: [] });
      expect(await assignments(team.company.id)).toEqual({ [a!.id]: null, [b!.id]: null, [c!.id]: null });

      await main.put(`/api/v1/core/groups/${group.id}`, { device_ids: [a!.id] });
      const deleted = await main.delete(`/api/v1/core/groups/${group.id}`);
      expect(deleted.body).toEqual({ payload: { id: group.id } });
      expect(await assignments(team.company.id)).toEqual({ [a!.id]: null, [b!.id]: null, [c!.id]: null });
      expect(await groupNames(team.company.id)).toEqual(['Außen']);
      const gone = await main.get(`/api/v1/core/groups/${group.id}`);
      expect([gone.status, gone.body.code]).toEqual([404, 46]);
    });

    it('moves a device from another group of the company when it is assigned', async () => {
      const team = await createTeam(suite.db);
      const first = await createGroup(suite.db, team.company.id, 'Erste');
      const device = await createDevice(suite.db, team.company.id, { group_id: first });
      const admin = await signIn(team.admin.email);
      const second = await admin.post('/api/v1/core/groups', { name: 'Zweite', device_ids: [device.id] });
      expect(await assignments(team.company.id)).toEqual({ [device.id]: second.body.payload.id });
      expect((await admin.get(`/api/v1/core/groups/${first}`)).body.payload.device_ids).toEqual([]);
    });

    // Spec section 5: required name (error.required), text up to 255; names unique per company (49).
    it.each([
      [{ name: '' }, 422, 422, 'name', 'error.required'],
      [{ name: '   ' }, 422, 422, 'name', 'error.required'],
      [{ name: null }, 422, 422, 'name', 'error.required'],
      [{ name: 'x'.repeat(256) }, 422, 422, 'name', 'error.maxlength'],
      [{ name: 'Taken' }, 409, 49, 'name', 'error.unknown'],
      [{ name: ' taken ' }, 409, 49, 'name', 'error.unknown'],
    ])('refuses %j with %i/%i', async (body, status, code, field, key) => {
      const team = await createTeam(suite.db);
      await createGroup(suite.db, team.company.id, 'Taken');
      const main = await signIn(team.main.email);
      const res = await main.post('/api/v1/core/groups', body);
      expect([res.status, res.body.code]).toEqual([status, code]);
      expect(res.body.details.fields[field].key).toBe(key);
      expect(await groupNames(team.company.id)).toEqual(['Taken']);
    });

    it('refuses a body outside the schema (422) and a rename onto a taken name (49)', async () => {
      const team = await createTeam(suite.db);
      const mine = await createGroup(suite.db, team.company.id, 'Mine');
      await createGroup(suite.db, team.company.id, 'Other');
      const main = await signIn(team.main.email);
      for (const body of [{}, { name: 'A', device_ids: ['x'] }, { name: 'A', device_ids: [0] }]) {
        const res = await main.post('/api/v1/core/groups', body);
        expect([res.status, res.body.code], JSON.stringify(body)).toEqual([422, 422]);
      }
      const rename = await main.put(`/api/v1/core/groups/${mine}`, { name: 'OTHER' });
      expect([rename.status, rename.body.code]).toEqual([409, 49]);
      // Renaming a group to its own name (another case) is fine.
      const same = await main.put(`/api/v1/core/groups/${mine}`, { name: 'MINE' });
      expect(same.body.payload.name).toBe('MINE');
      expect(await groupNames(team.company.id)).toEqual(['MINE', 'Other']);
    });

    it("refuses another company's device ids (422/51) and changes nothing", async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const mine = await createDevice(suite.db, team.company.id);
      const theirs = await createDevice(suite.db, other.company.id);
      const group = await createGroup(suite.db, team.company.id, 'Keller');
      const main = await signIn(team.main.email);
      await main.put(`/api/v1/core/groups/${group}`, { device_ids: [mine.id] });

      const put = await main.put(`/api/v1/core/groups/${group}`, {
        name: 'Renamed',
        device_ids: [theirs.id],
      });
      expect([put.status, put.body.code]).toEqual([422, 51]);
      expect(put.body.details.device_ids).toEqual([theirs.id]);
      const post = await main.post('/api/v1/core/groups', { name: 'New', device_ids: [mine.id, theirs.id] });
      expect([post.status, post.body.code]).toEqual([422, 51]);
      const unknown = await main.post('/api/v1/core/groups', { name: 'New', device_ids: [2_000_000_000] });
      expect([unknown.status, unknown.body.code]).toEqual([422, 51]);

      expect(await assignments(team.company.id)).toEqual({ [mine.id]: group });
      expect(await assignments(other.company.id)).toEqual({ [theirs.id]: null });
      expect(await groupNames(team.company.id)).toEqual(['Keller']);
    });

    it('lets plain users read only (90005)', async () => {
      const team = await createTeam(suite.db);
      const group = await createGroup(suite.db, team.company.id, 'Keller');
      const device = await createDevice(suite.db, team.company.id);
      const plain = await signIn(team.plain.email);
      expect((await plain.get('/api/v1/core/groups')).body.payload.map((g: { id: number }) => g.id)).toEqual([
        group,
      ]);
      expect((await plain.get(`/api/v1/core/groups/${group}`)).status).toBe(200);
      for (const res of [
        await plain.post('/api/v1/core/groups', { name: 'Mine' }),
        await plain.put(`/api/v1/core/groups/${group}`, { name: 'Renamed', device_ids: [device.id] }),
        await plain.delete(`/api/v1/core/groups/${group}`),
      ]) {
        expect([res.status, res.body.code]).toEqual([403, 90005]);
      }
      expect(await groupNames(team.company.id)).toEqual(['Keller']);
      expect(await assignments(team.company.id)).toEqual({ [device.id]: null });
    });

    it("answers 46 for another company's group on every route and changes nothing", async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const theirDevice = await createDevice(suite.db, other.company.id);
      const theirs = await createGroup(suite.db, other.company.id, 'Theirs');
      await suite.db.query('UPDATE devices SET group_id = $1 WHERE id = $2', [theirs, theirDevice.id]);
      const main = await signIn(team.main.email);
      expect((await main.get('/api/v1/core/groups')).body.payload).toEqual([]);
      for (const res of [
        await main.get(`/api/v1/core/groups/${theirs}`),
        await main.put(`/api/v1/core/groups/${theirs}`, { name: 'Hijacked', device_ids: [] }),
        await main.delete(`/api/v1/core/groups/${theirs}`),
      ]) {
        expect([res.status, res.body.code]).toEqual([404, 46]);
      }
      expect(await groupNames(other.company.id)).toEqual(['Theirs']);
      expect(await assignments(other.company.id)).toEqual({ [theirDevice.id]: theirs });
    });

    it('needs the CSRF token for writes (77) and changes nothing without it', async () => {
      const team = await createTeam(suite.db);
      const group = await createGroup(suite.db, team.company.id, 'Keller');
      const main = await signIn(team.main.email);
      for (const res of [
        await main.post('/api/v1/core/groups', { name: 'New' }, { csrf: false }),
        await main.put(`/api/v1/core/groups/${group}`, { name: 'Renamed' }, { csrf: 'forged' }),
        await main.delete(`/api/v1/core/groups/${group}`, { csrf: false }),
      ]) {
        expect([res.status, res.body.code]).toEqual([419, 77]);
      }
      expect(await groupNames(team.company.id)).toEqual(['Keller']);
    });

    it('keeps names unique when two creates race', async () => {
      const team = await createTeam(suite.db);
      const main = await signIn(team.main.email);
      const admin = await signIn(team.admin.email);
      const answers = await Promise.all([
        main.post('/api/v1/core/groups', { name: 'Race' }),
        admin.post('/api/v1/core/groups', { name: 'race' }),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await groupNames(team.company.id)).toHaveLength(1);
    });
  });
});
