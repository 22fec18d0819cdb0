import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { createDevice } from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';
import { useRouteApp } from '../../../../../test/route-suite';

const DECODER = `// A vendor-style codec that keeps a read pointer at its top level.
var pointer = 0;
function u8(bytes) { return bytes[pointer++]; }
function decodeUplink(input) {
  return { data: { version: u8(input.bytes), level: u8(input.bytes), alarm: { on: input.bytes[2] === 1 } } };
}
function encodeDownlink(input) {
  if (input.command !== 'set_level') return { errors: ['unknown command ' + input.command] };
  return { bytes: [0x01, input.data.level], fPort: 10 };
}
function decodeDownlink(input) {
  return { data: { level: input.bytes[1] }, warnings: [], errors: [] };
}`;

forEachDb((suite) => {
  const { signIn } = useRouteApp(suite);

  async function codecRows(companyId: number) {
    const { rows } = await suite.db.query<{ name: string }>(
      'SELECT name FROM codecs WHERE company_id = $1 ORDER BY id',
      [companyId],
    );
    return rows.map((r) => r.name);
  }

  describe('/core/codecs', () => {
    it('shows a suspended codec with the reason; renaming keeps the suspension, saving the script ends it', async () => {
      const team = await createTeam(suite.db);
      const main = await signIn(team.main.email);
      const script = 'function decodeUplink() { return { data: {} }; }';
      const codec = (await main.post('/api/v1/core/codecs', { name: 'Slow', script })).body.payload;
      expect(codec).toMatchObject({ suspended_at: null, suspended_reason: null });
      await suite.db.query(
        "UPDATE codecs SET suspended_at = now(), suspended_reason = 'too slow: 3 times within 60 s' WHERE id = $1",
        [codec.id],
      );
      expect((await main.get(`/api/v1/core/codecs/${codec.id}`)).body.payload).toMatchObject({
        suspended_at: expect.any(String),
        suspended_reason: 'too slow: 3 times within 60 s',
      });
      const renamed = await main.put(`/api/v1/core/codecs/${codec.id}`, { name: 'Slow one' });
      expect(renamed.body.payload.suspended_at).toEqual(expect.any(String));
      const saved = await main.put(`/api/v1/core/codecs/${codec.id}`, { script });
      expect(saved.body.payload).toMatchObject({ suspended_at: null, suspended_reason: null });
    });

    it('creates a codec, finds its entry points, tests it, assigns it to a device and deletes it', async () => {
      const team = await createTeam(suite.db);
      const device = await createDevice(suite.db, team.company.id);
      const main = await signIn(team.main.email);
      const created = await main.post('/api/v1/core/codecs', { name: ' Level sensor ', script: DECODER });
      expect(created.status).toBe(200);
      const codec = created.body.payload;
      expect(codec).toMatchObject({
        name: 'Level sensor',
        script: DECODER,
        functions: ['decodeUplink', 'encodeDownlink', 'decodeDownlink'],
        device_ids: [],
      });

      // The pointer starts at 0 on every call: the same bytes decode the same way each time.
      for (let i = 0; i < 2; i++) {
        const test = await main.post(`/api/v1/core/codecs/${codec.id}/test`, {
          operation: 'decodeUplink',
          bytes: '01 2A 01',
          f_port: 1,
        });
        expect(test.body.payload).toEqual({
          data: { version: 1, level: 42, alarm: { on: true } },
          stored: { version: 1, level: 42, 'alarm.on': true },
          warnings: [],
          errors: [],
        });
      }
      // base64 as well; encodeDownlink reads the extra field `command`; decodeDownlink reads bytes back.
      const b64 = await main.post(`/api/v1/core/codecs/${codec.id}/test`, {
        operation: 'decodeUplink',
        bytes: Buffer.from([1, 7, 0]).toString('base64'),
      });
      expect(b64.body.payload.data).toEqual({ version: 1, level: 7, alarm: { on: false } });
      const encoded = await main.post(`/api/v1/core/codecs/${codec.id}/test`, {
        operation: 'encodeDownlink',
        input: { command: 'set_level', data: { level: 9 } },
      });
      expect(encoded.body.payload).toEqual({ bytes: '0109', f_port: 10, warnings: [], errors: [] });
      const decoded = await main.post(`/api/v1/core/codecs/${codec.id}/test`, {
        operation: 'decodeDownlink',
        bytes: '0109',
        f_port: 10,
      });
      expect(decoded.body.payload.data).toEqual({ level: 9 });

      const assigned = await main.put(`/api/v1/core/devices/${device.id}`, { codec_id: codec.id });
      expect([assigned.status, assigned.body.payload.codec_id]).toEqual([200, codec.id]);
      expect((await main.get(`/api/v1/core/codecs/${codec.id}`)).body.payload.device_ids).toEqual([
        device.id,
      ]);
      const list = await main.get('/api/v1/core/codecs');
      expect(list.body.payload.map((c: { id: number }) => c.id)).toEqual([codec.id]);

      const renamed = await main.put(`/api/v1/core/codecs/${codec.id}`, {
        script: 'function decodeUplink() { return { data: {} }; }',
      });
      expect(renamed.body.payload).toMatchObject({ name: 'Level sensor', functions: ['decodeUplink'] });

      const deleted = await main.delete(`/api/v1/core/codecs/${codec.id}`);
      expect(deleted.body).toEqual({ payload: { id: codec.id } });
      expect((await main.get(`/api/v1/core/devices/${device.id}`)).body.payload.codec_id).toBeNull();
      const gone = await main.get(`/api/v1/core/codecs/${codec.id}`);
      expect([gone.status, gone.body.code]).toEqual([404, 90011]);
    });

    it.each([
      [
        'a syntax error',
        'function decodeUplink(input) {\n  return {\n    data: 1 +\n  };\n}',
        4,
        /SyntaxError/,
      ],
      [
        'a top level that throws',
        '// codec\nvar table = lookup();\nfunction decodeUplink() {}',
        2,
        /ReferenceError/,
      ],
    ])(
      'refuses a script with %s (90012) with the error and its line, and stores nothing',
      async (_n, script, line, error) => {
        const team = await createTeam(suite.db);
        const main = await signIn(team.main.email);
        const res = await main.post('/api/v1/core/codecs', { name: 'Broken', script });
        expect([res.status, res.body.code]).toEqual([422, 90012]);
        expect(res.body.details.line).toBe(line);
        expect(res.body.details.error).toMatch(error);
        expect(await codecRows(team.company.id)).toEqual([]);
      },
    );

    it('refuses a script that defines no entry point (90012), a too large one (90013) and a blank name (422)', async () => {
      const team = await createTeam(suite.db);
      const main = await signIn(team.main.email);
      const none = await main.post('/api/v1/core/codecs', { name: 'X', script: 'var x = 1;' });
      expect([none.status, none.body.code]).toEqual([422, 90012]);
      const big = await main.post('/api/v1/core/codecs', {
        name: 'X',
        script: `function decodeUplink() { return { data: {} }; }\n//${'x'.repeat(256 * 1024)}`,
      });
      expect([big.status, big.body.code]).toEqual([422, 90013]);
      const blank = await main.post('/api/v1/core/codecs', { name: ' ', script: DECODER });
      expect([blank.status, blank.body.code, blank.body.details.fields.name.key]).toEqual([
        422,
        422,
        'error.required',
      ]);
      expect(await codecRows(team.company.id)).toEqual([]);
    });

    it('tests a source not saved yet: a throw with its line, a loop stopped by the time budget', async () => {
      const team = await createTeam(suite.db);
      const admin = await signIn(team.admin.email);
      const threw = await admin.post('/api/v1/core/codecs/test', {
        operation: 'decodeUplink',
        bytes: '01',
        script:
          'function decodeUplink(input) {\n  var a = input.bytes[0];\n  throw new Error("bad frame " + a);\n}',
      });
      expect(threw.body.payload).toEqual({
        warnings: [],
        errors: ['codec threw Error: bad frame 1'],
        line: 3,
      });
      const started = Date.now();
      const loops = await admin.post('/api/v1/core/codecs/test', {
        operation: 'decodeUplink',
        bytes: '01',
        script: 'function decodeUplink() { for (;;) {} }',
      });
      expect(loops.body.payload.errors).toEqual(['codec exceeded its time limit of 50 ms']);
      expect(Date.now() - started).toBeLessThan(5_000);
      const notLoading = await admin.post('/api/v1/core/codecs/test', {
        operation: 'decodeUplink',
        bytes: '01',
        script: 'function decodeUplink( {',
      });
      expect(notLoading.body.payload.errors[0]).toMatch(/^loading the codec failed: SyntaxError/);
      expect(notLoading.body.payload.line).toBe(1);
      const badBytes = await admin.post('/api/v1/core/codecs/test', {
        operation: 'decodeUplink',
        bytes: 'not bytes!',
        script: DECODER,
      });
      expect([badBytes.status, badBytes.body.code]).toEqual([422, 422]);
      expect(await codecRows(team.company.id)).toEqual([]);
    });

    it("answers 90011 for another company's codec on every route and refuses it as a device's codec", async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const mine = await createDevice(suite.db, team.company.id);
      const theirMain = await signIn(other.main.email);
      const theirs = (await theirMain.post('/api/v1/core/codecs', { name: 'Theirs', script: DECODER })).body
        .payload;
      const main = await signIn(team.main.email);
      expect((await main.get('/api/v1/core/codecs')).body.payload).toEqual([]);
      for (const res of [
        await main.get(`/api/v1/core/codecs/${theirs.id}`),
        await main.put(`/api/v1/core/codecs/${theirs.id}`, { name: 'Hijacked' }),
        await main.post(`/api/v1/core/codecs/${theirs.id}/test`, { operation: 'decodeUplink', bytes: '01' }),
        await main.delete(`/api/v1/core/codecs/${theirs.id}`),
        await main.put(`/api/v1/core/devices/${mine.id}`, { codec_id: theirs.id }),
      ]) {
        expect([res.status, res.body.code]).toEqual([404, 90011]);
      }
      expect(await codecRows(other.company.id)).toEqual(['Theirs']);
      expect((await main.get(`/api/v1/core/devices/${mine.id}`)).body.payload.codec_id).toBeNull();
    });

    it('lets plain users read only (90010)', async () => {
      const team = await createTeam(suite.db);
      const main = await signIn(team.main.email);
      const codec = (await main.post('/api/v1/core/codecs', { name: 'Mine', script: DECODER })).body.payload;
      const plain = await signIn(team.plain.email);
      expect((await plain.get(`/api/v1/core/codecs/${codec.id}`)).status).toBe(200);
      for (const res of [
        await plain.post('/api/v1/core/codecs', { name: 'Other', script: DECODER }),
        await plain.put(`/api/v1/core/codecs/${codec.id}`, { name: 'Renamed' }),
        await plain.post(`/api/v1/core/codecs/${codec.id}/test`, { operation: 'decodeUplink', bytes: '01' }),
        await plain.post('/api/v1/core/codecs/test', {
          operation: 'decodeUplink',
          bytes: '01',
          script: DECODER,
        }),
        await plain.delete(`/api/v1/core/codecs/${codec.id}`),
      ]) {
        expect([res.status, res.body.code]).toEqual([403, 90010]);
      }
      expect(await codecRows(team.company.id)).toEqual(['Mine']);
    });
  });
});
