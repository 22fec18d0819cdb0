/**
 * Client administration of issue #27, the remaining parts: soft delete with a preview of the purge, restore,
 * the purge itself, and support access with the client's consent.
 */
import { purgeOneDeletedCompany } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { expect, it } from 'vitest';
import { createDevice, insertData, insertRule } from '../../../../../test/device-fixtures';
import { createSuperAdmin, createTeam } from '../../../../../test/fixtures';
import { useRouteApp } from '../../../../../test/route-suite';

forEachDb((suite) => {
  const { signIn } = useRouteApp(suite);

  it('previews the purge, deletes softly, restores, and the purge removes the client with its data', async () => {
    const team = await createTeam(suite.db);
    const device = await createDevice(suite.db, team.company.id);
    await insertData(suite.db, team.company.id, device.id, [
      { at: new Date(Date.now() - 60_000), data: { temperature: 4 } },
      { at: new Date(), data: { temperature: 5 } },
    ]);
    await insertRule(suite.db, team.company.id, device.id, 'Too warm');
    const admin = await signIn((await createSuperAdmin(suite.db)).email);
    const base = `/api/v1/admin/clients/${team.company.id}`;

    const preview = await admin.get(`${base}/purge-preview`);
    expect(preview.body.payload).toMatchObject({
      purge_after_days: 30,
      purge_at: null,
      users: 3,
      devices: 1,
      data_points: 2,
      rules: 1,
    });
    expect((await admin.post(`${base}/restore`)).body.code).toBe(90047);

    expect((await admin.delete(base)).status).toBe(200);
    const deleted = await admin.get('/api/v1/admin/clients/deleted');
    const entry = deleted.body.payload.find((c: { id: number }) => c.id === team.company.id);
    expect(new Date(entry.purge_at).getTime() - new Date(entry.deleted_at).getTime()).toBe(30 * 86_400_000);
    expect((await admin.get(`${base}/purge-preview`)).body.payload.purge_at).toBe(entry.purge_at);

    // Restored: listed again, its users sign in.
    expect((await admin.post(`${base}/restore`)).body.payload.id).toBe(team.company.id);
    expect((await (await signIn(team.main.email)).get('/api/v1/core/user')).status).toBe(200);

    // Deleted again: not purged before its time, purged after it with everything it owned.
    await admin.delete(base);
    expect(await purgeOneDeletedCompany(suite.db, new Date(Date.now() - 86_400_000))).toBeNull();
    const purged: number[] = [];
    for (;;) {
      const id = await purgeOneDeletedCompany(suite.db, new Date(Date.now() + 1000));
      if (id === null) break;
      purged.push(id);
    }
    expect(purged).toContain(team.company.id);
    for (const table of ['companies', 'users', 'devices', 'device_data', 'rules']) {
      const column = table === 'companies' ? 'id' : 'company_id';
      const { rows } = await suite.db.query(`SELECT 1 FROM ${table} WHERE ${column} = $1`, [team.company.id]);
      expect(rows, table).toEqual([]);
    }
    // Company 1 is never purged.
    expect((await suite.db.query('SELECT 1 FROM companies WHERE id = 1')).rows).toHaveLength(1);
  });

  it('with consent required, support may act only while a main user grants it; asking leaves a message', async () => {
    const team = await createTeam(suite.db);
    const main = await signIn(team.main.email);
    const plain = await signIn(team.plain.email);
    const admin = await signIn((await createSuperAdmin(suite.db)).email);
    const impersonate = `/api/v1/admin/clients/${team.company.id}/impersonate`;

    expect((await main.get('/api/v1/core/company/support-access')).body.payload).toEqual({
      mode: 'always',
      granted_until: null,
      requested_at: null,
    });
    expect((await plain.put('/api/v1/core/company/support-access', { mode: 'consent' })).body.code).toBe(
      90046,
    );
    expect((await main.put('/api/v1/core/company/support-access', { mode: 'consent' })).status).toBe(200);
    const refused = await admin.get(impersonate);
    expect([refused.status, refused.body.code]).toEqual([403, 90045]);

    expect((await admin.post(`/api/v1/admin/clients/${team.company.id}/support-access-request`)).status).toBe(
      200,
    );
    const messages = await main.get('/api/v1/core/messages?show_read=0');
    expect(messages.body.payload.messages.map((m: { kind: string | null }) => m.kind)).toContain(
      'support_access_requested',
    );
    expect(
      (await plain.get('/api/v1/core/messages?show_read=0')).body.payload.messages.map(
        (m: { kind: string | null }) => m.kind,
      ),
    ).not.toContain('support_access_requested');
    expect((await main.get('/api/v1/core/company/support-access')).body.payload.requested_at).not.toBeNull();

    const granted = await main.put('/api/v1/core/company/support-access', { grant_hours: 2 });
    const until = new Date(granted.body.payload.granted_until).getTime();
    expect(until - Date.now()).toBeGreaterThan(119 * 60_000);
    expect((await admin.get(impersonate)).status).toBe(200);
    // Support acting as the client cannot extend its own access.
    expect((await admin.put('/api/v1/core/company/support-access', { grant_hours: 100 })).body.code).toBe(
      90046,
    );

    // The grant runs out (here: moved into the past): the next request acts as the super admin again.
    await suite.db.query(
      "UPDATE companies SET support_access_until = now() - interval '1 second' WHERE id = $1",
      [team.company.id],
    );
    const after = await admin.get('/api/v1/core/user');
    expect(after.body.payload).toMatchObject({ company_id: 1, impersonated: false });
    const { rows } = await suite.db.query<{ details: { reason?: string } }>(
      "SELECT details FROM audit_log WHERE company_id = $1 AND action = 'impersonation.end' ORDER BY id DESC LIMIT 1",
      [team.company.id],
    );
    expect(rows[0]?.details.reason).toBe('consent_expired');

    // A main user ends the grant at once with 0 hours.
    await main.put('/api/v1/core/company/support-access', { grant_hours: 2 });
    await main.put('/api/v1/core/company/support-access', { grant_hours: 0 });
    expect((await admin.get(impersonate)).body.code).toBe(90045);
  });
});
