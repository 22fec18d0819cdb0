import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Db } from './db';
import { loadMigrationsFromDir, MigrationError, migrate, migrations, toMigrations } from './migrate';
import { openPostgres } from './postgres';
import { messageHash } from './repositories/device-data-writes';
import { forEachDb } from './testing';

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

async function appliedRows(db: Db) {
  const { rows } = await db.query<{ version: number; name: string; checksum: string }>(
    'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
  );
  return rows;
}

describe('migration files', () => {
  it('embedded.ts carries exactly the .sql files (run npm run migrations:embed -w @iot/db)', () => {
    expect(migrations).toEqual(loadMigrationsFromDir(migrationsDir));
  });

  it('are numbered 1, 2, 3, ... without gaps', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
  });

  it.each([
    ['1_identity.sql', /is not NNNN_lower_case_name\.sql/],
    ['0001-identity.sql', /is not NNNN_lower_case_name\.sql/],
    ['0001_Identity.sql', /is not NNNN_lower_case_name\.sql/],
  ])('rejects the file name %s', (file, error) => {
    expect(() => toMigrations([{ file, sql: 'SELECT 1' }])).toThrow(error);
  });

  it('rejects two migrations with one version', () => {
    expect(() =>
      toMigrations([
        { file: '0002_b.sql', sql: 'SELECT 1' },
        { file: '0002_c.sql', sql: 'SELECT 2' },
      ]),
    ).toThrow(/two migrations have version 2/);
  });

  it('computes the checksum independent of line endings', () => {
    const [lf] = toMigrations([{ file: '0001_a.sql', sql: 'SELECT 1;\nSELECT 2;\n' }]);
    const [crlf] = toMigrations([{ file: '0001_a.sql', sql: 'SELECT 1;\r\nSELECT 2;\r\n' }]);
    expect(crlf?.checksum).toBe(lf?.checksum);
  });
});

forEachDb(
  (suite) => {
    const small = toMigrations([
      { file: '0001_first.sql', sql: 'CREATE TABLE m_first (id int PRIMARY KEY);' },
      {
        file: '0002_second.sql',
        sql: 'CREATE TABLE m_second (id int PRIMARY KEY); INSERT INTO m_second VALUES (1);',
      },
    ]);

    it('applies every migration of the package once, then nothing', async () => {
      const first = await migrate(suite.db);
      expect(first.applied).toEqual(migrations.map((m) => m.version));
      expect(await appliedRows(suite.db)).toEqual(
        migrations.map((m) => ({ version: m.version, name: m.name, checksum: m.checksum })),
      );
      expect((await migrate(suite.db)).applied).toEqual([]);
      expect(await appliedRows(suite.db)).toHaveLength(migrations.length);
    });

    it('refuses to run when an applied migration was changed', async () => {
      await suite.db.exec('DROP TABLE IF EXISTS schema_migrations');
      await migrate(suite.db, { migrations: small });
      const edited = toMigrations([
        { file: '0001_first.sql', sql: 'CREATE TABLE m_first (id int PRIMARY KEY); -- edited' },
        { file: '0002_second.sql', sql: small[1]?.sql ?? '' },
      ]);
      const run = migrate(suite.db, { migrations: edited });
      await expect(run).rejects.toBeInstanceOf(MigrationError);
      await expect(migrate(suite.db, { migrations: edited })).rejects.toThrow(
        /migration 1 \(first\) was changed after it was applied/,
      );
    });

    it('refuses to run against a database migrated by a newer build', async () => {
      await expect(migrate(suite.db, { migrations: small.slice(0, 1) })).rejects.toThrow(
        /has migration 2 \(second\) that this build does not know/,
      );
    });

    it('rolls a failing migration back completely and keeps the ones before it', async () => {
      await suite.db.exec('DROP TABLE IF EXISTS schema_migrations; DROP TABLE IF EXISTS m_first, m_second;');
      const withFailure = toMigrations([
        ...small.map((m) => ({ file: `000${m.version}_${m.name}.sql`, sql: m.sql })),
        { file: '0003_broken.sql', sql: 'CREATE TABLE m_third (id int); SELECT no_such_function();' },
      ]);
      await expect(migrate(suite.db, { migrations: withFailure })).rejects.toThrow(
        /migration 3 \(broken\) failed: .*no_such_function/,
      );
      expect((await appliedRows(suite.db)).map((r) => r.version)).toEqual([1, 2]);
      const { rows } = await suite.db.query("SELECT to_regclass('m_third') AS t");
      expect(rows).toEqual([{ t: null }]);
    });
  },
  { migrate: false },
);

