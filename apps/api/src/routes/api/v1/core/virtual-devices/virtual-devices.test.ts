import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { createDevice } from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';
import { useRouteApp } from '../../../../../test/route-suite';

forEachDb((suite) => {
  const { signIn } = useRouteApp(suite);

  async function deviceNames(companyId: number) {
    const { rows } = await suite.db.query<{ name: string }>(
      'SELECT name FROM devices WHERE company_id = $1 ORDER BY id',
      [companyId],
    );
    return rows.map((r) => r.name);
  }

  describe('POST /core/devices/virtual', () => {
    it('adds a virtual device over the company’s devices with its inputs', async () => {
      const team = await createTeam(suite.db);
      const [a, b] = [
        await createDevice(suite.db, team.company.id),
        await createDevice(suite.db, team.company.id),
      ];
      const admin = await signIn(team.admin.email);
      const res = await admin.post('/api/v1/core/devices/virtual', {
        name: 'Mean soil humidity',
        fields: [
          { key: 'soil_humidity_mean', formula: `(d${a.id}.soil_humidity + d${b.id}.soil_humidity) / 2` },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.payload).toMatchObject({ name: 'Mean soil humidity', device_type: 'virtual' });
      const { rows } = await suite.db.query<{ input: number }>(
        'SELECT input_device_id::int AS input FROM virtual_device_inputs WHERE virtual_device_id = $1 ORDER BY 1',
        [res.body.payload.id],
      );
      expect(rows.map((r) => r.input)).toEqual([a.id, b.id].sort((x, y) => x - y));
      // The info drawer reads its formulas and inputs with the device.
      const shown = await admin.get(`/api/v1/core/devices/${res.body.payload.id}`);
      expect(shown.body.payload.virtual.fields).toEqual([
        { key: 'soil_humidity_mean', formula: `(d${a.id}.soil_humidity + d${b.id}.soil_humidity) / 2` },
      ]);
      expect(shown.body.payload.virtual.inputs.map((i: { id: number }) => i.id).sort()).toEqual(
        [a.id, b.id].sort(),
      );
      const plain = await admin.get(`/api/v1/core/devices/${a.id}`);
      expect(plain.body.payload.virtual).toBeUndefined();
    });

    it("refuses another company's device as an input (90017), a bad formula (89) and writes nothing", async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const mine = await createDevice(suite.db, team.company.id);
      const theirs = await createDevice(suite.db, other.company.id);
      const admin = await signIn(team.admin.email);
      const foreign = await admin.post('/api/v1/core/devices/virtual', {
        name: 'Spy',
        fields: [{ key: 'sum', formula: `d${mine.id}.temperature + d${theirs.id}.temperature` }],
      });
      expect([foreign.status, foreign.body.code, foreign.body.details.device_ids]).toEqual([
        422,
        90017,
        [theirs.id],
      ]);
      const bad = await admin.post('/api/v1/core/devices/virtual', {
        name: 'Bad',
        fields: [{ key: 'sum', formula: `d${mine.id}.temperature +` }],
      });
      expect([bad.status, bad.body.code]).toEqual([422, 89]);
      const noInput = await admin.post('/api/v1/core/devices/virtual', {
        name: 'Constant',
        fields: [{ key: 'c', formula: 'temperature * 2' }],
      });
      expect([noInput.status, noInput.body.code]).toEqual([422, 90017]);
      expect(await deviceNames(team.company.id)).toHaveLength(1);
    });

    it('is refused to main and plain users (90016)', async () => {
      const team = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id);
      for (const email of [team.main.email, team.plain.email]) {
        const client = await signIn(email);
        const res = await client.post('/api/v1/core/devices/virtual', {
          name: 'Double',
          fields: [{ key: 'double', formula: `d${device.id}.temperature * 2` }],
        });
        expect([res.status, res.body.code]).toEqual([403, 90016]);
      }
      expect(await deviceNames(team.company.id)).toHaveLength(1);
    });
  });
});
