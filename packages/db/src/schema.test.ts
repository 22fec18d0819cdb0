import { beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from './db';
import { updateDevicePositions, upsertDeviceStateRows } from './repositories/device-current';
import { forEachDb } from './testing';

// Identity tables from 0001 whose company_id may be NULL by design: a user without a company (API code 74),
// platform-wide audit events and mail. They are still behind row-level security (rls.test.ts).
const NULLABLE_COMPANY_ID = ['audit_log', 'outbox_emails', 'users'];
// The hot time-series table and the device log keep no foreign keys; triggers delete their rows with
// their device or company (migrations 0013 and 0016, repositories/device-data-deletion.test.ts and
// device-logs-deletion.test.ts). device_former_companies is read by a company's deletion trigger before
// it deletes the company's rows (migration 0018).
const WITHOUT_FOREIGN_KEYS = ['device_data', 'device_logs', 'device_former_companies'];

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
  describe('tenancy', () => {
    it('gives every tenant-owned table a NOT NULL company_id referencing companies (a few by design without)', async () => {
      const { rows } = await suite.db.query<{ table_name: string; is_nullable: string; has_fk: boolean }>(
        `SELECT c.table_name, c.is_nullable,
                EXISTS (
                  SELECT 1 FROM pg_constraint k
                  JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = ANY (k.conkey)
                  WHERE k.contype = 'f' AND k.conrelid = format('%I', c.table_name)::regclass
                    AND k.confrelid = 'companies'::regclass AND a.attname = 'company_id'
                ) AS has_fk
         FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
         WHERE c.table_schema = 'public' AND c.column_name = 'company_id' AND t.table_type = 'BASE TABLE'
         ORDER BY c.table_name`,
      );
      // Guard against the query silently matching nothing.
      expect(rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining(['devices', 'device_data', 'rules']),
      );
      for (const row of rows) {
        const expected = NULLABLE_COMPANY_ID.includes(row.table_name) ? 'YES' : 'NO';
        expect({ table: row.table_name, nullable: row.is_nullable }).toEqual({
          table: row.table_name,
          nullable: expected,
        });
        expect({ table: row.table_name, fk: row.has_fk }).toEqual({
          table: row.table_name,
          fk: !WITHOUT_FOREIGN_KEYS.includes(row.table_name),
        });
      }
    });

    it('refuses a rule on a device of another company (composite foreign key)', async () => {
      const a = await insertCompany(suite.db, 'Tenant A');
      const b = await insertCompany(suite.db, 'Tenant B');
      const deviceOfB = await insertDevice(suite.db, b);
      await expect(
        suite.db.query(
          "INSERT INTO rules (company_id, device_id, data_field, operator, value) VALUES ($1, $2, 'temperature', 'gte', 30)",
          [a, deviceOfB],
        ),
      ).rejects.toThrow(/foreign key/);
    });

    it('refuses to move a device to another company while its configuration still points at it', async () => {
      const from = await insertCompany(suite.db, 'Seller');
      const to = await insertCompany(suite.db, 'Buyer');
      const device = await insertDevice(suite.db, from);
      await suite.db.query(
        "INSERT INTO rules (company_id, device_id, data_field, operator, value) VALUES ($1, $2, 't', 'gte', 1)",
        [from, device],
      );
      const move = () => suite.db.query('UPDATE devices SET company_id = $1 WHERE id = $2', [to, device]);
      await expect(move()).rejects.toThrow(/foreign key/);
      // Measured data keeps the company it was recorded for and does not block the move.
      await suite.db.query(
        "INSERT INTO device_data (device_id, company_id, created_at, data) VALUES ($1, $2, now(), '{}')",
        [device, from],
      );
      await suite.db.query('DELETE FROM rules WHERE device_id = $1', [device]);
      await expect(move()).resolves.toBeDefined();
      const data = await suite.db.query('SELECT company_id FROM device_data WHERE device_id = $1', [device]);
      expect(data.rows).toEqual([{ company_id: from }]);
    });
  });

  describe('constraints from the spec', () => {
    let company = 0;
    let device = 0;
    beforeAll(async () => {
      company = await insertCompany(suite.db, 'Constraints GmbH');
      device = await insertDevice(suite.db, company);
    });

    // Each case: a statement with one value in $3, the values the spec allows and some it does not.
    const cases: { what: string; sql: string; ok: unknown[]; bad: unknown[] }[] = [
      {
        what: 'device states ok, maintenance, lost, broken, disposed',
        sql: "INSERT INTO devices (company_id, name, state) SELECT $1, 'd' || $2, $3",
        ok: ['ok', 'maintenance', 'lost', 'broken', 'disposed'],
        bad: ['stolen', 'OK', ''],
      },
      {
        what: 'device target servers develop, staging, production',
        sql: "INSERT INTO devices (company_id, name, target_server) SELECT $1, 'd' || $2, $3",
        ok: ['develop', 'staging', 'production'],
        bad: ['prod', 'test'],
      },
      {
        what: 'condition operators lte, gte, eq, in, out, rie, fae',
        sql: `INSERT INTO rules (company_id, device_id, data_field, operator, value, range_min, range_max)
              SELECT $1, $2, 'temperature', $3, 1, 0, 10`,
        ok: ['lte', 'gte', 'eq', 'in', 'out', 'rie', 'fae'],
        bad: ['lt', 'between', 'neq'],
      },
      {
        what: 'click types single 1, double 2, long 4',
        sql: "INSERT INTO rules (company_id, device_id, trigger, click_type) SELECT $1, $2, 'click', $3::smallint",
        ok: [1, 2, 4],
        bad: [0, 3, 8],
      },
      {
        what: 'device log levels 0 to 7',
        sql: "INSERT INTO device_logs (company_id, device_id, level, message) SELECT $1, $2, $3::smallint, 'm'",
        ok: [0, 2, 7],
        bad: [-1, 8],
      },
      {
        what: 'downlink states queued, sent, acknowledged, failed',
        sql: "INSERT INTO downlinks (company_id, device_id, command, state) SELECT $1, $2, 'reboot', $3",
        ok: ['queued', 'sent', 'acknowledged', 'failed'],
        bad: ['done', 'pending'],
      },
      {
        what: 'aggregation functions of virtual data fields',
        sql: "INSERT INTO virtual_data_fields (company_id, device_id, name, function) SELECT $1, $2, 'v' || $3, $3",
        ok: [
          'count_up_hourly',
          'count_up_daily',
          'diff_to_last',
          'moving_average_hourly',
          'moving_average_daily',
          'sum_up',
        ],
        bad: ['average', 'count'],
      },
      {
        what: 'parking area types FIX and AI',
        sql: "INSERT INTO parking_areas (company_id, name, type) SELECT $1, 'p' || $2, $3",
        ok: ['FIX', 'AI'],
        bad: ['fix', 'camera'],
      },
      {
        what: 'parking icons PS, TP, PU, PG',
        sql: "INSERT INTO parking_areas (company_id, name, type, icon) SELECT $1, 'p' || $2, 'FIX', $3",
        ok: ['PS', 'TP', 'PU', 'PG'],
        bad: ['PX', ''],
      },
      {
        what: 'widget types table, line chart, map',
        sql: `WITH d AS (INSERT INTO dashboards (company_id) VALUES ($1) RETURNING id, $2::bigint AS unused)
              INSERT INTO dashboard_widgets (company_id, dashboard_id, type) SELECT $1, id, $3 FROM d`,
        ok: ['table', 'line_chart', 'map'],
        bad: ['pie'],
      },
    ];

    for (const c of cases) {
      it(`accepts ${c.what} and refuses anything else`, async () => {
        for (const value of c.ok) {
          await expect(suite.db.query(c.sql, [company, device, value])).resolves.toBeDefined();
        }
        for (const value of c.bad) {
          await expect(suite.db.query(c.sql, [company, device, value]), String(value)).rejects.toThrow(
            /violates/,
          );
        }
      });
    }

    it.each([
      ['start before end with weekdays', '08:00', '18:00', '{1,2,3,4,5}', true],
      ['start after end', '18:00', '08:00', '{1}', false],
      ['start equal to end', '08:00', '08:00', '{1}', false],
      ['no weekday', '08:00', '18:00', '{}', false],
      ['weekday 8', '08:00', '18:00', '{8}', false],
      ['start without end', '08:00', null, '{1}', false],
    ])('schedule: %s', async (_, start, end, weekdays, valid) => {
      const insert = suite.db.query(
        `INSERT INTO rules (company_id, device_id, data_field, operator, value, schedule_start, schedule_end, schedule_weekdays)
         VALUES ($1, $2, 'temperature', 'gte', 1, $3, $4, $5)`,
        [company, device, start, end, weekdays],
      );
      if (valid) await expect(insert).resolves.toBeDefined();
      else await expect(insert).rejects.toThrow(/violates check constraint "rules_schedule_valid"/);
    });

    it('requires a range with min <= max for in and out', async () => {
      const insert = (min: number | null, max: number | null) =>
        suite.db.query(
          "INSERT INTO rules (company_id, device_id, data_field, operator, range_min, range_max) VALUES ($1, $2, 'x', 'in', $3, $4)",
          [company, device, min, max],
        );
      await expect(insert(0, 10)).resolves.toBeDefined();
      await expect(insert(10, 0)).rejects.toThrow(/rules_condition_valid/);
      await expect(insert(null, 10)).rejects.toThrow(/rules_condition_valid/);
    });

    it('allows one open alarm per rule and device', async () => {
      const { rows } = await suite.db.query<{ id: number }>(
        "INSERT INTO rules (company_id, device_id, data_field, operator, value) VALUES ($1, $2, 'x', 'gte', 1) RETURNING id",
        [company, device],
      );
      const rule = rows[0]?.id;
      const raise = () =>
        suite.db.query('INSERT INTO alarms (company_id, device_id, rule_id) VALUES ($1, $2, $3)', [
          company,
          device,
          rule,
        ]);
      await raise();
      await expect(raise()).rejects.toThrow(/alarms_open_rule_key/);
      await suite.db.query("UPDATE alarms SET state = 'cleared', cleared_at = now() WHERE rule_id = $1", [
        rule,
      ]);
      await expect(raise()).resolves.toBeDefined();
    });

    it('deletes a field and keeps its devices and parcels, unassigned', async () => {
      const { rows } = await suite.db.query<{ id: number }>(
        "INSERT INTO farming_fields (company_id, name) VALUES ($1, 'North') RETURNING id",
        [company],
      );
      const field = rows[0]?.id;
      const fieldDevice = await insertDevice(suite.db, company, 'soil sensor');
      await suite.db.query('UPDATE devices SET field_id = $1 WHERE id = $2', [field, fieldDevice]);
      await suite.db.query(
        "INSERT INTO parcels (company_id, parcel_id, size_m2, field_id) VALUES ($1, '123/4', 2500, $2)",
        [company, field],
      );
      await suite.db.query('DELETE FROM farming_fields WHERE id = $1', [field]);
      const after = await suite.db.query<{
        device_field: number | null;
        parcel_field: number | null;
        company_id: number;
      }>(
        `SELECT d.field_id AS device_field, p.field_id AS parcel_field, p.company_id
         FROM devices d, parcels p WHERE d.id = $1 AND p.parcel_id = '123/4'`,
        [fieldDevice],
      );
      expect(after.rows).toEqual([{ device_field: null, parcel_field: null, company_id: company }]);
    });
  });

  describe('device data', () => {
    it('drops a repeated uplink (same device, time and message id) and keeps rows without message id', async () => {
      const company = await insertCompany(suite.db, 'Data GmbH');
      const device = await insertDevice(suite.db, company);
      const insert = (messageId: string | null) =>
        suite.db.query(
          `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
           VALUES ($1, $2, '2024-05-01T10:00:00Z', '{"temperature": 21.5}', $3)
           ON CONFLICT (device_id, created_at, message_id) DO NOTHING`,
          [device, company, messageId],
        );
      expect((await insert('fcnt:17')).rowCount).toBe(1);
      expect((await insert('fcnt:17')).rowCount).toBe(0);
      expect((await insert(null)).rowCount).toBe(1);
      expect((await insert(null)).rowCount).toBe(1);
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
      // This machine has no TimescaleDB; the test documents which branch of migration 0002 ran.
      expect(timescale.rows).toEqual([]);
      const { rows } = await suite.db.query<{ indexdef: string }>(
        "SELECT indexdef FROM pg_indexes WHERE tablename = 'device_data' ORDER BY indexname",
      );
      expect(rows.map((r) => r.indexdef)).toEqual([
        expect.stringContaining('USING brin (created_at)'),
        expect.stringContaining('UNIQUE INDEX device_data_device_time_key'),
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
