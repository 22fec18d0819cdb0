import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { createDevice } from '../../../../test/device-fixtures';
import { createTeam } from '../../../../test/fixtures';
import { useRouteApp } from '../../../../test/route-suite';
import { createFarmingTeam, square } from './farming-test-setup';

forEachDb((suite) => {
  const { signIn } = useRouteApp(suite);

  async function parcel(
    client: Awaited<ReturnType<typeof signIn>>,
    parcelId: string,
    size: number,
    flik = 'DEBWLI0883800010',
  ) {
    const res = await client.post('/api/v1/farming/parcels', {
      parcel_id: parcelId,
      registration_number: flik,
      size_m2: size,
    });
    expect(res.status).toBe(200);
    return res.body.payload as { id: number };
  }

  describe('/farming/fields and /farming/parcels', () => {
    it('creates a field with a boundary, assigns parcels and sums their size, moving parcels between fields', async () => {
      const team = await createFarmingTeam(suite.db);
      const main = await signIn(team.main.email);
      const created = await main.post('/api/v1/farming/fields', {
        name: ' Acker Ost ',
        soil: 'lS',
        plant: 'winter_wheat',
        boundary: square(7.5766, 48.0415, 100),
      });
      expect(created.status).toBe(200);
      const field = created.body.payload;
      expect(field).toMatchObject({
        name: 'Acker Ost',
        soil: 'lS',
        plant: 'winter_wheat',
        size_m2: 0,
        count_parcels: 0,
      });
      // The server computes the boundary's area: a 100 m square is 10 000 m² (turf uses a spherical earth: within half a percent).
      expect(field.boundary_area_m2).toBeGreaterThan(9950);
      expect(field.boundary_area_m2).toBeLessThan(10_050);

      const a = await parcel(main, '12', 12_345.5);
      const b = await parcel(main, '13', 4_000);
      const c = await parcel(main, '14', 0.5);
      const assigned = await main.put(`/api/v1/farming/fields/${field.id}/assign/parcels`, {
        field_id: field.id,
        parcels: [a.id, b.id, b.id],
      });
      expect(assigned.status).toBe(200);
      expect(assigned.body.payload).toMatchObject({ count_parcels: 2, size_m2: 16_345.5 });

      // A second field takes parcel b (and c): the first field's count and size follow.
      const west = (await main.post('/api/v1/farming/fields', { name: 'Acker West', parcels: [b.id, c.id] }))
        .body.payload;
      expect(west).toMatchObject({ count_parcels: 2, size_m2: 4_000.5 });
      const list = (await main.get('/api/v1/farming/fields')).body.payload;
      expect(
        list.map((f: { name: string; count_parcels: number; size_m2: number }) => [
          f.name,
          f.count_parcels,
          f.size_m2,
        ]),
      ).toEqual([
        ['Acker Ost', 1, 12_345.5],
        ['Acker West', 2, 4_000.5],
      ]);
      const parcels = (await main.get('/api/v1/farming/parcels')).body.payload;
      expect(parcels.find((p: { id: number }) => p.id === b.id).field).toEqual({
        id: west.id,
        name: 'Acker West',
      });

      // Editing a parcel's size changes its field's size.
      await main.put(`/api/v1/farming/parcels/${a.id}`, { size_m2: 20_000 });
      expect((await main.get('/api/v1/farming/fields')).body.payload[0].size_m2).toBe(20_000);

      // 20144: a parcel on a field cannot be deleted; once unassigned it can.
      const refused = await main.delete(`/api/v1/farming/parcels/${a.id}`);
      expect([refused.status, refused.body.code]).toEqual([409, 20144]);
      await main.put(`/api/v1/farming/fields/${field.id}/assign/parcels`, { parcels: [] });
      expect((await main.delete(`/api/v1/farming/parcels/${a.id}`)).status).toBe(200);

      // Deleting a field unassigns its parcels.
      expect((await main.delete(`/api/v1/farming/fields/${west.id}`)).status).toBe(200);
      const after = (await main.get('/api/v1/farming/parcels')).body.payload;
      expect(after.map((p: { field: unknown }) => p.field)).toEqual([null, null]);
    });

    it('puts a device on at most one field and unassigns devices of a deleted field', async () => {
      const team = await createFarmingTeam(suite.db);
      const d1 = await createDevice(suite.db, team.company.id);
      const d2 = await createDevice(suite.db, team.company.id);
      const main = await signIn(team.main.email);
      const one = (await main.post('/api/v1/farming/fields', { name: 'One', device_ids: [d1.id, d2.id] }))
        .body.payload;
      expect(one).toMatchObject({ count_devices: 2, device_ids: [d1.id, d2.id].sort((x, y) => x - y) });
      const two = (await main.post('/api/v1/farming/fields', { name: 'Two' })).body.payload;
      const moved = await main.put(`/api/v1/farming/fields/${two.id}/assign/devices`, {
        field_id: two.id,
        device_ids: [d2.id],
      });
      expect(moved.body.payload).toMatchObject({ count_devices: 1, device_ids: [d2.id] });
      const ofOne = (await main.get(`/api/v1/farming/fields/devices?field_id=${one.id}`)).body.payload;
      expect(ofOne.map((d: { id: number }) => d.id)).toEqual([d1.id]);
      const all = (await main.get('/api/v1/farming/fields/devices')).body.payload;
      expect(
        Object.fromEntries(all.map((d: { id: number; field_id: number | null }) => [d.id, d.field_id])),
      ).toEqual({
        [d1.id]: one.id,
        [d2.id]: two.id,
      });
      await main.delete(`/api/v1/farming/fields/${one.id}`);
      const { rows } = await suite.db.query(
        'SELECT id::int AS id FROM devices WHERE company_id = $1 AND field_id IS NOT NULL',
        [team.company.id],
      );
      expect(rows).toEqual([{ id: d2.id }]);
    });

    it('refuses another company’s parcels (20146), devices (20011) and fields (20001), changing nothing', async () => {
      const home = await createFarmingTeam(suite.db);
      const other = await createFarmingTeam(suite.db);
      const homeMain = await signIn(home.main.email);
      const otherMain = await signIn(other.main.email);
      const foreignParcel = await parcel(otherMain, '1', 1000);
      const foreignDevice = await createDevice(suite.db, other.company.id);
      const own = await parcel(homeMain, '2', 500);
      const field = (await homeMain.post('/api/v1/farming/fields', { name: 'Home', parcels: [own.id] })).body
        .payload;

      const parcels = await homeMain.put(`/api/v1/farming/fields/${field.id}/assign/parcels`, {
        parcels: [own.id, foreignParcel.id],
      });
      expect([parcels.status, parcels.body.code]).toEqual([403, 20146]);
      const devices = await homeMain.put(`/api/v1/farming/fields/${field.id}/assign/devices`, {
        device_ids: [foreignDevice.id],
      });
      expect([devices.status, devices.body.code]).toEqual([403, 20011]);
      const created = await homeMain.post('/api/v1/farming/fields', {
        name: 'Sneaky',
        parcels: [foreignParcel.id],
      });
      expect([created.status, created.body.code]).toEqual([403, 20146]);
      // Nothing changed: the other company's parcel is still free, the home field still has its parcel.
      expect((await otherMain.get('/api/v1/farming/parcels')).body.payload[0].field).toBeNull();
      expect(
        (await homeMain.get('/api/v1/farming/fields')).body.payload.map(
          (f: { name: string; size_m2: number }) => [f.name, f.size_m2],
        ),
      ).toEqual([['Home', 500]]);

      for (const [method, path] of [
        ['put', `/api/v1/farming/fields/${field.id}`],
        ['delete', `/api/v1/farming/fields/${field.id}`],
        ['put', `/api/v1/farming/fields/${field.id}/assign/parcels`],
      ] as const) {
        const res =
          method === 'put'
            ? await otherMain.put(path, { name: 'x', parcels: [] })
            : await otherMain.delete(path);
        expect([res.status, res.body.code]).toEqual([404, 20001]);
      }
      const ofForeign = await otherMain.get(`/api/v1/farming/fields/devices?field_id=${field.id}`);
      expect([ofForeign.status, ofForeign.body.code]).toEqual([404, 20001]);
      const parcelEdit = await otherMain.put(`/api/v1/farming/parcels/${own.id}`, { size_m2: 1 });
      expect([parcelEdit.status, parcelEdit.body.code]).toEqual([404, 20140]);
    });

    it('validates FLIK for German companies only, boundaries, names and catalogue codes', async () => {
      const de = await createFarmingTeam(suite.db);
      const main = await signIn(de.main.email);
      const bad = await main.post('/api/v1/farming/parcels', {
        parcel_id: '1',
        registration_number: 'DEBB123',
        size_m2: 1,
      });
      expect([bad.status, bad.body.code]).toEqual([422, 20101]);
      const lower = await main.post('/api/v1/farming/parcels', {
        parcel_id: '1',
        registration_number: 'debbli0260100301',
        size_m2: 1,
      });
      expect(lower.body.payload.registration_number).toBe('DEBBLI0260100301');

      const at = await createFarmingTeam(suite.db, { german: false });
      const atMain = await signIn(at.main.email);
      const free = await atMain.post('/api/v1/farming/parcels', {
        parcel_id: '7',
        registration_number: 'AT-123/4',
        size_m2: 1,
      });
      expect(free.body.payload.registration_number).toBe('AT-123/4');

      const open = {
        type: 'Polygon',
        coordinates: [
          [
            [7, 48],
            [7.001, 48],
            [7.001, 48.001],
            [7, 48.0011],
          ],
        ],
      };
      const unclosed = await main.post('/api/v1/farming/fields', { name: 'X', boundary: open });
      expect([unclosed.status, unclosed.body.code]).toEqual([422, 20010]);
      const noName = await main.post('/api/v1/farming/fields', { name: '  ' });
      expect([noName.status, noName.body.code]).toEqual([422, 422]);
      const soil = await main.post('/api/v1/farming/fields', { name: 'X', soil: 'moon-dust' });
      expect([soil.status, soil.body.code]).toEqual([422, 20022]);

      // A company's own soil becomes pickable; repeating a code is 20023.
      const own = await main.post('/api/v1/farming/soils', { code: 'Lö', name_de: 'Löss', name_en: 'Loess' });
      expect(own.body.payload).toMatchObject({ code: 'Lö', builtin: false });
      expect(
        (await main.post('/api/v1/farming/soils', { code: 'Lö', name_de: 'x', name_en: 'x' })).body.code,
      ).toBe(20023);
      expect((await main.post('/api/v1/farming/fields', { name: 'Löss', soil: 'Lö' })).status).toBe(200);
      const soils = (await main.get('/api/v1/farming/soils')).body.payload;
      expect(
        soils.filter((s: { builtin: boolean }) => !s.builtin).map((s: { code: string }) => s.code),
      ).toEqual(['Lö']);
      // Its names can be edited (the code stays: fields refer to the row); built-in entries cannot.
      const renamed = await main.put(`/api/v1/farming/soils/${own.body.payload.id}`, {
        name_de: 'Lösslehm',
        name_en: 'Loess loam',
      });
      expect(renamed.body.payload).toEqual({
        id: own.body.payload.id,
        code: 'Lö',
        name_de: 'Lösslehm',
        name_en: 'Loess loam',
        builtin: false,
      });
      await main.post('/api/v1/farming/fields', { name: 'Schluff', soil: 'uL' });
      const copiedBuiltin = await suite.db.query<{ id: number }>(
        `SELECT s.id::int AS id FROM soils s JOIN farming_fields f ON f.soil_id = s.id WHERE f.name = 'Schluff'`,
      );
      const builtin = await main.put(`/api/v1/farming/soils/${copiedBuiltin.rows[0]!.id}`, {
        name_de: 'x',
        name_en: 'x',
      });
      expect([builtin.status, builtin.body.code]).toEqual([404, 20021]);
      const foreign = await atMain.put(`/api/v1/farming/soils/${own.body.payload.id}`, {
        name_de: 'x',
        name_en: 'x',
      });
      expect([foreign.status, foreign.body.code]).toEqual([404, 20021]);
      // Another company does not see it.
      expect(
        (await atMain.get('/api/v1/farming/soils')).body.payload.some(
          (s: { code: string }) => s.code === 'Lö',
        ),
      ).toBe(false);
    });

    it('lets plain users read but not write, and refuses companies without the module', async () => {
      const team = await createFarmingTeam(suite.db);
      const plain = await signIn(team.plain.email);
      expect((await plain.get('/api/v1/farming/fields')).status).toBe(200);
      const write = await plain.post('/api/v1/farming/fields', { name: 'No' });
      expect([write.status, write.body.code]).toEqual([403, 20009]);
      const parcelWrite = await plain.post('/api/v1/farming/parcels', {
        parcel_id: '1',
        registration_number: 'DEBBLI0260100301',
        size_m2: 1,
      });
      expect([parcelWrite.status, parcelWrite.body.code]).toEqual([403, 20102]);

      const unlicensed = await createTeam(suite.db);
      const main = await signIn(unlicensed.main.email);
      const res = await main.get('/api/v1/farming/fields');
      expect([res.status, res.body.code]).toEqual([403, 27]);
    });
  });
});
