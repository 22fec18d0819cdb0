import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
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
    const device = await createDevice(suite.db, team.company.id);
    return { team, device, client: await signIn(team.main.email) };
  }

  async function checkRows(deviceId: number) {
    const { rows } = await suite.db.query<Record<string, unknown>>(
      `SELECT id::int AS id, company_id::int AS company_id, kind, data_field, max_silence_seconds, min_value, max_value,
              is_active, state FROM sensor_checks WHERE device_id = $1 ORDER BY id`,
      [deviceId],
    );
    return rows;
  }

  const url = (id: number) => `/api/v1/core/devices/${id}/sensor_checks`;

  it('POST /core/devices/sensor_checks answers the kinds and the spec bounds (section 5) per field', async () => {
    const { team } = await world();
    const plain = await signIn(team.plain.email);
    const res = await plain.post('/api/v1/core/devices/sensor_checks', {
      data_fields: ['temperature', 'signal_strength', 'dew_point', 'brightness', 'distance'],
    });
    expect(res.body.payload).toEqual({
      kinds: ['no_data', 'implausible_value', 'battery_low'],
      data_fields: [
        { data_field: 'temperature', min: -20, max: 100, step: 1 },
        { data_field: 'signal_strength', min: 1, max: 5, step: 1 },
        { data_field: 'dew_point', min: -10, max: 20, step: 1 },
        { data_field: 'brightness', min: 0, max: 20_000, step: 10 },
        { data_field: 'distance', min: 0, max: 100_000, step: 1 },
      ],
    });
  });

  // [case, body, stored]
  const STORED: [string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>][] = [
    [
      'no_data',
      { kind: 'no_data', max_silence_seconds: 3600 },
      { kind: 'no_data', max_silence_seconds: 3600, min_value: null },
      { level: null },
    ],
    [
      'implausible_value with spec default bounds',
      { kind: 'implausible_value', data_field: 'temperature' },
      { data_field: 'temperature', min_value: -20, max_value: 100 },
      { min_value: -20, max_value: 100 },
    ],
    [
      'implausible_value with own upper bound',
      { kind: 'implausible_value', data_field: 'humidity', max_value: 95 },
      { min_value: 0, max_value: 95 },
      {},
    ],
    [
      'battery_low (migration 0010)',
      { kind: 'battery_low', level: 20 },
      { kind: 'battery_low', min_value: 20 },
      { level: 20, min_value: null },
    ],
  ];
  it.each(STORED)('stores %s', async (_case, body, row, payload) => {
    const { team, device, client } = await world();
    const res = await client.post(url(device.id), body);
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject(payload);
    expect(await checkRows(device.id)).toMatchObject([
      { ...row, company_id: team.company.id, is_active: true },
    ]);
  });

  // [case, body, fields]
  const INVALID: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['unknown kind', { kind: 'smoke' }, { kind: { key: 'error.unknown' } }],
    ['no_data without seconds', { kind: 'no_data' }, { max_silence_seconds: { key: 'error.required' } }],
    [
      'no_data with 0 seconds',
      { kind: 'no_data', max_silence_seconds: 0 },
      { max_silence_seconds: { key: 'error.min' } },
    ],
    [
      'implausible_value without field',
      { kind: 'implausible_value' },
      { data_field: { key: 'error.required' } },
    ],
    [
      'min above max',
      { kind: 'implausible_value', data_field: 'x', min_value: 5, max_value: 1 },
      { max_value: { key: 'error.min' } },
    ],
    ['battery_low without level', { kind: 'battery_low' }, { level: { key: 'error.required' } }],
    ['battery level 150', { kind: 'battery_low', level: 150 }, { level: { key: 'error.range' } }],
  ];
  it.each(INVALID)('refuses %s with 422 and writes nothing', async (_case, body, fields) => {
    const { device, client } = await world();
    const res = await client.post(url(device.id), body);
    expect([res.status, res.body.code]).toEqual([422, 422]);
    expect(res.body.details.fields).toMatchObject(fields);
    expect(await checkRows(device.id)).toEqual([]);
  });

  it('lists, replaces (state reset and open alarm cleared on a new bound) and deletes', async () => {
    const { team, device, client } = await world();
    const check = (await client.post(url(device.id), { kind: 'battery_low', level: 20 })).body.payload;
    const plain = await signIn(team.plain.email);
    expect((await plain.get(url(device.id))).body.payload).toEqual([check]);
    await suite.db.query(`UPDATE sensor_checks SET state = '{"alarmOpen": true}' WHERE id = $1`, [check.id]);
    await suite.db.query(
      'INSERT INTO alarms (company_id, device_id, sensor_check_id, value) VALUES ($1, $2, $3, 12)',
      [team.company.id, device.id, check.id],
    );
    const same = await client.put(`${url(device.id)}/${check.id}`, {
      kind: 'battery_low',
      level: 20,
      is_active: false,
    });
    expect(same.body.payload).toMatchObject({ is_active: false, level: 20 });
    expect((await checkRows(device.id))[0]).toMatchObject({ state: { alarmOpen: true } });
    await client.put(`${url(device.id)}/${check.id}`, { kind: 'battery_low', level: 10 });
    expect((await checkRows(device.id))[0]).toMatchObject({ state: {}, min_value: 10 });
    const alarms = await suite.db.query<{ state: string }>(
      'SELECT state FROM alarms WHERE sensor_check_id = $1',
      [check.id],
    );
    expect(alarms.rows).toEqual([{ state: 'cleared' }]);
    expect((await client.delete(`${url(device.id)}/${check.id}`)).body.payload).toEqual({ id: check.id });
    expect(await checkRows(device.id)).toEqual([]);
    const again = await client.delete(`${url(device.id)}/${check.id}`);
    expect([again.status, again.body.code]).toEqual([404, 404]);
  });

  it('is scoped to the company (10), the device (404) and managers (90004); CSRF enforced', async () => {
    const { team, device, client } = await world();
    const check = (await client.post(url(device.id), { kind: 'no_data', max_silence_seconds: 60 })).body
      .payload;
    const otherDevice = await createDevice(suite.db, team.company.id);
    const wrong = await client.put(`${url(otherDevice.id)}/${check.id}`, {
      kind: 'no_data',
      max_silence_seconds: 5,
    });
    expect([wrong.status, wrong.body.code]).toEqual([404, 404]);
    const stranger = await createTeam(suite.db);
    const other = await signIn(stranger.main.email);
    for (const res of [
      await other.get(url(device.id)),
      await other.post(url(device.id), { kind: 'no_data', max_silence_seconds: 5 }),
      await other.put(`${url(device.id)}/${check.id}`, { kind: 'no_data', max_silence_seconds: 5 }),
      await other.delete(`${url(device.id)}/${check.id}`),
    ])
      expect([res.status, res.body.code]).toEqual([404, 10]);
    const plain = await signIn(team.plain.email);
    expect((await plain.post(url(device.id), { kind: 'no_data', max_silence_seconds: 5 })).body.code).toBe(
      90004,
    );
    expect((await client.delete(`${url(device.id)}/${check.id}`, { csrf: false })).body.code).toBe(77);
    expect(await checkRows(device.id)).toMatchObject([{ id: check.id, max_silence_seconds: 60 }]);
  });

  it('refuses a virtual field of another device or company at save (422), as the rule path does', async () => {
    const { team, client } = await world();
    const measuring = { device_details: { data_fields: ['temperature'] } };
    const device = await createDevice(suite.db, team.company.id, measuring);
    const stranger = await createTeam(suite.db);
    const theirDevice = await createDevice(suite.db, stranger.company.id, measuring);
    const theirs = await signIn(stranger.main.email);
    const foreign = (
      await theirs.post(`/api/v1/core/devices/${theirDevice.id}/virtual_data_fields`, {
        name: 'Secret',
        formula: 'temperature * 2',
      })
    ).body.payload;
    const sibling = await createDevice(suite.db, team.company.id, measuring);
    const siblingField = (
      await client.post(`/api/v1/core/devices/${sibling.id}/virtual_data_fields`, {
        name: 'Twice',
        formula: 'temperature * 2',
      })
    ).body.payload;
    const own = (
      await client.post(`/api/v1/core/devices/${device.id}/virtual_data_fields`, {
        name: 'Own',
        formula: 'temperature * 2',
      })
    ).body.payload;
    for (const dataField of [foreign.data_field, siblingField.data_field, 'virtual.not-a-uuid.X']) {
      const res = await client.post(url(device.id), { kind: 'implausible_value', data_field: dataField });
      expect([res.status, res.body.code, res.body.details?.fields?.data_field?.key]).toEqual([
        422,
        422,
        'error.unknown',
      ]);
    }
    const first = (await client.post(url(device.id), { kind: 'no_data', max_silence_seconds: 60 })).body
      .payload;
    const changed = await client.put(`${url(device.id)}/${first.id}`, {
      kind: 'no_data',
      max_silence_seconds: 60,
      data_field: foreign.data_field,
    });
    expect([changed.status, changed.body.code]).toEqual([422, 422]);
    expect(await checkRows(device.id)).toMatchObject([{ id: first.id, data_field: null }]);
    const ok = await client.post(url(device.id), { kind: 'implausible_value', data_field: own.data_field });
    expect(ok.status).toBe(200);
  });
});