describe('concurrent runners on PostgreSQL', () => {
  forEachDb(
    (suite) => {
      it('apply each migration exactly once when four processes start together', async () => {
        const url = suite.db.url;
        if (!url) throw new Error('postgres test database has no url');
        // Four independent pools, as four app processes would have.
        const dbs = Array.from({ length: 4 }, () => openPostgres({ url, max: 2 }));
        try {
          const results = await Promise.all(dbs.map((db) => migrate(db)));
          const applied = results.flatMap((r) => r.applied).sort((a, b) => a - b);
          expect(applied).toEqual(migrations.map((m) => m.version));
          expect(await appliedRows(suite.db)).toHaveLength(migrations.length);
        } finally {
          await Promise.all(dbs.map((db) => db.close()));
        }
      });
    },
    { kinds: ['postgres'], migrate: false },
  );
});

describe('migration 0015 on an installation with devices', () => {
  forEachDb(
    (suite) => {
      it("moves each device's status into its device_current row and keeps its latest values", async () => {
        await migrate(suite.db, { migrations: migrations.filter((m) => m.version < 15) });
        const { rows: c } = await suite.db.query<{ id: number }>(
          "INSERT INTO companies (name) VALUES ('Upgrade') RETURNING id::int AS id",
        );
        const company = c[0]!.id;
        const { rows: d } = await suite.db.query<{ id: number }>(
          `INSERT INTO devices (company_id, name, is_active, last_online_at, battery_level, rssi, signal_strength)
           VALUES ($1, 'reported', true, '2026-11-01T10:00:00Z', 71, -95, 3),
                  ($1, 'values too', true, '2026-11-01T11:00:00Z', 40, NULL, NULL),
                  ($1, 'never reported', false, NULL, NULL, NULL, NULL)
           RETURNING id::int AS id`,
          [company],
        );
        const [reported, withValues] = d.map((r) => r.id);
        await suite.db.query(
          `INSERT INTO device_current (device_id, company_id, data, field_times, updated_at)
           VALUES ($1, $2, '{"t": 4}', '{"t": "2026-11-01T11:00:00Z"}', '2026-11-01T11:00:00Z')`,
          [withValues, company],
        );

        await migrate(suite.db);

        const { rows } = await suite.db.query(
          `SELECT device_id::int AS device_id, data, updated_at, is_active, last_online_at, battery_level, rssi,
                  signal_strength::int AS signal_strength
             FROM device_current ORDER BY device_id`,
        );
        // The device that never reported gets no row.
        expect(rows).toEqual([
          {
            device_id: reported,
            data: {},
            updated_at: new Date('2026-11-01T10:00:00Z'),
            is_active: true,
            last_online_at: new Date('2026-11-01T10:00:00Z'),
            battery_level: 71,
            rssi: -95,
            signal_strength: 3,
          },
          {
            device_id: withValues,
            data: { t: 4 },
            updated_at: new Date('2026-11-01T11:00:00Z'),
            is_active: true,
            last_online_at: new Date('2026-11-01T11:00:00Z'),
            battery_level: 40,
            rssi: null,
            signal_strength: null,
          },
        ]);
        const { rows: columns } = await suite.db.query(
          `SELECT column_name FROM information_schema.columns
            WHERE table_name = 'devices' AND column_name IN ('is_active', 'last_online_at', 'battery_level')`,
        );
        expect(columns).toEqual([]);
      });
    },
    { migrate: false },
  );
});

