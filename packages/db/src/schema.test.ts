import { beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from './db';
import { forEachDb } from './testing';

// Identity tables from 0001 whose company_id may be NULL by design: a user without a company (API code 74),
// platform-wide audit events and mail. They are still behind row-level security (rls.test.ts).
const NULLABLE_COMPANY_ID = ['audit_log', 'outbox_emails', 'users'];
// The hot time-series table and the device log keep no foreign keys; triggers delete their rows with
// their device or company (migrations 0013 and 0016, repositories/device-data-deletion.test.ts and
// device-logs-deletion.test.ts). device_former_companies is read by a company's deletion trigger before
// it deletes the company's rows (migration 0018). device_series holds device data's company since migration
// 0043 (device_data is a view over it and device_readings).
const WITHOUT_FOREIGN_KEYS = ['device_series', 'device_logs', 'device_former_companies'];

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
        expect.arrayContaining(['devices', 'device_series', 'rules']),
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
});
