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

  async function insertAlarm(companyId: number, deviceId: number, columns: Record<string, unknown> = {}) {
    const values = {
      company_id: companyId,
      device_id: deviceId,
      value: 31.5,
      data_field: 'temperature',
      ...columns,
    };
    const keys = Object.keys(values);
    const { rows } = await suite.db.query<{ id: number }>(
      `INSERT INTO alarms (${keys.join(', ')}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id::int AS id`,
      Object.values(values),
    );
    return rows[0]!.id;
  }

  async function world() {
    const team = await createTeam(suite.db);
    const device = await createDevice(suite.db, team.company.id, { name: 'Cold store' });
    const { rows } = await suite.db.query<{ id: number }>(
      `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value)
       VALUES ($1, $2, 'Too warm', 'data', 'temperature', 'gte', 30) RETURNING id::int AS id`,
      [team.company.id, device.id],
    );
    const ruleId = rows[0]!.id;
    const check = await suite.db.query<{ id: number }>(
      `INSERT INTO sensor_checks (company_id, device_id, kind, min_value) VALUES ($1, $2, 'battery_low', 20)
       RETURNING id::int AS id`,
      [team.company.id, device.id],
    );
    return { team, device, ruleId, checkId: check.rows[0]!.id };
  }

  it('GET /core/devices/alarms lists open and recently cleared alarms with device, rule and check; filters', async () => {
    const { team, device, ruleId, checkId } = await world();
    const second = await createDevice(suite.db, team.company.id, { name: 'Freezer' });
    const open = await insertAlarm(team.company.id, device.id, {
      rule_id: ruleId,
      raised_at: new Date(Date.now() - 60_000),
    });
    const battery = await insertAlarm(team.company.id, second.id, {
      sensor_check_id: checkId,
      data_field: 'battery_level',
      value: 12,
      raised_at: new Date(Date.now() - 30_000),
    });
    const recent = await insertAlarm(team.company.id, device.id, {
      state: 'cleared',
      cleared_at: new Date(Date.now() - 3600_000),
      raised_at: new Date(Date.now() - 7200_000),
    });
    await insertAlarm(team.company.id, device.id, {
      state: 'cleared',
      cleared_at: new Date(Date.now() - 3 * 86_400_000),
      raised_at: new Date(Date.now() - 4 * 86_400_000),
    });
    const stranger = await createTeam(suite.db);
    const strangerDevice = await createDevice(suite.db, stranger.company.id);
    await insertAlarm(stranger.company.id, strangerDevice.id);

    const plain = await signIn(team.plain.email);
    const res = await plain.get('/api/v1/core/devices/alarms');
    expect(res.status).toBe(200);
    expect(res.body.payload.map((a: { id: number }) => a.id)).toEqual([battery, open, recent]);
    expect(res.body.payload[1]).toMatchObject({
      device_id: device.id,
      device_name: 'Cold store',
      rule_id: ruleId,
      rule_name: 'Too warm',
      state: 'raised',
      data_field: 'temperature',
      value: 31.5,
      acknowledged_at: null,
      acknowledged_by: null,
      cleared_at: null,
    });
    expect(res.body.payload[0]).toMatchObject({
      sensor_check_id: checkId,
      sensor_check_kind: 'battery_low',
      device_name: 'Freezer',
    });
    const byDevice = await plain.get(`/api/v1/core/devices/alarms?device_id=${second.id}`);
    expect(byDevice.body.payload.map((a: { id: number }) => a.id)).toEqual([battery]);
    const cleared = await plain.get('/api/v1/core/devices/alarms?state=cleared');
    expect(cleared.body.payload).toHaveLength(2);
    const openOnly = await plain.get('/api/v1/core/devices/alarms?state=open');
    expect(openOnly.body.payload.map((a: { id: number }) => a.id)).toEqual([battery, open]);
    const bad = await plain.get('/api/v1/core/devices/alarms?state=sleeping');
    expect([bad.status, bad.body.code]).toEqual([422, 422]);
  });

  it('PUT /core/devices/alarms/{id}/acknowledge records who and when, for any user of the company only', async () => {
    const { team, device, ruleId } = await world();
    const id = await insertAlarm(team.company.id, device.id, { rule_id: ruleId });
    const stranger = await createTeam(suite.db);
    const other = await signIn(stranger.main.email);
    const foreign = await other.put(`/api/v1/core/devices/alarms/${id}/acknowledge`);
    expect([foreign.status, foreign.body.code]).toEqual([404, 404]);
    const plain = await signIn(team.plain.email);
    expect(
      (await plain.put(`/api/v1/core/devices/alarms/${id}/acknowledge`, {}, { csrf: false })).body.code,
    ).toBe(77);
    const { rows: before } = await suite.db.query('SELECT state, acknowledged_by FROM alarms WHERE id = $1', [
      id,
    ]);
    expect(before).toEqual([{ state: 'raised', acknowledged_by: null }]);

    const res = await plain.put(`/api/v1/core/devices/alarms/${id}/acknowledge`);
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({
      id,
      state: 'acknowledged',
      acknowledged_by: { id: team.plain.id, name: 'Plain User' },
    });
    expect(Date.now() - Date.parse(res.body.payload.acknowledged_at)).toBeLessThan(60_000);
    // A second acknowledgement keeps the first one.
    const main = await signIn(team.main.email);
    const again = await main.put(`/api/v1/core/devices/alarms/${id}/acknowledge`);
    expect(again.body.payload.acknowledged_by.id).toBe(team.plain.id);
    const { rows } = await suite.db.query<{ state: string; by: number }>(
      'SELECT state, acknowledged_by::int AS by FROM alarms WHERE id = $1',
      [id],
    );
    expect(rows).toEqual([{ state: 'acknowledged', by: team.plain.id }]);
  });
});

forEachDb((suite) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = buildTestApp(suite.db);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  it("words an alarm's text in the reader's language; one without a reason reads as stored", async () => {
    const team = await createTeam(suite.db);
    await suite.db.query(`UPDATE users SET locale = 'de' WHERE id = $1`, [team.main.id]);
    const device = await createDevice(suite.db, team.company.id, { name: 'Beet' });
    const { rows } = await suite.db.query<{ id: number }>(
      `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value)
       VALUES ($1, $2, 'Dry', 'data', 'soil_humidity', 'lte', 20) RETURNING id::int AS id`,
      [team.company.id, device.id],
    );
    await suite.db.query(
      `INSERT INTO alarms (company_id, device_id, rule_id, data_field, value, details, message, raised_at)
       VALUES ($1, $2, $3, 'soil_humidity', 12, $4, 'Rule "Dry": soil_humidity lte 20 (value 12)', now() - interval '1 minute'),
              ($1, $2, NULL, NULL, NULL, '{}', 'as written before', now())`,
      [
        team.company.id,
        device.id,
        rows[0]!.id,
        JSON.stringify({ reason: 'soil_humidity lte 20 (value 12)' }),
      ],
    );
    const read = async (email: string) => {
      const client = new TestClient(app);
      await client.login(email, PASSWORD);
      const res = await client.get('/api/v1/core/devices/alarms');
      return res.body.payload.map((a: { message: string }) => a.message).sort();
    };
    expect(await read(team.main.email)).toEqual([
      'Regel „Dry“: Bodenfeuchte (%) ≤ 20 (Wert 12)',
      'as written before',
    ]);
    expect(await read(team.plain.email)).toEqual([
      'Rule "Dry": Soil moisture (%) ≤ 20 (value 12)',
      'as written before',
    ]);
  });
});