describe('migration 0018 on an installation with reassigned devices', () => {
  forEachDb(
    (suite) => {
      it('finds what a company recorded on devices reassigned before it, and deletes that with the company', async () => {
        await migrate(suite.db, { migrations: migrations.filter((m) => m.version < 18) });
        const { rows: c } = await suite.db.query<{ id: number }>(
          "INSERT INTO companies (name) VALUES ('Seller'), ('Buyer') RETURNING id::int AS id",
        );
        const [seller, buyer] = c.map((r) => r.id);
        const { rows: d } = await suite.db.query<{ id: number }>(
          "INSERT INTO devices (company_id, name) VALUES ($1, 'sold'), ($1, 'kept') RETURNING id::int AS id",
          [seller],
        );
        const [sold, kept] = d.map((r) => r.id);
        for (const device of [sold, kept]) {
          await suite.db.query(
            `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
             VALUES ($1, $2, now(), '{"t": 1}', 'before')`,
            [device, seller],
          );
          await suite.db.query(
            "INSERT INTO device_logs (device_id, company_id, level, message) VALUES ($1, $2, 5, 'before')",
            [device, seller],
          );
        }
        await suite.db.query('UPDATE devices SET company_id = $1 WHERE id = $2', [buyer, sold]);
        await suite.db.query(
          `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
           VALUES ($1, $2, now(), '{"t": 2}', 'after')`,
          [sold, buyer],
        );

        await migrate(suite.db);
        const { rows: former } = await suite.db.query(
          'SELECT company_id::int AS company_id, device_id::int AS device_id FROM device_former_companies',
        );
        expect(former).toEqual([{ company_id: seller, device_id: sold }]);

        await suite.db.query('DELETE FROM companies WHERE id = $1', [seller]);
        const { rows: left } = await suite.db.query(
          `SELECT 'data' AS kind, device_id::int AS device_id,
                  CASE message_hash WHEN device_message_hash('after') THEN 'after' END AS what FROM device_data
           UNION ALL SELECT 'log', device_id::int, message FROM device_logs ORDER BY 1, 2`,
        );
        // The kept device went with its company; the sold one keeps what its buyer recorded.
        expect(left).toEqual([{ kind: 'data', device_id: sold, what: 'after' }]);
        const { rows: forgotten } = await suite.db.query('SELECT 1 FROM device_former_companies');
        expect(forgotten).toEqual([]);
      });
    },
    { migrate: false },
  );
});

