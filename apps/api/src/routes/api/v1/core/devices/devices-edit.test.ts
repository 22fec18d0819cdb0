import { createHash } from 'node:crypto';
import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { createDevice, createGroup } from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';
import { useDevicesSuite } from './devices-test-setup';

forEachDb((suite) => {
  const { signIn, deviceRow } = useDevicesSuite(suite);

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
});
