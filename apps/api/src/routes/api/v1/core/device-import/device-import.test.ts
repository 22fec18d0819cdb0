import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { createDevice, createGroup } from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';
import { useRouteApp } from '../../../../../test/route-suite';

const CSV = { headers: { 'content-type': 'text/csv' } };

forEachDb((suite) => {
  const { signIn } = useRouteApp(suite);

  async function devices(companyId: number) {
    const { rows } = await suite.db.query<{ name: string; dev_eui: string | null; group_id: number | null }>(
      'SELECT name, dev_eui, group_id::int AS group_id FROM devices WHERE company_id = $1 ORDER BY id',
      [companyId],
    );
    return rows;
  }

  describe('POST /core/devices/import', () => {
    it('previews new, updated and invalid rows, refuses the file with a bad row (50107) and writes nothing', async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const existing = await createDevice(suite.db, team.company.id);
      await suite.db.query("UPDATE devices SET dev_eui = 'a000000000000001' WHERE id = $1", [existing.id]);
      const theirs = await createDevice(suite.db, other.company.id);
      await suite.db.query("UPDATE devices SET dev_eui = 'b000000000000001' WHERE id = $1", [theirs.id]);
      await createGroup(suite.db, team.company.id, 'Keller');
      const csv = [
        'Name,Type,Serial Number,DevEUI,Location,Latitude,Longitude,Group,Description',
        'Soil 1,nbiot_soil_sensor,,A0-00-00-00-00-00-00-02,Feld,52.5,13.4,keller,neu',
        'Renamed,,,a000000000000001,,,,,',
        'Spy,,,b000000000000001,,,,,',
        ',warp_drive,,zz,,95,,Nowhere,',
      ].join('\n');
      const main = await signIn(team.main.email);
      const preview = await main.request('POST', '/api/v1/core/devices/import?dry_run=true', csv, CSV);
      expect(preview.status).toBe(200);
      expect(preview.body.payload.counts).toEqual({ new: 1, updated: 1, invalid: 2 });
      expect(
        preview.body.payload.rows.map((r: { line: number; status: string; reasons: string[] }) => [
          r.line,
          r.status,
          r.reasons,
        ]),
      ).toEqual([
        [2, 'new', []],
        [3, 'updated', []],
        [4, 'invalid', ['identifier_taken']],
        [
          5,
          'invalid',
          ['name_required', 'type_unknown', 'dev_eui_invalid', 'latitude_invalid', 'group_unknown'],
        ],
      ]);
      const before = await devices(team.company.id);
      const refused = await main.request('POST', '/api/v1/core/devices/import', csv, CSV);
      expect([refused.status, refused.body.code]).toEqual([422, 50107]);
      expect(refused.body.details.counts.invalid).toBe(2);
      expect(await devices(team.company.id)).toEqual(before);
      expect((await devices(other.company.id)).map((d) => d.dev_eui)).toEqual(['b000000000000001']);

      const good = csv.split('\n').slice(0, 3).join('\n');
      const imported = await main.request('POST', '/api/v1/core/devices/import', good, CSV);
      expect(imported.body.payload.counts).toEqual({ new: 1, updated: 1, invalid: 0 });
      expect((await devices(team.company.id)).map((d) => [d.name, d.dev_eui])).toEqual([
        ['Renamed', 'a000000000000001'],
        ['Soil 1', 'a000000000000002'],
      ]);
    });

    it('imports a large file in one go and refuses plain users (90001)', async () => {
      const team = await createTeam(suite.db);
      const rows = Array.from({ length: 2000 }, (_, i) => `Meter ${i},,SN-${team.company.id}-${i},,,,,,`);
      const csv = [
        'name,type,serial_number,dev_eui,location,latitude,longitude,group,description',
        ...rows,
      ].join('\n');
      const plain = await signIn(team.plain.email);
      const refused = await plain.request('POST', '/api/v1/core/devices/import', csv, CSV);
      expect([refused.status, refused.body.code]).toEqual([403, 90001]);
      const admin = await signIn(team.admin.email);
      const res = await admin.request('POST', '/api/v1/core/devices/import', csv, CSV);
      expect(res.body.payload.counts).toEqual({ new: 2000, updated: 0, invalid: 0 });
      expect(await devices(team.company.id)).toHaveLength(2000);
    });

    it('streams the progress of a long import to a caller that accepts NDJSON, then the answer', async () => {
      const team = await createTeam(suite.db);
      const rows = Array.from({ length: 1200 }, (_, i) => `Valve ${i},,SN-P-${team.company.id}-${i},,,,,,`);
      const csv = [
        'name,type,serial_number,dev_eui,location,latitude,longitude,group,description',
        ...rows,
      ].join('\n');
      const main = await signIn(team.main.email);
      const streamed = await main.request('POST', '/api/v1/core/devices/import', csv, {
        headers: { 'content-type': 'text/csv', accept: 'application/x-ndjson' },
      });
      expect(streamed.status).toBe(200);
      expect(streamed.headers['content-type']).toMatch(/^application\/x-ndjson/);
      const lines = String(streamed.body)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.slice(0, -1)).toEqual([
        { progress: { written: 500, total: 1200 } },
        { progress: { written: 1000, total: 1200 } },
      ]);
      expect(lines.at(-1).payload.counts).toEqual({ new: 1200, updated: 0, invalid: 0 });
      expect(await devices(team.company.id)).toHaveLength(1200);

      // A short file, or a caller that does not ask for the stream, gets the plain answer.
      const short = await main.request(
        'POST',
        '/api/v1/core/devices/import',
        'name,serial_number\nOne,SN-P-x',
        {
          headers: { 'content-type': 'text/csv', accept: 'application/x-ndjson' },
        },
      );
      expect(short.body.payload.counts).toEqual({ new: 1, updated: 0, invalid: 0 });
    });
  });
});
