/** The schema of the data tables: device data and state, the notification log, reference geography. */
import { describe, expect, it } from 'vitest';
import type { Queryable } from './db';
import { updateDevicePositions, upsertDeviceStateRows } from './repositories/device-current';
import { insertDeviceDataRows } from './repositories/device-data-writes';
import { forEachDb } from './testing';

async function insertCompany(q: Queryable, name: string): Promise<number> {
  const { rows } = await q.query<{ id: number }>('INSERT INTO companies (name) VALUES ($1) RETURNING id', [
    name,
  ]);
  return rows[0]?.id ?? 0;
}

async function insertDevice(q: Queryable, companyId: number, name = 'device'): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    'INSERT INTO devices (company_id, name) VALUES ($1, $2) RETURNING id',
    [companyId, name],
  );
  return rows[0]?.id ?? 0;
}

forEachDb((suite) => {
  describe('device data', () => {
    it('drops a repeated uplink (same device, time and message id) and keeps rows without message id', async () => {
      const company = await insertCompany(suite.db, 'Data GmbH');
      const device = await insertDevice(suite.db, company);
      const insert = (messageId: string | null) =>
        insertDeviceDataRows(suite.db, [
          {
            device_id: device,
            company_id: company,
            created_at: '2024-05-01T10:00:00Z',
            data: { temperature: 21.5 },
            latitude: null,
            longitude: null,
            metalabel: null,
            fcnt: null,
            message_id: messageId,
          },
        ]);
      expect(await insert('fcnt:17')).toBe(1);
      expect(await insert('fcnt:17')).toBe(0);
      expect(await insert(null)).toBe(1);
      expect(await insert(null)).toBe(1);
      const { rows } = await suite.db.query<{ count: number }>(
        'SELECT count(*) FROM device_data WHERE device_id = $1',
        [device],
      );
      expect(rows[0]?.count).toBe(3);
    });

    it("updates a device's state in place and leaves an active device's row alone (the storage writer does this for every active device)", async () => {
      const company = await insertCompany(suite.db, 'Status GmbH');
      const device = await insertDevice(suite.db, company);
      const uplink = (at: string, battery: number) => ({
        current: [
          {
            device_id: device,
            company_id: company,
            data: { temperature: 21.5, battery_level: battery },
            field_times: { temperature: at, battery_level: at },
            latitude: null,
            longitude: null,
            updated_at: at,
          },
        ],
        status: [
          {
            device_id: device,
            company_id: company,
            last_online_at: at,
            battery_level: { value: battery, at },
          },
        ],
      });
      // The first uplink marks the device active and creates its device_current row.
      const first = uplink('2024-05-01T10:00:00.000Z', 87);
      await suite.db.transaction(async (tx) => {
        await updateDevicePositions(tx, first.status);
        await upsertDeviceStateRows(tx, first.current, first.status);
      });
      const counts = await suite.db.transaction(async (tx) => {
        // This backend's counts not yet flushed to the statistics (earlier statements of other tests may be
        // among them, hence the difference). A HOT update adds no index entries; had any indexed column
        // changed, it would be a plain update.
        const read = async () =>
          Object.fromEntries(
            (
              await tx.query<{ relname: string; updates: number; hot: number }>(
                `SELECT relname, n_tup_upd::int AS updates, n_tup_hot_upd::int AS hot
                   FROM pg_stat_xact_user_tables WHERE relname IN ('devices', 'device_current')`,
              )
            ).rows.map((r) => [r.relname, { updates: r.updates, hot: r.hot }]),
          );
        const before = await read();
        const next = uplink('2024-05-01T10:10:00.000Z', 86);
        await updateDevicePositions(tx, next.status);
        await upsertDeviceStateRows(tx, next.current, next.status);
        const after = await read();
        const diff = (table: string) => ({
          updates: (after[table]?.updates ?? 0) - (before[table]?.updates ?? 0),
          hot: (after[table]?.hot ?? 0) - (before[table]?.hot ?? 0),
        });
        return { devices: diff('devices'), current: diff('device_current') };
      });
      expect(counts).toEqual({ devices: { updates: 0, hot: 0 }, current: { updates: 1, hot: 1 } });
      const { rows } = await suite.db.query<{
        battery_level: number;
        last_online_at: Date;
        is_active: boolean;
      }>('SELECT battery_level, last_online_at, is_active FROM device_current WHERE device_id = $1', [
        device,
      ]);
      expect(rows).toEqual([
        { battery_level: 86, last_online_at: new Date('2024-05-01T10:10:00.000Z'), is_active: true },
      ]);
    });

    it('uses the plain-table layout with a BRIN index where TimescaleDB is not installed', async () => {
      const timescale = await suite.db.query("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'");
      // This machine has no TimescaleDB; the test documents which branch of migrations 0002 and 0043 ran.
      expect(timescale.rows).toEqual([]);
      const { rows } = await suite.db.query<{ indexdef: string }>(
        "SELECT indexdef FROM pg_indexes WHERE tablename = 'device_readings' ORDER BY indexname",
      );
      expect(rows.map((r) => r.indexdef)).toEqual([
        expect.stringContaining('USING brin (created_at)'),
        expect.stringMatching(
          /INDEX device_readings_series_time_idx ON .*USING btree \(series, created_at\)/,
        ),
      ]);
    });
  });

  describe('notification log', () => {
    it("finds a retried job's rows by idempotency key through an index, not a walk of the company's log", async () => {
      const plan = await suite.db.transaction(async (tx) => {
        // Tables in a test are tiny, so the planner would scan them anyway; with scans priced out it shows
        // whether an index can answer the notifier's lookup (load-action.ts) at all.
        await tx.query('SET LOCAL enable_seqscan = off');
        const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
          "EXPLAIN SELECT recipient FROM notification_log WHERE company_id = 1 AND idempotency_key = 'k'",
        );
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('notification_log_idempotency_idx');
    });

    it("reads a device's entries newest first through an index, not a walk of the company's log", async () => {
      const plan = await suite.db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        // The order of GET /core/devices/{id}/notifications (apps/api list-device-notifications.ts).
        const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT id FROM notification_log WHERE company_id = 1 AND device_id = 2
            ORDER BY created_at DESC, id DESC LIMIT 100`,
        );
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('notification_log_device_idx');
      // The index gives the order: no sort step over the device's entries.
      expect(plan).not.toMatch(/\bSort\b/);
    });
  });

  describe('reference geography', () => {
    it.each([
      ['DE', 'Deutschland', 16, 417],
      ['AT', 'Österreich', 9, 116],
      ['CH', 'Schweiz', 26, 243],
      ['FR', 'France', 13, 96],
    ])('%s (%s) has %i states and %i districts', async (code, name, states, districts) => {
      const { rows } = await suite.db.query<{ name: string; states: number; districts: number }>(
        `SELECT c.name, count(DISTINCT s.id) AS states, count(d.id) AS districts
         FROM countries c JOIN states s ON s.country_id = c.id LEFT JOIN districts d ON d.state_id = s.id
         WHERE c.code = $1 GROUP BY c.name`,
        [code],
      );
      expect(rows).toEqual([{ name, states, districts }]);
    });

    // Germany: 294 Landkreise and 106 kreisfreie Städte; Berlin and Hamburg list their Bezirke.
    it.each([
      ['Baden-Württemberg', 44],
      ['Bayern', 96],
      ['Berlin', 12],
      ['Brandenburg', 18],
      ['Bremen', 2],
      ['Hamburg', 7],
      ['Hessen', 26],
      ['Mecklenburg-Vorpommern', 8],
      ['Niedersachsen', 45],
      ['Nordrhein-Westfalen', 53],
      ['Rheinland-Pfalz', 36],
      ['Saarland', 6],
      ['Sachsen', 13],
      ['Sachsen-Anhalt', 14],
      ['Schleswig-Holstein', 15],
      ['Thüringen', 22],
      ['Burgenland', 9],
      ['Kärnten', 10],
      ['Niederösterreich', 24],
      ['Oberösterreich', 18],
      ['Salzburg', 6],
      ['Steiermark', 13],
      ['Tirol', 9],
      ['Vorarlberg', 4],
      ['Wien', 23],
    ])('%s has %i districts', async (state, count) => {
      const { rows } = await suite.db.query<{ count: number }>(
        'SELECT count(*) FROM districts d JOIN states s ON s.id = d.state_id WHERE s.name = $1',
        [state],
      );
      expect(rows[0]?.count).toBe(count);
    });
  });
});
