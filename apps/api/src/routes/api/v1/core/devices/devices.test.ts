import { createHash, randomBytes } from 'node:crypto';
import { saveNetworkServer, saveTtsDownlinkRoute } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import {
  createDevice,
  createGroup,
  insertData,
  insertLog,
  insertNotification,
  insertRule,
  setCurrent,
} from '../../../../../test/device-fixtures';
import { createSuperAdmin, createTeam, PASSWORD } from '../../../../../test/fixtures';

const HOUR = 3_600_000;
const randomDevEui = () => randomBytes(8).toString('hex');

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

  async function deviceRow(id: number) {
    const { rows } = await suite.db.query<Record<string, unknown>>(
      `SELECT company_id::int AS company_id, name, state, latitude, group_id::int AS group_id, metadata,
              credentials_hash, updated_at FROM devices WHERE id = $1`,
      [id],
    );
    return rows[0]!;
  }

  describe('GET /core/devices', () => {
    it("lists the acting company's devices with group and latest values, never another company's", async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const groupId = await createGroup(suite.db, team.company.id, 'Orchard');
      const now = new Date();
      const device = await createDevice(suite.db, team.company.id, {
        name: 'Soil 1',
        group_id: groupId,
        device_type: 'nbiot_soil_sensor',
        battery_level: 77,
        last_online_at: now,
        is_active: true,
        metadata: { data_fields: [{ data_field: 'soil_humidity', label: 'Moisture', sort: 1 }] },
      });
      await setCurrent(
        suite.db,
        team.company.id,
        device.id,
        { soil_humidity: 31.5, battery_level: 77 },
        { soil_humidity: now.toISOString(), battery_level: now.toISOString() },
        now,
      );
      await createDevice(suite.db, other.company.id, { name: 'Foreign' });

      const client = await signIn(team.plain.email);
      const res = await client.get('/api/v1/core/devices');
      expect(res.status).toBe(200);
      expect(res.body.payload).toHaveLength(1);
      expect(res.body.payload[0]).toMatchObject({
        id: device.id,
        uuid: device.uuid,
        name: 'Soil 1',
        device_type: 'nbiot_soil_sensor',
        state: 'ok',
        is_active: true,
        battery_level: 77,
        group: { id: groupId, name: 'Orchard' },
        data: { soil_humidity: 31.5, battery_level: 77 },
        field_times: { soil_humidity: now.toISOString() },
        metadata: { data_fields: [{ data_field: 'soil_humidity', label: 'Moisture', sort: 1 }] },
        relations: { company_id: team.company.id },
      });
      expect(res.body.payload[0]).not.toHaveProperty('credentials_hash');
    });

    it('filters and sorts on the server as the device screen asks', async () => {
      const team = await createTeam(suite.db);
      const c = team.company.id;
      const groupId = await createGroup(suite.db, c, 'North');
      const { rows: fieldRows } = await suite.db.query<{ id: number }>(
        `INSERT INTO farming_fields (company_id, name) VALUES ($1, 'Field') RETURNING id::int AS id`,
        [c],
      );
      const { rows: areaRows } = await suite.db.query<{ id: number }>(
        `INSERT INTO parking_areas (company_id, name, type) VALUES ($1, 'P1', 'FIX') RETURNING id::int AS id`,
        [c],
      );
      const now = Date.now();
      const ids: Record<string, number> = {};
      const make = async (key: string, columns: Record<string, unknown>) => {
        ids[key] = (await createDevice(suite.db, c, { name: key, ...columns })).id;
      };
      // Battery levels straddle the spec's thresholds 80, 50, 30, 10 (section 4).
      await make('alpha', {
        battery_level: 81,
        is_active: true,
        last_online_at: new Date(now - HOUR),
        location: 'Barn roof',
      });
      await make('bravo', {
        battery_level: 50,
        state: 'maintenance',
        group_id: groupId,
        last_online_at: new Date(now - 9 * HOUR),
      });
      await make('charlie', { battery_level: 30, device_type: 'srd_button', dev_eui: '70b3d57ed0000001' });
      await make('delta', { battery_level: 10, field_id: fieldRows[0]!.id, is_active: true });
      await make('echo', { battery_level: 11, parking_area_id: areaRows[0]!.id });
      await make('foxtrot', { mains_powered: true, battery_level: 5 });
      await make('golf', {});

      const client = await signIn(team.plain.email);
      const names = async (query: string) => {
        const res = await client.get(`/api/v1/core/devices?${query}`);
        expect(res.status, query).toBe(200);
        return (res.body.payload as { name: string }[]).map((d) => d.name);
      };
      const cases: [string, string[]][] = [
        ['search=barn', ['alpha']],
        ['search=70B3D57E', ['charlie']],
        ['search=%25', []],
        ['state=maintenance', ['bravo']],
        [`group_id=${groupId}`, ['bravo']],
        ['device_type=srd_button', ['charlie']],
        ['status=online', ['alpha', 'delta']],
        ['status=offline', ['bravo', 'charlie', 'echo', 'foxtrot', 'golf']],
        ['stale=true', ['bravo']],
        ['battery=full', ['alpha']],
        ['battery=medium', []],
        ['battery=low', ['bravo']],
        ['battery=empty', ['charlie', 'echo']],
        ['battery=alert', ['delta']],
        ['battery=power', ['foxtrot']],
        ['battery=off', ['golf']],
        [`field_id=${fieldRows[0]!.id}`, ['delta']],
        [`parking_area_id=${areaRows[0]!.id}`, ['echo']],
        ['sort=battery_level&order=desc', ['alpha', 'bravo', 'charlie', 'echo', 'delta', 'foxtrot', 'golf']],
        ['sort=name&order=desc&limit=2', ['golf', 'foxtrot']],
      ];
      for (const [query, expected] of cases) expect(await names(query), query).toEqual(expected);
      // The search text of one device finds it by serial number and by uuid too.
      const one = await client.get(`/api/v1/core/devices/${ids.golf}`);
      expect(await names(`search=${one.body.payload.serial_number}`)).toEqual(['golf']);
      expect(await names(`search=${one.body.payload.uuid.slice(0, 13)}`)).toEqual(['golf']);
      expect((await client.get('/api/v1/core/devices?battery=weak')).status).toBe(422);
    });

    it('answers only the asked ids, and with view=map only what a map draws, both within the company', async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const c = team.company.id;
      const now = new Date();
      const north = await createDevice(suite.db, c, {
        name: 'North',
        latitude: 48.1,
        longitude: 7.6,
        is_active: true,
        state: 'maintenance',
      });
      const south = await createDevice(suite.db, c, { name: 'South', latitude: 47.9, longitude: 7.5 });
      const nowhere = await createDevice(suite.db, c, { name: 'Nowhere' });
      const foreign = await createDevice(suite.db, other.company.id, { name: 'Foreign', latitude: 48 });
      await setCurrent(suite.db, c, north.id, { temperature: 21.5, humidity: 40 }, {}, now);
      const client = await signIn(team.plain.email);

      const some = await client.get(`/api/v1/core/devices?ids=${south.id},${north.id},${foreign.id}`);
      expect(some.status).toBe(200);
      // The full row as without ids; another company's id is simply not there.
      expect(some.body.payload.map((d: { name: string }) => d.name)).toEqual(['North', 'South']);
      expect(some.body.payload[0]).toMatchObject({
        data: { temperature: 21.5, humidity: 40 },
        uuid: north.uuid,
      });

      // Columns, one entry per device in the list's order (by name); states by index into `states`.
      const pins = await client.get('/api/v1/core/devices?view=map&data_fields=temperature');
      expect(pins.status).toBe(200);
      expect(pins.body.payload).toEqual({
        count: 3,
        id: [north.id, nowhere.id, south.id],
        states: ['maintenance', 'ok'],
        state: [0, 1, 1],
        is_active: [1, 0, 0],
        latitude: [48.1, null, 47.9],
        longitude: [7.6, null, 7.5],
        data: { temperature: [21.5, null, null] },
      });
      // Without data_fields no values; the list's filters apply to the map view too.
      const plain = await client.get('/api/v1/core/devices?view=map&state=maintenance');
      expect(plain.body.payload).toEqual({
        count: 1,
        id: [north.id],
        states: ['maintenance'],
        state: [0],
        is_active: [1],
        latitude: [48.1],
        longitude: [7.6],
        data: {},
      });
      for (const bad of ['ids=1,,2', 'ids=abc', 'ids=', 'view=table']) {
        const answer = await client.get(`/api/v1/core/devices?${bad}`);
        expect([bad, answer.status]).toEqual([bad, 422]);
      }
    });
  });

  describe('GET /core/devices/{id}', () => {
    it('shows details, rules count, and credentials and integration info only to admins and main users', async () => {
      const team = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id, {
        device_details: { data_fields: ['temperature'] },
        device_info: { data_fields: ['firmware'] },
        credentials_hash: createHash('sha256').update('x').digest('hex'),
      });
      await suite.db.query(
        `INSERT INTO rules (company_id, device_id, data_field, operator, value) VALUES ($1, $2, 'temperature', 'gte', 30)`,
        [team.company.id, device.id],
      );
      const plain = await (await signIn(team.plain.email)).get(`/api/v1/core/devices/${device.id}`);
      expect(plain.status).toBe(200);
      expect(plain.body.payload).toMatchObject({
        id: device.id,
        rules_count: 1,
        device_details: { data_fields: ['temperature'] },
        device_info: { data_fields: ['firmware'] },
      });
      expect(plain.body.payload).not.toHaveProperty('credentials');
      expect(plain.body.payload).not.toHaveProperty('integration');
      for (const email of [team.main.email, team.admin.email]) {
        const res = await (await signIn(email)).get(`/api/v1/core/devices/${device.id}`);
        expect(res.body.payload.credentials).toEqual({
          is_set: true,
          rotate: `POST /api/v1/core/devices/${device.id}/credentials`,
        });
        expect(res.body.payload.integration).toMatchObject({
          uuid: device.uuid,
          mqtt_topic: `devices/${device.serialNumber}/up`,
          active_integration_tokens: 0,
          downlink_via: 'mqtt',
        });
      }
    });

    it('tells managers how a LoRaWAN device’s commands leave: nowhere, the company’s ChirpStack, or its TTS webhook', async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id, { dev_eui: randomDevEui() });
      const client = await signIn(team.main.email);
      const via = async () =>
        (await client.get(`/api/v1/core/devices/${device.id}`)).body.payload.integration.downlink_via;
      expect(await via()).toBeNull();
      // Another company's network server changes nothing here.
      await saveNetworkServer(suite.db, other.company.id, {
        kind: 'chirpstack',
        apiUrl: 'https://theirs.test',
        apiToken: 't',
        updatedBy: null,
      });
      expect(await via()).toBeNull();
      await saveNetworkServer(suite.db, team.company.id, {
        kind: 'chirpstack',
        apiUrl: 'https://chirpstack.test',
        apiToken: 't',
        updatedBy: null,
      });
      expect(await via()).toBe('chirpstack');
      await saveTtsDownlinkRoute(suite.db, team.company.id, device.id, {
        pushUrl: 'https://tts.test/api/v3/as/applications/a/webhooks/w/devices/d/down/push',
        apiKey: 'NNSXS.K',
      });
      expect(await via()).toBe('tts');
      const body = JSON.stringify((await client.get(`/api/v1/core/devices/${device.id}`)).body);
      expect(body).not.toContain('NNSXS.K');
    });

    it("answers 10 for another company's device, with nothing of it", async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const foreign = await createDevice(suite.db, other.company.id);
      const res = await (await signIn(team.main.email)).get(`/api/v1/core/devices/${foreign.id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 10, message: 'Device not found.' });
    });
  });

  describe('PUT /core/devices/{id}', () => {
    it('edits the fields of the device form and changes the state by hand', async () => {
      const team = await createTeam(suite.db);
      const groupId = await createGroup(suite.db, team.company.id);
      const device = await createDevice(suite.db, team.company.id);
      const client = await signIn(team.main.email);
      const res = await client.put(`/api/v1/core/devices/${device.id}`, {
        name: '  Weather mast  ',
        description: 'On the hill',
        comment: 'Replaced antenna',
        location: 'Hill',
        latitude: 48.041477,
        longitude: 7.576644,
        group_id: groupId,
        target_server: 'staging',
        external_accessible: true,
        is_active: true,
        driver_id: 'nbiot_weatherstation',
        state: 'maintenance',
      });
      expect(res.status).toBe(200);
      expect(res.body.payload).toMatchObject({
        name: 'Weather mast',
        description: 'On the hill',
        comment: 'Replaced antenna',
        location: 'Hill',
        latitude: 48.041477,
        group: { id: groupId },
        target_server: 'staging',
        external_accessible: true,
        is_active: true,
        driver_id: 'nbiot_weatherstation',
        state: 'maintenance',
      });
      for (const state of ['ok', 'maintenance', 'lost', 'broken', 'disposed']) {
        const r = await client.put(`/api/v1/core/devices/${device.id}`, { state });
        expect(r.status, state).toBe(200);
        expect((await deviceRow(device.id)).state).toBe(state);
      }
      // Clearing optional fields with null.
      const cleared = await client.put(`/api/v1/core/devices/${device.id}`, {
        group_id: null,
        latitude: null,
      });
      expect(cleared.body.payload).toMatchObject({ group: null, latitude: null });
    });

    it('refuses bad input with the spec code and changes nothing', async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const foreignGroup = await createGroup(suite.db, other.company.id);
      const device = await createDevice(suite.db, team.company.id, { name: 'Before', state: 'ok' });
      const before = await deviceRow(device.id);
      const client = await signIn(team.admin.email);
      const cases: [unknown, number, number, unknown?][] = [
        [{ state: 'exploded' }, 404, 26],
        [{ name: '' }, 422, 422, { fields: { name: { key: 'error.required' } } }],
        [{ name: 'x'.repeat(256) }, 422, 422],
        [{ latitude: 90.5 }, 422, 422, { fields: { latitude: { key: 'error.range' } } }],
        [{ longitude: -181 }, 422, 422],
        [{ target_server: 'mars' }, 422, 422],
        [{ driver_id: 'no_such_driver' }, 422, 38],
        [{ group_id: foreignGroup }, 404, 46],
        [{ name: 'After', state: 'bogus' }, 404, 26],
      ];
      for (const [body, status, code, details] of cases) {
        const res = await client.put(`/api/v1/core/devices/${device.id}`, body);
        expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
        if (details) expect(res.body.details).toMatchObject(details as object);
      }
      expect(await deviceRow(device.id)).toEqual(before);
    });

    it("is for admins and main users only (90001), and 10 for another company's device", async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const own = await createDevice(suite.db, team.company.id, { name: 'Mine' });
      const foreign = await createDevice(suite.db, other.company.id, { name: 'Theirs' });
      const plain = await (await signIn(team.plain.email)).put(`/api/v1/core/devices/${own.id}`, {
        name: 'X',
      });
      expect([plain.status, plain.body.code]).toEqual([403, 90001]);
      const res = await (await signIn(team.main.email)).put(`/api/v1/core/devices/${foreign.id}`, {
        name: 'Hijacked',
        state: 'lost',
      });
      expect([res.status, res.body.code]).toEqual([404, 10]);
      expect(await deviceRow(own.id)).toMatchObject({ name: 'Mine' });
      expect(await deviceRow(foreign.id)).toMatchObject({
        name: 'Theirs',
        state: 'ok',
        company_id: other.company.id,
      });
    });
  });

  describe('reassignment', () => {
    async function world() {
      const home = await createTeam(suite.db);
      const target = await createTeam(suite.db);
      const groupId = await createGroup(suite.db, home.company.id);
      const device = await createDevice(suite.db, home.company.id, { group_id: groupId, name: 'Mover' });
      const c = home.company.id;
      const { rows } = await suite.db.query<{ id: number }>(
        `INSERT INTO rules (company_id, device_id, data_field, operator, value)
         VALUES ($1, $2, 'temperature', 'gte', 30) RETURNING id::int AS id`,
        [c, device.id],
      );
      await suite.db.query(
        `INSERT INTO alarms (company_id, device_id, rule_id, data_field, value) VALUES ($1, $2, $3, 'temperature', 31)`,
        [c, device.id, rows[0]!.id],
      );
      await suite.db.query(
        `INSERT INTO virtual_data_fields (company_id, device_id, name, formula) VALUES ($1, $2, 'double', 'x * 2')`,
        [c, device.id],
      );
      await suite.db.query(
        `INSERT INTO sensor_checks (company_id, device_id, kind, max_silence_seconds) VALUES ($1, $2, 'no_data', 3600)`,
        [c, device.id],
      );
      // A rule of another device of the old company that switches this device remotely.
      const switcher = await createDevice(suite.db, c);
      const { rows: switchRule } = await suite.db.query<{ id: number }>(
        `INSERT INTO rules (company_id, device_id, trigger, click_type) VALUES ($1, $2, 'click', 1) RETURNING id::int AS id`,
        [c, switcher.id],
      );
      await suite.db.query(
        `INSERT INTO rule_actions (company_id, rule_id, type, target_device_id, command)
         VALUES ($1, $2, 'remote_control', $3, 'reboot')`,
        [c, switchRule[0]!.id, device.id],
      );
      await suite.db.query(
        `INSERT INTO tasks (company_id, title, device_id) VALUES ($1, 'Check mover', $2)`,
        [c, device.id],
      );
      await setCurrent(suite.db, c, device.id, { temperature: 20 }, {}, new Date());
      await insertData(suite.db, c, device.id, [{ at: new Date(), data: { temperature: 20 } }]);
      return { home, target, device, switchRuleId: switchRule[0]!.id };
    }

    async function superAdminActingFor(companyId: number) {
      const admin = await createSuperAdmin(suite.db);
      const client = await signIn(admin.email);
      const res = await client.get(`/api/v1/admin/clients/${companyId}/impersonate`);
      expect(res.status).toBe(200);
      return client;
    }

    async function counts(deviceId: number) {
      const { rows } = await suite.db.query<Record<string, number>>(
        `SELECT (SELECT count(*) FROM rules WHERE device_id = $1)::int AS rules,
                (SELECT count(*) FROM alarms WHERE device_id = $1)::int AS alarms,
                (SELECT count(*) FROM virtual_data_fields WHERE device_id = $1)::int AS virtual_fields,
                (SELECT count(*) FROM sensor_checks WHERE device_id = $1)::int AS checks,
                (SELECT count(*) FROM rule_actions WHERE target_device_id = $1)::int AS remote_actions,
                (SELECT count(*) FROM tasks WHERE device_id = $1)::int AS tasks,
                (SELECT count(*) FROM device_current WHERE device_id = $1)::int AS current,
                (SELECT count(*) FROM device_data WHERE device_id = $1)::int AS data`,
        [deviceId],
      );
      return rows[0]!;
    }

    it('moves a device only for the super admin with confirm: true, removing the old configuration in one go', async () => {
      const { home, target, device, switchRuleId } = await world();
      const before = await counts(device.id);
      expect(before).toEqual({
        rules: 1,
        alarms: 1,
        virtual_fields: 1,
        checks: 1,
        remote_actions: 1,
        tasks: 1,
        current: 1,
        data: 1,
      });

      // The company's own main user may not give devices away.
      const main = await (await signIn(home.main.email)).put(`/api/v1/core/devices/${device.id}`, {
        company_id: target.company.id,
        confirm: true,
      });
      expect([main.status, main.body.code]).toEqual([403, 90002]);

      const client = await superAdminActingFor(home.company.id);
      const unconfirmed = await client.put(`/api/v1/core/devices/${device.id}`, {
        company_id: target.company.id,
        name: 'Renamed too',
      });
      expect([unconfirmed.status, unconfirmed.body.code]).toEqual([422, 422]);
      expect(unconfirmed.body.details).toEqual({ fields: { confirm: { key: 'error.required' } } });
      const unknownCompany = await client.put(`/api/v1/core/devices/${device.id}`, {
        company_id: 999_999,
        confirm: true,
      });
      expect([unknownCompany.status, unknownCompany.body.code]).toEqual([404, 4]);
      expect(await deviceRow(device.id)).toMatchObject({ company_id: home.company.id, name: 'Mover' });
      expect(await counts(device.id)).toEqual(before);

      const moved = await client.put(`/api/v1/core/devices/${device.id}`, {
        company_id: target.company.id,
        confirm: true,
        name: 'Moved',
      });
      expect(moved.status).toBe(200);
      expect(moved.body.payload).toMatchObject({
        id: device.id,
        name: 'Moved',
        group: null,
        relations: { company_id: target.company.id },
        rules_count: 0,
      });
      expect(await deviceRow(device.id)).toMatchObject({ company_id: target.company.id, group_id: null });
      // Configuration of the old owner is gone; measured history stays with the old company. The device's
      // status row goes with it (the hardware's online flag, battery, signal), without the old values.
      expect(await counts(device.id)).toEqual({
        rules: 0,
        alarms: 0,
        virtual_fields: 0,
        checks: 0,
        remote_actions: 0,
        tasks: 0,
        current: 1,
        data: 1,
      });
      const { rows: status } = await suite.db.query<{ company_id: number; data: Record<string, unknown> }>(
        'SELECT company_id::int AS company_id, data FROM device_current WHERE device_id = $1',
        [device.id],
      );
      expect(status).toEqual([{ company_id: target.company.id, data: {} }]);
      const { rows: kept } = await suite.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM rules WHERE id = $1',
        [switchRuleId],
      );
      expect(kept[0]!.n).toBe(1);
      const { rows: audit } = await suite.db.query<{ company_id: number }>(
        `SELECT company_id::int AS company_id FROM audit_log WHERE action = 'device.reassign'
          AND (details->>'device_id')::int = $1 ORDER BY company_id`,
        [device.id],
      );
      expect(audit.map((a) => a.company_id)).toEqual([home.company.id, target.company.id]);

      // The old company no longer sees it; the new one does, without the old history.
      const oldView = await (await signIn(home.main.email)).get(`/api/v1/core/devices/${device.id}`);
      expect([oldView.status, oldView.body.code]).toEqual([404, 10]);
      const newClient = await signIn(target.main.email);
      expect((await newClient.get(`/api/v1/core/devices/${device.id}`)).status).toBe(200);
      const history = await newClient.get(`/api/v1/core/data/${device.id}`);
      expect(history.body.payload.points).toEqual([]);
    });
  });

  describe('PUT /core/devices/{id}/metadata', () => {
    it('stores labels sorted by sort value', async () => {
      const team = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id, { metadata: { keep: true } });
      const res = await (await signIn(team.main.email)).put(`/api/v1/core/devices/${device.id}/metadata`, {
        data_fields: [
          { data_field: 'humidity', label: 'Humidity', sort: 99_999 },
          { data_field: 'temperature', label: 'Temperature', sort: 1 },
          { data_field: 'co2', label: 'CO2', sort: '20' },
        ],
      });
      expect(res.status).toBe(200);
      const expected = [
        { data_field: 'temperature', label: 'Temperature', sort: 1 },
        { data_field: 'co2', label: 'CO2', sort: 20 },
        { data_field: 'humidity', label: 'Humidity', sort: 99_999 },
      ];
      expect(res.body.payload).toEqual({ data_fields: expected });
      expect((await deviceRow(device.id)).metadata).toEqual({ keep: true, data_fields: expected });
    });

    it('refuses sort values outside 1..99999 and other bad entries, naming the entry (422)', async () => {
      const team = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id);
      const client = await signIn(team.main.email);
      const entry = { data_field: 'temperature', label: 'Temperature', sort: 5 };
      const cases: [Record<string, unknown>[], string, string][] = [
        [[{ ...entry, sort: 0 }], 'data_fields.0.sort', 'error.sort-value'],
        [[{ ...entry, sort: 100_000 }], 'data_fields.0.sort', 'error.sort-value'],
        [[{ ...entry, sort: 1.5 }], 'data_fields.0.sort', 'error.sort-value'],
        [[{ ...entry, sort: null }], 'data_fields.0.sort', 'error.required'],
        [[entry, { ...entry, label: '' }], 'data_fields.1.label', 'error.required'],
        [[entry, { ...entry, sort: 6 }], 'data_fields.1.data_field', 'error.duplicate-values'],
        [[{ ...entry, data_field: '' }], 'data_fields.0.data_field', 'error.required'],
      ];
      for (const [dataFields, field, key] of cases) {
        const res = await client.put(`/api/v1/core/devices/${device.id}/metadata`, {
          data_fields: dataFields,
        });
        expect([res.status, res.body.code], field).toEqual([422, 422]);
        expect(res.body.details.fields[field], JSON.stringify(dataFields)).toMatchObject({ key });
      }
      expect((await deviceRow(device.id)).metadata).toEqual({});
    });

    it("is refused to plain users (90001) and for another company's device (10)", async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const own = await createDevice(suite.db, team.company.id);
      const foreign = await createDevice(suite.db, other.company.id);
      const body = { data_fields: [{ data_field: 'a', label: 'A', sort: 1 }] };
      const plain = await (await signIn(team.plain.email)).put(
        `/api/v1/core/devices/${own.id}/metadata`,
        body,
      );
      expect([plain.status, plain.body.code]).toEqual([403, 90001]);
      const res = await (await signIn(team.main.email)).put(
        `/api/v1/core/devices/${foreign.id}/metadata`,
        body,
      );
      expect([res.status, res.body.code]).toEqual([404, 10]);
      expect((await deviceRow(own.id)).metadata).toEqual({});
      expect((await deviceRow(foreign.id)).metadata).toEqual({});
    });
  });

  describe('POST /core/devices/{id}/credentials', () => {
    it('issues a token once and stores only its sha-256', async () => {
      const team = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id);
      for (const email of [team.main.email, team.admin.email]) {
        const res = await (await signIn(email)).post(`/api/v1/core/devices/${device.id}/credentials`);
        expect(res.status).toBe(200);
        const token = res.body.payload.token as string;
        expect(token.length).toBeGreaterThanOrEqual(43);
        expect((await deviceRow(device.id)).credentials_hash).toBe(
          createHash('sha256').update(token).digest('hex'),
        );
      }
    });

    it("is refused to plain users (403, 90001) and for another company's device (10)", async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const own = await createDevice(suite.db, team.company.id);
      const foreign = await createDevice(suite.db, other.company.id);
      const plain = await (await signIn(team.plain.email)).post(`/api/v1/core/devices/${own.id}/credentials`);
      expect([plain.status, plain.body.code]).toEqual([403, 90001]);
      const res = await (await signIn(team.main.email)).post(
        `/api/v1/core/devices/${foreign.id}/credentials`,
      );
      expect([res.status, res.body.code]).toEqual([404, 10]);
      expect((await deviceRow(own.id)).credentials_hash).toBeNull();
      expect((await deviceRow(foreign.id)).credentials_hash).toBeNull();
    });
  });

  describe('logs, battery and mobile data', () => {
    it('lists logs newest first with level names, filtered by level, period and limit', async () => {
      const team = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id);
      const t0 = Date.parse('2026-03-01T00:00:00Z');
      // Levels 0..7 one minute apart; 0 and 1 are shown as critical, 7 wraps to emergency (spec section 3).
      for (let level = 0; level <= 7; level += 1) {
        await insertLog(
          suite.db,
          team.company.id,
          device.id,
          level,
          `level ${level}`,
          new Date(t0 + level * 60_000),
        );
      }
      const client = await signIn(team.plain.email);
      const all = await client.get(`/api/v1/core/devices/${device.id}/logs`);
      expect(all.status).toBe(200);
      expect(
        all.body.payload.map((l: { level: number; level_name: string }) => [l.level, l.level_name]),
      ).toEqual([
        [7, 'emergency'],
        [6, 'debug'],
        [5, 'info'],
        [4, 'warning'],
        [3, 'error'],
        [2, 'critical'],
        [1, 'critical'],
        [0, 'critical'],
      ]);
      const levels = async (query: string) =>
        (await client.get(`/api/v1/core/devices/${device.id}/logs?${query}`)).body.payload.map(
          (l: { level: number }) => l.level,
        );
      expect(await levels('level=critical')).toEqual([2, 1, 0]);
      expect(await levels('level=4')).toEqual([4]);
      expect(await levels('limit=2')).toEqual([7, 6]);
      expect(await levels(`tsstart=${t0 + 60_000}&tsend=${new Date(t0 + 3 * 60_000).toISOString()}`)).toEqual(
        [3, 2, 1],
      );
      const bad = await client.get(`/api/v1/core/devices/${device.id}/logs?level=loud`);
      expect([bad.status, bad.body.code]).toEqual([422, 422]);
      const badPeriod = await client.get(`/api/v1/core/devices/${device.id}/logs?tsstart=yesterday`);
      expect([badPeriod.status, badPeriod.body.code]).toEqual([422, 10002]);
    });

    it('answers battery history and mobile data from the device data', async () => {
      const team = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id, { mobile_data_volume: 123_456 });
      const t0 = Date.parse('2026-03-01T00:00:00Z');
      await insertData(suite.db, team.company.id, device.id, [
        { at: new Date(t0), data: { battery_level: 90, battery_voltage: 3.6, temperature: 20 } },
        { at: new Date(t0 + HOUR), data: { battery_level: 89, mobile_data_volume: 1000 } },
        { at: new Date(t0 + 2 * HOUR), data: { mobile_data_volume: 2500 } },
      ]);
      const client = await signIn(team.plain.email);
      const period = `tsstart=${t0}&tsend=${t0 + 3 * HOUR}`;
      const battery = await client.get(`/api/v1/core/devices/${device.id}/battery?${period}`);
      expect(battery.status).toBe(200);
      expect(battery.body.payload.points.map((p: { data: unknown }) => p.data)).toEqual([
        { battery_level: 90, battery_voltage: 3.6 },
        { battery_level: 89 },
        {},
      ]);
      const mobile = await client.get(`/api/v1/core/devices/${device.id}/mobile-data?${period}`);
      expect(mobile.body.payload.mobile_data_volume).toBe(123_456);
      expect(mobile.body.payload.history.points.map((p: { data: unknown }) => p.data)).toEqual([
        {},
        { mobile_data_volume: 1000 },
        { mobile_data_volume: 2500 },
      ]);
    });
  });

  describe('notifications', () => {
    it("lists what the device's rules sent, newest first, filtered by status, period and limit", async () => {
      const team = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id, { name: 'Cold store' });
      const neighbour = await createDevice(suite.db, team.company.id, { name: 'Neighbour' });
      const ruleId = await insertRule(suite.db, team.company.id, device.id, 'Too warm');
      const goneRuleId = await insertRule(suite.db, team.company.id, device.id, 'Deleted later');
      const t0 = Date.parse('2026-03-01T00:00:00Z');
      const at = (minutes: number) => new Date(t0 + minutes * 60_000);
      const base = { companyId: team.company.id, deviceId: device.id, ruleId };
      // As the notifier writes them: a mail kept in the outbox, an SMS that failed, was retried and sent,
      // a webhook refused for good, a system message, and an entry of a rule deleted since.
      await insertNotification(suite.db, {
        ...base,
        channel: 'email',
        recipient: 'alerts@example.test',
        status: 'queued',
        details: { attempt: 1, maxAttempts: 5, via: 'outbox', cc: [] },
        at: at(0),
      });
      await insertNotification(suite.db, {
        ...base,
        channel: 'sms',
        recipient: '+4915228817386',
        status: 'failed',
        error: 'Twilio answered 503',
        details: { attempt: 1, maxAttempts: 5, final: false, permanent: false, deadLetter: false },
        at: at(1),
      });
      await insertNotification(suite.db, {
        ...base,
        channel: 'sms',
        recipient: '+4915228817386',
        status: 'sent',
        details: { attempt: 2, maxAttempts: 5, via: 'twilio', reference: 'SM0123' },
        at: at(2),
      });
      await insertNotification(suite.db, {
        ...base,
        channel: 'http',
        recipient: 'https://hook:secret@hooks.example.test/alarm?token=abc#x',
        status: 'failed',
        error: 'address 10.0.0.1 is private',
        details: { attempt: 1, maxAttempts: 5, final: true, permanent: true, deadLetter: true },
        at: at(3),
      });
      await insertNotification(suite.db, {
        ...base,
        channel: 'system',
        recipient: 'system',
        status: 'sent',
        details: { attempt: 1, maxAttempts: 5, reference: null },
        at: at(4),
      });
      await insertNotification(suite.db, {
        ...base,
        ruleId: goneRuleId,
        channel: 'email',
        recipient: 'old@example.test',
        status: 'sent',
        details: { attempt: 1, maxAttempts: 5, via: 'smtp' },
        at: at(5),
      });
      await suite.db.query('DELETE FROM rules WHERE id = $1', [goneRuleId]);
      // Another device's entry stays in its own list.
      await insertNotification(suite.db, {
        companyId: team.company.id,
        deviceId: neighbour.id,
        channel: 'system',
        recipient: 'system',
        status: 'sent',
        at: at(6),
      });

      const client = await signIn(team.plain.email);
      const all = await client.get(`/api/v1/core/devices/${device.id}/notifications`);
      expect(all.status).toBe(200);
      expect(
        all.body.payload.map((n: { channel: string; status: string; rule_name: string | null }) => [
          n.channel,
          n.status,
          n.rule_name,
        ]),
      ).toEqual([
        ['email', 'sent', null],
        ['system', 'sent', 'Too warm'],
        ['http', 'failed', 'Too warm'],
        ['sms', 'sent', 'Too warm'],
        ['sms', 'failed', 'Too warm'],
        ['email', 'queued', 'Too warm'],
      ]);
      const [deleted, , webhook, sms, smsFailed, mail] = all.body.payload;
      expect(deleted).toMatchObject({ rule_id: goneRuleId, rule_name: null, via: 'smtp' });
      expect(webhook).toMatchObject({
        recipient: 'https://hooks.example.test/alarm',
        error: 'address 10.0.0.1 is private',
        final: true,
        sent_at: null,
      });
      expect(JSON.stringify(all.body)).not.toContain('secret');
      expect(JSON.stringify(all.body)).not.toContain('token=abc');
      expect(sms).toEqual({
        id: expect.any(Number),
        device_id: device.id,
        rule_id: ruleId,
        rule_name: 'Too warm',
        alarm_id: null,
        channel: 'sms',
        recipient: '+4915228817386',
        status: 'sent',
        error: null,
        via: 'twilio',
        reference: 'SM0123',
        attempt: 2,
        max_attempts: 5,
        final: false,
        created_at: at(2).toISOString(),
        sent_at: at(2).toISOString(),
      });
      expect(smsFailed).toMatchObject({ error: 'Twilio answered 503', final: false, attempt: 1 });
      expect(mail).toMatchObject({ recipient: 'alerts@example.test', via: 'outbox', sent_at: null });

      const channels = async (query: string) =>
        (await client.get(`/api/v1/core/devices/${device.id}/notifications?${query}`)).body.payload.map(
          (n: { channel: string }) => n.channel,
        );
      expect(await channels('status=failed')).toEqual(['http', 'sms']);
      expect(await channels('status=queued')).toEqual(['email']);
      expect(await channels('limit=2')).toEqual(['email', 'system']);
      // Both ends included, as in the device log.
      expect(await channels(`tsstart=${at(1).getTime()}&tsend=${at(3).toISOString()}`)).toEqual([
        'http',
        'sms',
        'sms',
      ]);
      const bad = await client.get(`/api/v1/core/devices/${device.id}/notifications?status=lost`);
      expect([bad.status, bad.body.code]).toEqual([422, 422]);
      const badPeriod = await client.get(`/api/v1/core/devices/${device.id}/notifications?tsend=tomorrow`);
      expect([badPeriod.status, badPeriod.body.code]).toEqual([422, 10002]);
    });

    it("never shows another company's entries, not even those it wrote for the same device before a reassignment", async () => {
      const team = await createTeam(suite.db);
      const former = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id);
      // Written while the device belonged to the former company: the log keeps that company (migration 0017).
      await insertNotification(suite.db, {
        companyId: former.company.id,
        deviceId: device.id,
        channel: 'email',
        recipient: 'secret@former.test',
        status: 'sent',
        at: new Date(),
      });
      await insertNotification(suite.db, {
        companyId: team.company.id,
        deviceId: device.id,
        channel: 'email',
        recipient: 'ops@team.test',
        status: 'sent',
        at: new Date(),
      });
      const res = await (await signIn(team.main.email)).get(
        `/api/v1/core/devices/${device.id}/notifications`,
      );
      expect(res.body.payload.map((n: { recipient: string }) => n.recipient)).toEqual(['ops@team.test']);
      const foreign = await (await signIn(former.main.email)).get(
        `/api/v1/core/devices/${device.id}/notifications`,
      );
      expect([foreign.status, foreign.body.code]).toEqual([404, 10]);
      expect(JSON.stringify(foreign.body)).not.toContain('former.test');
    });
  });

  describe('tenant isolation and CSRF', () => {
    it("answers 10 on every device route for another company's device", async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const foreign = await createDevice(suite.db, other.company.id, { name: 'Theirs' });
      await insertData(suite.db, other.company.id, foreign.id, [{ at: new Date(), data: { t: 1 } }]);
      await insertLog(suite.db, other.company.id, foreign.id, 3, 'secret', new Date());
      const before = await deviceRow(foreign.id);
      const client = await signIn(team.main.email);
      const calls: [string, string, unknown?][] = [
        ['GET', `/api/v1/core/devices/${foreign.id}`],
        ['PUT', `/api/v1/core/devices/${foreign.id}`, { name: 'Mine now' }],
        ['PUT', `/api/v1/core/devices/${foreign.id}/metadata`, { data_fields: [] }],
        ['POST', `/api/v1/core/devices/${foreign.id}/credentials`, {}],
        ['GET', `/api/v1/core/devices/${foreign.id}/logs`],
        ['GET', `/api/v1/core/devices/${foreign.id}/notifications`],
        ['GET', `/api/v1/core/devices/${foreign.id}/battery`],
        ['GET', `/api/v1/core/devices/${foreign.id}/mobile-data`],
        ['GET', `/api/v1/core/data/${foreign.id}`],
        ['GET', `/api/v1/core/data/${foreign.id}?last_record=true`],
        ['GET', `/api/v1/core/data/${foreign.id}/current`],
      ];
      for (const [method, url, body] of calls) {
        const res = await client.request(method as 'GET', url, body);
        expect([res.status, res.body.code], `${method} ${url}`).toEqual([404, 10]);
        expect(JSON.stringify(res.body)).not.toContain('secret');
      }
      expect(await deviceRow(foreign.id)).toEqual(before);
    });

    it('refuses mutations without the CSRF token (77) and changes nothing', async () => {
      const team = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id, { name: 'Guarded' });
      const before = await deviceRow(device.id);
      const client = await signIn(team.main.email);
      const calls: [string, string, unknown][] = [
        ['PUT', `/api/v1/core/devices/${device.id}`, { name: 'Forged' }],
        ['PUT', `/api/v1/core/devices/${device.id}/metadata`, { data_fields: [] }],
        ['POST', `/api/v1/core/devices/${device.id}/credentials`, {}],
        ['POST', '/api/v1/core/integrations/tokens', { kind: 'chirpstack', name: 'Forged' }],
      ];
      for (const [method, url, body] of calls) {
        const res = await client.request(method as 'PUT', url, body, { csrf: false });
        expect([res.status, res.body.code], `${method} ${url}`).toEqual([419, 77]);
      }
      expect(await deviceRow(device.id)).toEqual(before);
      const { rows } = await suite.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM integration_tokens WHERE company_id = $1',
        [team.company.id],
      );
      expect(rows[0]!.n).toBe(0);
    });
  });
});
