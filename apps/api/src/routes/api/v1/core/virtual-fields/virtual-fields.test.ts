import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { createDevice } from '../../../../../test/device-fixtures';
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

  async function world() {
    const team = await createTeam(suite.db);
    const device = await createDevice(suite.db, team.company.id, {
      device_details: { data_fields: ['temperature', 'humidity'] },
    });
    return { team, device, client: await signIn(team.main.email) };
  }

  async function fieldRows(deviceId: number) {
    const { rows } = await suite.db.query<Record<string, unknown>>(
      `SELECT id::int AS id, company_id::int AS company_id, uuid::text AS uuid, name, unit, formula, function, mapping,
              store, state FROM virtual_data_fields WHERE device_id = $1 ORDER BY id`,
      [deviceId],
    );
    return rows;
  }

  const url = (id: number) => `/api/v1/core/devices/${id}/virtual_data_fields`;

  describe('POST /core/devices/virtual_data_fields (preview)', () => {
    // [case, body, value, numeric, error]
    const PREVIEWS: [string, Record<string, unknown>, unknown, number | null, string | null][] = [
      ['a formula', { formula: 'temperature * 2 + 32', data_fields: { temperature: 21 } }, 74, 74, null],
      [
        'a mapping',
        { formula: 'temperature > 30', mapping: { '1': 'hot', '0': 'ok' }, data_fields: { temperature: 35 } },
        'hot',
        1,
        null,
      ],
      [
        'a function without formula (one event)',
        { function: 'count_up_hourly', data_fields: {} },
        1,
        1,
        null,
      ],
      [
        'a missing input',
        { formula: 'temperature + humidity', data_fields: { temperature: 1, humidity: null } },
        null,
        null,
        'missing_input',
      ],
      [
        'a non-finite result',
        { formula: 'sqrt(temperature)', data_fields: { temperature: -1 } },
        null,
        null,
        'non_finite',
      ],
    ];
    it.each(PREVIEWS)('computes %s', async (_case, body, value, numeric, error) => {
      const { client } = await world();
      const res = await client.post('/api/v1/core/devices/virtual_data_fields', body);
      expect(res.status).toBe(200);
      expect(res.body.payload).toMatchObject({ value, numeric, error });
      expect(res.body.payload.data_field).toMatch(/^virtual\.[0-9a-f-]{36}\.preview$/);
    });

    // [case, body, status, code, problem]
    const ERRORS: [string, Record<string, unknown>, number, number, string | undefined][] = [
      ['89 syntax', { formula: 'temperature *', data_fields: { temperature: 1 } }, 422, 89, 'syntax'],
      [
        '89 unknown field',
        { formula: 'pressure * 2', data_fields: { temperature: 1 } },
        422,
        89,
        'unknown_field',
      ],
      [
        '89 forbidden function',
        { formula: 'evaluate(temperature)', data_fields: { temperature: 1 } },
        422,
        89,
        'forbidden_function',
      ],
      [
        '89 property access',
        { formula: 'temperature.constructor', data_fields: { temperature: 1 } },
        422,
        89,
        undefined,
      ],
      [
        '89 division by zero',
        { formula: 'temperature / 0', data_fields: { temperature: 1 } },
        422,
        89,
        'division_by_zero',
      ],
      ['89 empty', { formula: ' ', data_fields: {} }, 422, 89, 'empty'],
      [
        '90 function',
        { formula: 'temperature', function: 'median', data_fields: { temperature: 1 } },
        422,
        90,
        undefined,
      ],
      [
        '88 name',
        { name: 'a{b}', formula: 'temperature', data_fields: { temperature: 1 } },
        422,
        88,
        undefined,
      ],
      [
        '84 field without device',
        { formula: 'temperature', field_id: 5, data_fields: { temperature: 1 } },
        404,
        84,
        undefined,
      ],
    ];
    it.each(ERRORS)('answers %s', async (_case, body, status, code, problem) => {
      const { client } = await world();
      const res = await client.post('/api/v1/core/devices/virtual_data_fields', body);
      expect([res.status, res.body.code]).toEqual([status, code]);
      if (problem) expect(res.body.details.problem).toBe(problem);
    });

    it("reads the device's fields with device_id; 91 for a name the device has; 10 for another company's device", async () => {
      const { device, client } = await world();
      const saved = await client.post(url(device.id), { name: 'F', formula: 'temperature * 2' });
      const key = saved.body.payload.data_field;
      const res = await client.post('/api/v1/core/devices/virtual_data_fields', {
        name: 'G',
        formula: `{${key}} + humidity`,
        device_id: device.id,
        data_fields: { temperature: 10, humidity: 1 },
      });
      expect(res.body.payload).toMatchObject({ value: 21 });
      const taken = await client.post('/api/v1/core/devices/virtual_data_fields', {
        name: 'F',
        formula: 'humidity',
        device_id: device.id,
        data_fields: {},
      });
      expect([taken.status, taken.body.code]).toEqual([409, 91]);
      const stranger = await createTeam(suite.db);
      const other = await signIn(stranger.main.email);
      const foreign = await other.post('/api/v1/core/devices/virtual_data_fields', {
        formula: 'temperature',
        device_id: device.id,
        data_fields: {},
      });
      expect([foreign.status, foreign.body.code]).toEqual([404, 10]);
    });
  });

  describe('/core/devices/{id}/virtual_data_fields', () => {
    it('creates, lists, updates (state reset, rules follow a rename) and deletes', async () => {
      const { team, device, client } = await world();
      const created = await client.post(url(device.id), {
        name: 'Energy',
        unit: 'kWh',
        formula: 'humidity / 10',
        function: 'sum_up',
        mapping: { '..0': 'none' },
        store: false,
      });
      expect(created.status).toBe(200);
      const field = created.body.payload;
      expect(field).toMatchObject({ name: 'Energy', unit: 'kWh', function: 'sum_up', store: false });
      expect(field.data_field).toBe(`virtual.${field.uuid}.Energy`);
      expect(await fieldRows(device.id)).toMatchObject([
        { company_id: team.company.id, uuid: field.uuid, store: false },
      ]);

      const plain = await signIn(team.plain.email);
      const list = await plain.get(url(device.id));
      expect(list.body.payload).toEqual([field]);

      const rule = await client.put(`/api/v1/core/devices/${device.id}`, {
        rules: [{ trigger: 'data', data_field: field.data_field, operator: 'gte', value: 5 }],
      });
      expect(rule.status).toBe(200);
      await suite.db.query(`UPDATE virtual_data_fields SET state = '{"total": 3}' WHERE id = $1`, [field.id]);
      const renamed = await client.put(`${url(device.id)}/${field.id}`, { name: 'Energy total' });
      expect(renamed.body.payload).toMatchObject({
        name: 'Energy total',
        formula: 'humidity / 10',
        unit: 'kWh',
      });
      expect((await fieldRows(device.id))[0]).toMatchObject({ state: { total: 3 } });
      const { rows } = await suite.db.query<{ data_field: string }>(
        'SELECT data_field FROM rules WHERE device_id = $1',
        [device.id],
      );
      expect(rows).toEqual([{ data_field: `virtual.${field.uuid}.Energy total` }]);
      await client.put(`${url(device.id)}/${field.id}`, { formula: 'humidity' });
      expect((await fieldRows(device.id))[0]).toMatchObject({ state: {}, formula: 'humidity' });

      const removed = await client.delete(`${url(device.id)}/${field.id}`);
      expect(removed.body.payload).toEqual({ id: field.id });
      expect(await fieldRows(device.id)).toEqual([]);
      const again = await client.delete(`${url(device.id)}/${field.id}`);
      expect([again.status, again.body.code]).toEqual([404, 84]);
    });

    it('refuses bad definitions with 88-91 and writes nothing', async () => {
      const { device, client } = await world();
      await client.post(url(device.id), { name: 'A', formula: 'temperature' });
      const cases: [Record<string, unknown>, number][] = [
        [{ name: '', formula: 'temperature' }, 88],
        [{ name: 'x'.repeat(101), formula: 'temperature' }, 88],
        [{ name: 'B', formula: 'import("fs")' }, 89],
        [{ name: 'B', formula: 'unknown_field + 1' }, 89],
        [{ name: 'B' }, 89],
        [{ name: 'B', function: 'count_up_weekly' }, 90],
        [{ name: 'A', formula: 'humidity' }, 91],
      ];
      for (const [body, code] of cases) {
        const res = await client.post(url(device.id), body);
        expect([body, res.body.code]).toEqual([body, code]);
      }
      expect((await fieldRows(device.id)).map((r) => r.name)).toEqual(['A']);
    });

    it('refuses a cycle through another field (89 cycle) on update', async () => {
      const { device, client } = await world();
      const a = (await client.post(url(device.id), { name: 'a', formula: 'temperature' })).body.payload;
      const b = (await client.post(url(device.id), { name: 'b', formula: `{${a.data_field}} + 1` })).body
        .payload;
      const res = await client.put(`${url(device.id)}/${a.id}`, { formula: `{${b.data_field}} * 2` });
      expect([res.status, res.body.code, res.body.details.problem]).toEqual([422, 89, 'cycle']);
      expect((await fieldRows(device.id))[0]).toMatchObject({ formula: 'temperature' });
    });

    it('is scoped to the company (10 for the device, 84 for a field of another device) and to managers (90004)', async () => {
      const { team, device, client } = await world();
      const field = (await client.post(url(device.id), { name: 'A', formula: 'temperature' })).body.payload;
      const otherDevice = await createDevice(suite.db, team.company.id);
      const wrongDevice = await client.put(`${url(otherDevice.id)}/${field.id}`, { name: 'B' });
      expect([wrongDevice.status, wrongDevice.body.code]).toEqual([404, 84]);
      const stranger = await createTeam(suite.db);
      const other = await signIn(stranger.main.email);
      for (const res of [
        await other.get(url(device.id)),
        await other.post(url(device.id), { name: 'X', formula: 'temperature' }),
        await other.put(`${url(device.id)}/${field.id}`, { name: 'X' }),
        await other.delete(`${url(device.id)}/${field.id}`),
      ])
        expect([res.status, res.body.code]).toEqual([404, 10]);
      const plain = await signIn(team.plain.email);
      expect((await plain.post(url(device.id), { name: 'X', formula: 'temperature' })).body.code).toBe(90004);
      expect((await plain.delete(`${url(device.id)}/${field.id}`)).body.code).toBe(90004);
      const noCsrf = await client.post(
        url(device.id),
        { name: 'Y', formula: 'temperature' },
        { csrf: false },
      );
      expect(noCsrf.body.code).toBe(77);
      expect((await fieldRows(device.id)).map((r) => r.name)).toEqual(['A']);
    });
  });
});
