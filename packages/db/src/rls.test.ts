import { beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from './db';
import { readAsTenant, TENANT_ROLE, withTenant } from './tenant';
import { forEachDb } from './testing';

async function one<T>(q: Queryable, sql: string, params: unknown[] = []): Promise<T> {
  const { rows } = await q.query<T>(sql, params);
  if (!rows[0]) throw new Error(`no row from ${sql}`);
  return rows[0];
}

// Read-only policies that model a cross-company share explicitly (migration 0036, water associations).
const EXTRA_READ_POLICIES: Record<string, string[]> = {
  devices: ['nwa_share_read'],
  device_current: ['nwa_share_read'],
  device_series: ['nwa_share_read'],
  nwa_shared_devices: ['nwa_admin_manage', 'nwa_share_read'],
  nwa_members: ['nwa_admin_manage'],
  nwa_membership_requests: ['nwa_admin_manage'],
  nwa_max_flow_rates: ['nwa_admin_manage'],
};

forEachDb((suite) => {
  it('puts every table with a company_id behind forced row-level security with a tenant policy', async () => {
    const { rows } = await suite.db.query<{
      table: string;
      enabled: boolean;
      forced: boolean;
      policies: string[];
    }>(
      `SELECT c.relname AS table, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
              coalesce(array_agg(p.polname::text ORDER BY p.polname) FILTER (WHERE p.polname IS NOT NULL), '{}') AS policies
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
       LEFT JOIN pg_policy p ON p.polrelid = c.oid
       WHERE c.relkind IN ('r', 'p')
         AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped)
       GROUP BY c.relname, c.relrowsecurity, c.relforcerowsecurity
       ORDER BY c.relname`,
    );
    expect(rows.length).toBeGreaterThan(25);
    for (const row of rows) {
      expect(row).toEqual({
        table: row.table,
        enabled: true,
        forced: true,
        policies: [...(EXTRA_READ_POLICIES[row.table] ?? []), 'platform_access', 'tenant_isolation'].sort(),
      });
    }
  });

  describe('withTenant', () => {
    let a = 0;
    let b = 0;
    let deviceA = 0;
    let deviceB = 0;
    beforeAll(async () => {
      a = (await one<{ id: number }>(suite.db, "INSERT INTO companies (name) VALUES ('A') RETURNING id")).id;
      b = (await one<{ id: number }>(suite.db, "INSERT INTO companies (name) VALUES ('B') RETURNING id")).id;
      deviceA = (
        await one<{ id: number }>(
          suite.db,
          "INSERT INTO devices (company_id, name) VALUES ($1, 'a-1') RETURNING id",
          [a],
        )
      ).id;
      deviceB = (
        await one<{ id: number }>(
          suite.db,
          "INSERT INTO devices (company_id, name) VALUES ($1, 'b-1') RETURNING id",
          [b],
        )
      ).id;
      for (const [company, device] of [
        [a, deviceA],
        [b, deviceB],
      ]) {
        await suite.db.query(
          `INSERT INTO device_data (device_id, company_id, created_at, data) VALUES ($1, $2, now(), '{"t": 1}')`,
          [device, company],
        );
        await suite.db.query(
          "INSERT INTO rules (company_id, device_id, data_field, operator, value) VALUES ($1, $2, 't', 'gte', 5)",
          [company, device],
        );
        await suite.db.query("INSERT INTO messages (company_id, subject) VALUES ($1, 'hello')", [company]);
      }
    });

    it('shows only the acting company’s rows to a query without WHERE clause', async () => {
      const seen = await withTenant(suite.db, a, async (tx) => ({
        devices: (await tx.query<{ name: string }>('SELECT name FROM devices ORDER BY name')).rows,
        data: (await tx.query<{ device_id: number }>('SELECT device_id FROM device_data')).rows,
        rules: (await tx.query<{ company_id: number }>('SELECT company_id FROM rules')).rows,
        messages: (await tx.query<{ company_id: number }>('SELECT company_id FROM messages')).rows,
        companies: (await tx.query<{ name: string }>('SELECT name FROM companies')).rows,
      }));
      expect(seen).toEqual({
        devices: [{ name: 'a-1' }],
        data: [{ device_id: deviceA }],
        rules: [{ company_id: a }],
        messages: [{ company_id: a }],
        companies: [{ name: 'A' }],
      });
    });

    it('changes and deletes only the acting company’s rows', async () => {
      const changed = await withTenant(suite.db, a, async (tx) => {
        const updated = await tx.query("UPDATE devices SET comment = 'touched'");
        const deleted = await tx.query('DELETE FROM messages');
        return { updated: updated.rowCount, deleted: deleted.rowCount };
      });
      expect(changed).toEqual({ updated: 1, deleted: 1 });
      const b1 = await one<{ comment: string | null }>(
        suite.db,
        'SELECT comment FROM devices WHERE id = $1',
        [deviceB],
      );
      expect(b1.comment).toBeNull();
      const messagesOfB = await one<{ count: number }>(
        suite.db,
        'SELECT count(*) FROM messages WHERE company_id = $1',
        [b],
      );
      expect(messagesOfB.count).toBe(1);
    });

    it('refuses to write a row for another company', async () => {
      await expect(
        withTenant(suite.db, a, (tx) =>
          tx.query("INSERT INTO devices (company_id, name) VALUES ($1, 'planted')", [b]),
        ),
      ).rejects.toThrow(/row-level security/);
      await expect(
        withTenant(suite.db, a, (tx) =>
          tx.query('UPDATE devices SET company_id = $1 WHERE id = $2', [b, deviceA]),
        ),
      ).rejects.toThrow(/row-level security/);
      const owner = await one<{ company_id: number }>(
        suite.db,
        'SELECT company_id FROM devices WHERE id = $1',
        [deviceA],
      );
      expect(owner.company_id).toBe(a);
    });

    it('still lets the tenant use the shared reference lists and insert its own rows', async () => {
      const result = await withTenant(suite.db, a, async (tx) => {
        const countries = await tx.query('SELECT code FROM countries');
        const inserted = await one<{ id: number }>(
          tx,
          "INSERT INTO devices (company_id, name) VALUES ($1, 'a-2') RETURNING id",
          [a],
        );
        return { countries: countries.rowCount, inserted: typeof inserted.id };
      });
      expect(result).toEqual({ countries: 4, inserted: 'number' });
    });

    it('lets a water association see its members’ rows and a member its own', async () => {
      const nwa = (
        await one<{ id: number }>(
          suite.db,
          "INSERT INTO companies (name, is_nwa) VALUES ('NWA', true) RETURNING id",
        )
      ).id;
      await suite.db.query('INSERT INTO nwa_members (nwa_company_id, company_id) VALUES ($1, $2), ($1, $3)', [
        nwa,
        a,
        b,
      ]);
      const asNwa = await withTenant(
        suite.db,
        nwa,
        async (tx) => (await tx.query('SELECT company_id FROM nwa_members')).rowCount,
      );
      const asA = await withTenant(
        suite.db,
        a,
        async (tx) => (await tx.query('SELECT company_id FROM nwa_members')).rows,
      );
      expect(asNwa).toBe(2);
      expect(asA).toEqual([{ company_id: a }]);
    });

    it('leaves role and company setting behind when the transaction ends', async () => {
      const inside = await withTenant(suite.db, a, (tx) =>
        one<{ role: string; company: string }>(
          tx,
          "SELECT current_user AS role, current_setting('app.company_id') AS company",
        ),
      );
      expect(inside).toEqual({ role: TENANT_ROLE, company: String(a) });
      // Run more tenant transactions than the pool has connections, then look at every connection again.
      await Promise.all(
        Array.from({ length: 12 }, () => withTenant(suite.db, b, (tx) => tx.query('SELECT 1'))),
      );
      const after = await Promise.all(
        Array.from({ length: 8 }, () =>
          one<{ role: string; company: string | null }>(
            suite.db,
            "SELECT current_user AS role, nullif(current_setting('app.company_id', true), '') AS company",
          ),
        ),
      );
      for (const row of after) expect(row).toEqual({ role: 'postgres', company: null });
      // Without withTenant the owner sees every company's devices.
      const all = await one<{ count: number }>(
        suite.db,
        'SELECT count(DISTINCT company_id) AS count FROM devices',
      );
      expect(all.count).toBeGreaterThanOrEqual(2);
    });

    it('rolls back the tenant transaction when the callback throws', async () => {
      await expect(
        withTenant(suite.db, a, async (tx) => {
          await tx.query("UPDATE devices SET comment = 'rolled back' WHERE id = $1", [deviceA]);
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      const row = await one<{ comment: string | null }>(
        suite.db,
        'SELECT comment FROM devices WHERE id = $1',
        [deviceA],
      );
      expect(row.comment).not.toBe('rolled back');
    });

    it.each([0, -1, 1.5, Number.NaN])('refuses the company id %s', async (id) => {
      await expect(withTenant(suite.db, id, (tx) => tx.query('SELECT 1'))).rejects.toThrow(RangeError);
    });

    it('readAsTenant with genericPlan runs a prepared statement under a generic plan, as the tenant', async () => {
      const sql = `SELECT current_setting('plan_cache_mode') AS mode, current_user AS role,
        (SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%generic-plan-marker%')::int AS prepared`;
      for (let i = 0; i < 2; i++) {
        const row = await readAsTenant(suite.db, a, (q) => one(q, sql), { genericPlan: true });
        expect(row).toEqual({ mode: 'force_generic_plan', role: TENANT_ROLE, prepared: 1 });
      }
      const plain = await readAsTenant(suite.db, a, (q) => one<{ mode: string }>(q, sql));
      expect(plain).toMatchObject({ mode: 'auto' });
      expect(await one(suite.db, "SELECT current_setting('plan_cache_mode') AS mode")).toEqual({
        mode: 'auto',
      });
    });

    it('readAsTenant reads as the tenant, statement by statement, and leaves nothing behind', async () => {
      const seen = await readAsTenant(suite.db, a, async (q) => ({
        devices: (await q.query<{ name: string }>('SELECT name FROM devices ORDER BY name')).rows,
        data: (await q.query<{ device_id: number }>('SELECT device_id FROM device_data')).rows,
        role: await one<{ role: string; company: string }>(
          q,
          "SELECT current_user AS role, current_setting('app.company_id') AS company",
        ),
      }));
      // Company A's devices only (the tests before may have added some of A's).
      expect(seen.devices).toContainEqual({ name: 'a-1' });
      expect(seen.devices.every((d) => d.name.startsWith('a-'))).toBe(true);
      expect(seen.data).toEqual([{ device_id: deviceA }]);
      expect(seen.role).toEqual({ role: TENANT_ROLE, company: String(a) });
      const after = await one<{ role: string; company: string | null }>(
        suite.db,
        "SELECT current_user AS role, nullif(current_setting('app.company_id', true), '') AS company",
      );
      expect(after).toEqual({ role: 'postgres', company: null });
      await expect(readAsTenant(suite.db, 0, (q) => q.query('SELECT 1'))).rejects.toThrow(RangeError);
      // A failing statement rejects with PostgreSQL's error and leaves the connection usable.
      await expect(readAsTenant(suite.db, b, (q) => q.query('SELECT 1/0'))).rejects.toThrow(
        /division by zero/,
      );
      expect(
        (await readAsTenant(suite.db, b, (q) => q.query<{ name: string }>('SELECT name FROM devices'))).rows,
      ).toEqual([{ name: 'b-1' }]);
    });
  });
});
