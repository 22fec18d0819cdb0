/**
 * A device log entry is worded in the reader's language (issue #23): the rules worker stores its kind
 * and parameters (migration 0040); the API words them with the signed-in user's locale. An entry
 * written before 0040 (no kind) reads as it was stored, for everyone.
 */
import { insertDeviceLogRows } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { createDevice, insertLog } from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';
import { useDevicesSuite } from './devices-test-setup';

forEachDb((suite) => {
  const { signIn } = useDevicesSuite(suite);

  describe('device log language', () => {
    it('words an entry for a German and an English reader; an old entry reads as stored', async () => {
      const team = await createTeam(suite.db);
      await suite.db.query(`UPDATE users SET locale = 'de' WHERE id = $1`, [team.main.id]);
      const device = await createDevice(suite.db, team.company.id);
      await insertLog(
        suite.db,
        team.company.id,
        device.id,
        6,
        'written before kinds',
        new Date('2026-03-01T00:00:00Z'),
      );
      await insertDeviceLogRows(suite.db, [
        {
          device_id: device.id,
          company_id: team.company.id,
          level: 4,
          message: 'Rule "Dry": alarm raised (soil_humidity lte 20 (value 12))',
          kind: 'alarm_raise',
          params: { rule: 'Dry', field: 'soil_humidity', reason: 'soil_humidity lte 20 (value 12)' },
          payload: { kind: 'alarm_raise' },
          raw: null,
          created_at: '2026-03-01T01:00:00Z',
        },
      ]);
      const read = async (email: string) =>
        (await (await signIn(email)).get(`/api/v1/core/devices/${device.id}/logs`)).body.payload.map(
          (l: { message: string; kind: string | null }) => [l.kind, l.message],
        );
      expect(await read(team.main.email)).toEqual([
        ['alarm_raise', 'Regel „Dry“: Alarm ausgelöst (Bodenfeuchte (%) ≤ 20 (Wert 12))'],
        [null, 'written before kinds'],
      ]);
      expect(await read(team.plain.email)).toEqual([
        ['alarm_raise', 'Rule "Dry": alarm raised (Soil moisture (%) ≤ 20 (value 12))'],
        [null, 'written before kinds'],
      ]);
    });
  });
});
