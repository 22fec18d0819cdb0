/**
 * The dashboards answer from memory (issue #30): a repeated read is answered without the database, per
 * company; every change to a company's dashboards or widgets is announced by the database's triggers
 * (migration 0047), whoever makes it, and shows at once in every API process; another company's change
 * keeps this company's answer, and no company is ever served another's.
 */
import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, useCachingApps } from '../../../../../test/caching-apps';
import type { TestClient } from '../../../../../test/client';
import { DB_KINDS } from '../../../../../test/databases';
import { createTeam } from '../../../../../test/fixtures';
import { BASE } from './dashboards-test-setup';

describe.each(DB_KINDS)('the dashboards from memory on %s', (kind) => {
  const env = useCachingApps(kind);
  let db: Db;
  let apps: FastifyInstance[];
  beforeAll(() => {
    ({ db, apps } = env);
  });

  const names = async (client: TestClient) => {
    const answer = await client.get(BASE);
    expect(answer.status).toBe(200);
    return (answer.body.payload as { name: string }[]).map((d) => d.name);
  };

  /** A write no trigger announces (replication role): what the cache serves shows in the answer. */
  async function renameSilently(companyId: number, name: string) {
    await db.transaction(async (tx) => {
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query('UPDATE dashboards SET name = $1 WHERE company_id = $2', [name, companyId]);
    });
  }

  async function createDashboard(companyId: number, name: string): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      'INSERT INTO dashboards (company_id, name, position) VALUES ($1, $2, 0) RETURNING id::int AS id',
      [companyId, name],
    );
    return rows[0]?.id as number;
  }

  it('answers a repeated read from memory until a change is announced, in every API process', async () => {
    const team = await createTeam(db);
    await createDashboard(team.company.id, 'Übersicht');
    const here = await env.signIn(team.plain.email);
    const there = await env.signIn(team.main.email, apps.at(-1));
    expect(await names(here)).toEqual(['Übersicht']);
    expect(await names(there)).toEqual(['Übersicht']);
    await renameSilently(team.company.id, 'Silent');
    expect(await names(here)).toEqual(['Übersicht']);
    // A script's write is announced by the trigger as well as the API's own.
    await db.query('UPDATE dashboards SET name = $1 WHERE company_id = $2', ['Halle', team.company.id]);
    await until('the renamed dashboard here', async () => (await names(here))[0] === 'Halle');
    await until('the renamed dashboard there', async () => (await names(there))[0] === 'Halle');
  });

  it("shows the API's own change at once, and a widget changed outside it once announced", async () => {
    const team = await createTeam(db);
    const id = await createDashboard(team.company.id, 'Lager');
    const main = await env.signIn(team.main.email);
    expect(await names(main)).toEqual(['Lager']);
    await renameSilently(team.company.id, 'Silent');
    // The API's own change shows in this process's next read, before any announcement could arrive.
    const renamed = await main.put(`${BASE}/${id}`, { name: 'Kühllager' });
    expect(renamed.status).toBe(200);
    expect(await names(main)).toEqual(['Kühllager']);
    // A widget added by a script: announced by the widgets' trigger.
    await db.query(
      `INSERT INTO dashboard_widgets (company_id, dashboard_id, type, title, x, y, w, h, settings)
       VALUES ($1, $2, 'table', 'Klima', 0, 0, 6, 4, '{}')`,
      [team.company.id, id],
    );
    await until('the new widget', async () => {
      const answer = await main.get(BASE);
      return answer.body.payload[0]?.widgets.length === 1;
    });
  });

  it("keeps one company's answer through another's change, and serves each only its own", async () => {
    const team = await createTeam(db);
    const other = await createTeam(db);
    await createDashboard(team.company.id, 'Unseres');
    await createDashboard(other.company.id, 'Fremdes');
    const client = await env.signIn(team.plain.email);
    const stranger = await env.signIn(other.plain.email);
    expect(await names(client)).toEqual(['Unseres']);
    expect(await names(stranger)).toEqual(['Fremdes']);
    await renameSilently(team.company.id, 'Silent');
    // The other company's change is announced for that company only.
    await db.query('UPDATE dashboards SET name = $1 WHERE company_id = $2', ['Geändert', other.company.id]);
    await until("the other company's change", async () => (await names(stranger))[0] === 'Geändert');
    expect(await names(client)).toEqual(['Unseres']);
  });
});
