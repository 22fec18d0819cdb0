import { describe, expect, it } from 'vitest';
import { withTenant } from '../tenant';
import { forEachDb } from '../testing';
import { insertCompany } from './companies';
import {
  deleteDashboard,
  findDashboard,
  insertDashboard,
  listDashboards,
  listDevicePositions,
  readCurrentValuesOfDevices,
  replaceWidgets,
  updateDashboard,
} from './dashboards';
import {
  deleteGroup,
  findGroup,
  groupNameTaken,
  insertGroup,
  listGroups,
  ownedDeviceIds,
  setGroupDevices,
  updateGroup,
} from './groups';

describe('groups and dashboards repositories', () => {
  forEachDb((suite) => {
    async function company() {
      return (await insertCompany(suite.db, { name: 'Acme' })).id;
    }
    async function device(companyId: number, columns: { latitude?: number; longitude?: number } = {}) {
      const { rows } = await suite.db.query<{ id: number }>(
        'INSERT INTO devices (company_id, name, latitude, longitude) VALUES ($1, $2, $3, $4) RETURNING id::int AS id',
        [companyId, 'Device', columns.latitude ?? null, columns.longitude ?? null],
      );
      return rows[0]!.id;
    }
    async function groupOf(deviceId: number) {
      const { rows } = await suite.db.query<{ g: number | null }>(
        'SELECT group_id::int AS g FROM devices WHERE id = $1',
        [deviceId],
      );
      return rows[0]!.g;
    }

    it('assigns exactly the given devices of the company and never touches another company', async () => {
      const a = await company();
      const b = await company();
      const [d1, d2, d3] = [await device(a), await device(a), await device(a)];
      const foreign = await device(b);
      const g = await insertGroup(suite.db, a, { name: 'Keller', description: null });
      await setGroupDevices(suite.db, a, g, [d1!, d2!]);
      expect((await findGroup(suite.db, a, g))?.deviceIds).toEqual([d1, d2]);
      await setGroupDevices(suite.db, a, g, [d2!, d3!, foreign]);
      expect([await groupOf(d1!), await groupOf(d2!), await groupOf(d3!)]).toEqual([null, g, g]);
      expect(await groupOf(foreign)).toBeNull();
      expect(await ownedDeviceIds(suite.db, a, [foreign, d3!, d1!, 999_999])).toEqual([d1, d3]);
      expect(await findGroup(suite.db, b, g)).toBeNull();
      expect(await updateGroup(suite.db, b, g, { name: 'stolen' })).toBe(false);
      expect(await deleteGroup(suite.db, b, g)).toBe(false);
      expect((await listGroups(suite.db, a)).map((x) => [x.name, x.deviceIds.length])).toEqual([
        ['Keller', 2],
      ]);
      expect(await groupNameTaken(suite.db, a, ' KELLER ')).toBe(true);
      expect(await groupNameTaken(suite.db, a, 'keller', g)).toBe(false);
      expect(await groupNameTaken(suite.db, b, 'Keller')).toBe(false);
      expect(await deleteGroup(suite.db, a, g)).toBe(true);
      expect([await groupOf(d2!), await groupOf(d3!)]).toEqual([null, null]);
    });

    it('replaces widgets in order, keeps them per company and deletes them with the dashboard', async () => {
      const a = await company();
      const b = await company();
      const first = await insertDashboard(suite.db, a, { name: 'Eins', createdBy: null });
      const second = await insertDashboard(suite.db, a, { name: 'Zwei', createdBy: null });
      const widget = (type: string, y: number) => ({
        type,
        title: type,
        x: 0,
        y,
        w: 12,
        h: 2,
        settings: { y },
      });
      await replaceWidgets(suite.db, a, first, [
        widget('map', 4),
        widget('table', 0),
        widget('line_chart', 2),
      ]);
      const found = await findDashboard(suite.db, a, first);
      expect(found?.widgets.map((w) => [w.type, w.settings])).toEqual([
        ['table', { y: 0 }],
        ['line_chart', { y: 2 }],
        ['map', { y: 4 }],
      ]);
      expect((await listDashboards(suite.db, a)).map((d) => [d.name, d.position, d.widgets.length])).toEqual([
        ['Eins', 0, 3],
        ['Zwei', 1, 0],
      ]);
      await replaceWidgets(suite.db, a, first, [widget('map', 0)]);
      expect((await findDashboard(suite.db, a, first))?.widgets.map((w) => w.type)).toEqual(['map']);
      expect(await findDashboard(suite.db, b, first)).toBeNull();
      expect(await updateDashboard(suite.db, b, first, { name: 'stolen' })).toBe(false);
      expect(await deleteDashboard(suite.db, b, first)).toBe(false);
      expect(await updateDashboard(suite.db, a, second, { position: 0 })).toBe(true);
      expect(await deleteDashboard(suite.db, a, first)).toBe(true);
      const { rows } = await suite.db.query('SELECT 1 FROM dashboard_widgets WHERE dashboard_id = $1', [
        first,
      ]);
      expect(rows).toEqual([]);
    });

    it('reads current values and positions of the company only, also under row-level security', async () => {
      const a = await company();
      const b = await company();
      const mine = await device(a, { latitude: 48, longitude: 7.5 });
      const theirs = await device(b, { latitude: 50, longitude: 8 });
      for (const [id, companyId] of [
        [mine, a],
        [theirs, b],
      ] as const) {
        await suite.db.query(
          `INSERT INTO device_current (device_id, company_id, data, field_times, updated_at)
           VALUES ($1, $2, '{"t": 1, "h": 2}', '{}', now())`,
          [id, companyId],
        );
      }
      const current = await withTenant(suite.db, a, (tx) =>
        readCurrentValuesOfDevices(tx, a, [mine, theirs], ['t']),
      );
      expect(current.map((c) => [c.deviceId, c.data])).toEqual([[mine, { t: 1 }]]);
      // Even a query naming the wrong company sees nothing inside another tenant's transaction.
      expect(
        await withTenant(suite.db, a, (tx) => readCurrentValuesOfDevices(tx, b, [theirs], null)),
      ).toEqual([]);
      const positions = await withTenant(suite.db, a, (tx) => listDevicePositions(tx, a, { dataField: 'h' }));
      expect(positions.map((p) => [p.id, p.latitude, p.longitude, p.value])).toEqual([[mine, 48, 7.5, 2]]);
      expect(await withTenant(suite.db, a, (tx) => listDevicePositions(tx, b))).toEqual([]);
    });
  });
});
