import { insertVirtualDevice } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { createDevice, createGroup, insertData, setCurrent } from '../../../../../test/device-fixtures';
import { createSuperAdmin, createTeam } from '../../../../../test/fixtures';
import { useDevicesSuite } from './devices-test-setup';

forEachDb((suite) => {
  const { signIn, deviceRow } = useDevicesSuite(suite);

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

    async function inputsOf(virtualDeviceId: number) {
      const { rows } = await suite.db.query<{ id: number }>(
        'SELECT input_device_id::int AS id FROM virtual_device_inputs WHERE virtual_device_id = $1 ORDER BY 1',
        [virtualDeviceId],
      );
      return rows.map((r) => r.id);
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

    it('moves an input of a virtual device and a virtual device: each keeps only inputs of its company', async () => {
      const home = await createTeam(suite.db);
      const target = await createTeam(suite.db);
      const c = home.company.id;
      const [a, b] = [await createDevice(suite.db, c), await createDevice(suite.db, c)];
      const fields = [
        { key: 'sum', formula: `d${a.id}.temperature + d${b.id}.temperature` },
        { key: 'b_double', formula: `d${b.id}.temperature * 2` },
      ];
      const sum = await insertVirtualDevice(suite.db, c, {
        name: 'Sum',
        description: null,
        groupId: null,
        fields,
        inputDeviceIds: [a.id, b.id],
      });
      const client = await superAdminActingFor(c);

      // An input goes: the virtual device stays with its company and reads only what is still its own.
      const movedInput = await client.put(`/api/v1/core/devices/${a.id}`, {
        company_id: target.company.id,
        confirm: true,
      });
      expect([movedInput.status, movedInput.body.code]).toEqual([200, undefined]);
      expect(await inputsOf(sum)).toEqual([b.id]);
      const { rows: audit } = await suite.db.query<{ removed: Record<string, number> }>(
        `SELECT details->'removed' AS removed FROM audit_log
          WHERE action = 'device.reassign' AND company_id = $1 AND (details->>'device_id')::int = $2`,
        [c, a.id],
      );
      expect(audit[0]?.removed).toMatchObject({ virtualDeviceInputs: 1 });

      // The virtual device itself goes: the other company's devices are no inputs of it.
      const movedVirtual = await client.put(`/api/v1/core/devices/${sum}`, {
        company_id: target.company.id,
        confirm: true,
      });
      expect([movedVirtual.status, movedVirtual.body.code]).toEqual([200, undefined]);
      expect(await inputsOf(sum)).toEqual([]);
      expect(await deviceRow(sum)).toMatchObject({ company_id: target.company.id });
    });
  });
});
