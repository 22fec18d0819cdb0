import { createHash, randomBytes } from 'node:crypto';
import { listDevices, saveNetworkServer, saveTtsDownlinkRoute, withTenant } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import {
  createDevice,
  createGroup,
  insertData,
  insertLog,
  setCurrent,
} from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';
import { HOUR, useDevicesSuite } from './devices-test-setup';
import { presentDeviceListItem } from './present';

const randomDevEui = () => randomBytes(8).toString('hex');

forEachDb((suite) => {
  const { signIn, deviceRow } = useDevicesSuite(suite);

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

    it('answers the same objects as the row-by-row presentation did, whatever the values', async () => {
      const team = await createTeam(suite.db);
      const c = team.company.id;
      const groupId = await createGroup(suite.db, c, 'Nord "Süd" \\ Ost');
      // Milliseconds and microseconds, numbers of every kind, text that needs escaping, empty and full.
      const at = new Date('2026-11-29T06:59:05.999Z');
      const full = await createDevice(suite.db, c, {
        name: 'Kühlraum "A"\n\t</script>',
        description: 'ümlaut ✓ 🚀',
        group_id: groupId,
        latitude: 48.137154,
        longitude: 11.576124,
        mains_powered: true,
        battery_level: 0.1,
        battery_voltage: 3.6999999999999997,
        signal_strength: 4,
        rssi: -117,
        snr: -7.25,
        mobile_data_volume: 123456789012,
        last_online_at: at,
        is_active: true,
        metadata: {
          data_fields: [{ data_field: 'temp', label: 'T', sort: 1 }],
          '10': 'x',
          nested: { a: [1, null] },
        },
      });
      await suite.db.query(
        `UPDATE device_current SET last_online_at = last_online_at + interval '123 microseconds'
        WHERE device_id = $1`,
        [full.id],
      );
      await setCurrent(
        suite.db,
        c,
        full.id,
        { temp: 21.5, big: 1e21, tiny: 1.5e-7, on: true, text: 'a"b' },
        {
          temp: at.toISOString(),
        },
        at,
      );
      await createDevice(suite.db, c, { name: 'Empty' });
      const client = await signIn(team.plain.email);
      const answer = await client.get('/api/v1/core/devices?sort=name');
      expect(answer.status).toBe(200);
      const before = await withTenant(suite.db, c, (tx) => listDevices(tx, c, { sort: 'name' }));
      expect(answer.body.payload).toEqual(JSON.parse(JSON.stringify(before.map(presentDeviceListItem))));
      expect(answer.body.payload.map((d: { name: string }) => d.name)).toEqual([
        'Empty',
        'Kühlraum "A"\n\t</script>',
      ]);
      // The keys in the documented order.
      expect(Object.keys(answer.body.payload[1])).toEqual(Object.keys(presentDeviceListItem(before[1]!)));
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
      const team = await createTeam(suite.db, { modules: ['map_view'] });
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