describe('migration 0043 on an installation with device data', () => {
  forEachDb(
    (suite) => {
      it('converts device data and its complete hourly rollups to the narrow layout (0043)', async () => {
        await migrate(suite.db, { migrations: migrations.filter((m) => m.version < 43) });
        const { rows: c } = await suite.db.query<{ id: number }>(
          "INSERT INTO companies (name) VALUES ('Old data') RETURNING id::int AS id",
        );
        const company = c[0]!.id;
        const { rows: d } = await suite.db.query<{ id: number }>(
          "INSERT INTO devices (company_id, name) VALUES ($1, 'meter') RETURNING id::int AS id",
          [company],
        );
        const device = d[0]!.id;
        const points = [
          {
            at: '2025-01-01T10:05:00Z',
            data: { t: 21.37, on: true, note: 'ok' },
            lat: 48.1,
            label: 'a',
            fcnt: 7,
          },
          {
            at: '2025-01-01T10:15:00Z',
            data: { t: 21.5, meter: 1234567.891 },
            lat: null,
            label: null,
            fcnt: null,
          },
          {
            at: '2025-01-01T12:05:00Z',
            // biome-ignore lint/correctness/noPrecisionLoss: a number beyond float8's digits, kept in `extra`
            data: { t: 3, big: 12345678901234567890 },
            lat: null,
            label: null,
            fcnt: null,
          },
        ];
        for (const p of points) {
          await suite.db.query(
            `INSERT INTO device_data (device_id, company_id, created_at, data, latitude, longitude, metalabel, fcnt, message_id)
             VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8)`,
            [device, company, p.at, JSON.stringify(p.data), p.lat, p.label, p.fcnt, p.at],
          );
        }
        // 10:00 complete (the count and every field, zero counts included, as the builder stored them), 12:00 missing fields with its raw rows there (rebuilt
        // later), 08:00 without raw rows (kept as it is: retention deleted them), a 6-hour bucket (dropped).
        await suite.db.query(
          `INSERT INTO device_data_rollups (device_id, company_id, field, bucket_seconds, bucket, min, max, sum, count)
           VALUES ($1, $2, '', 3600, '2025-01-01T10:00:00Z', NULL, NULL, NULL, 2),
                  ($1, $2, 't', 3600, '2025-01-01T10:00:00Z', 21.37, 21.5, 42.87, 2),
                  ($1, $2, 'on', 3600, '2025-01-01T10:00:00Z', 1, 1, 1, 1),
                  ($1, $2, 'meter', 3600, '2025-01-01T10:00:00Z', 1234567.891, 1234567.891, 1234567.891, 1),
                  ($1, $2, 'big', 3600, '2025-01-01T10:00:00Z', NULL, NULL, NULL, 0),
                  ($1, $2, '', 3600, '2025-01-01T12:00:00Z', NULL, NULL, NULL, 1),
                  ($1, $2, 't', 3600, '2025-01-01T12:00:00Z', 3, 3, 3, 1),
                  ($1, $2, '', 3600, '2025-01-01T08:00:00Z', NULL, NULL, NULL, 3),
                  ($1, $2, 't', 3600, '2025-01-01T08:00:00Z', 1, 2, 4, 3),
                  ($1, $2, '', 21600, '2025-01-01T06:00:00Z', NULL, NULL, NULL, 5)`,
          [device, company],
        );

        await migrate(suite.db);
        const { rows: after } = await suite.db.query(
          `SELECT created_at, data, latitude, longitude, metalabel, fcnt::int AS fcnt, message_hash
             FROM device_data WHERE device_id = $1 ORDER BY created_at`,
          [device],
        );
        expect(after).toEqual(
          points.map((p) => ({
            created_at: new Date(p.at),
            data: p.data,
            latitude: p.lat,
            longitude: p.lat,
            metalabel: p.label,
            fcnt: p.fcnt,
            message_hash: messageHash(p.at),
          })),
        );
        const { rows: series } = await suite.db.query(
          'SELECT fields FROM device_series WHERE device_id = $1',
          [device],
        );
        expect(series).toEqual([{ fields: ['big', 'meter', 'on', 't'] }]);
        const { rows: hours } = await suite.db.query(
          `SELECT h.hour, h.rows, to_json(h.stats) AS stats, h.counts FROM device_rollups h
             JOIN device_series s ON s.id = h.series
            WHERE s.device_id = $1 AND h.hours = 1 ORDER BY h.hour`,
          [device],
        );
        expect(hours).toEqual([
          {
            hour: new Date('2025-01-01T08:00:00Z'),
            rows: 3,
            stats: [null, null, null, null, null, null, null, null, null, 1, 2, 4],
            counts: null,
          },
          {
            hour: new Date('2025-01-01T10:00:00Z'),
            rows: 2,
            stats: [null, null, null, 1234567.891, 1234567.891, 1234567.891, 1, 1, 1, 21.37, 21.5, 42.87],
            counts: [0, 1, 1, 2],
          },
        ]);
      });
    },
    { migrate: false },
  );
});
