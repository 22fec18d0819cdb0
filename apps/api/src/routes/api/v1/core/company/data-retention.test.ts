/**
 * Device data retention settings (issue #29): the company sets them in its base data, the super admin caps
 * the raw data retention per client (limit max_data_retention_days); 90090 and 90091 guard the values.
 */
import { forEachDb } from '@iot/db/testing';
import { expect, it } from 'vitest';
import { createSuperAdmin, createTeam } from '../../../../../test/fixtures';
import { useRouteApp } from '../../../../../test/route-suite';

forEachDb((suite) => {
  const { signIn } = useRouteApp(suite);

  it('keeps data for ever by default and stores what the main user sets', async () => {
    const team = await createTeam(suite.db);
    const main = await signIn(team.main.email);
    expect((await main.get('/api/v1/core/company/')).body.payload).toMatchObject({
      data_retention_days: null,
      rollup_retention_days: null,
      data_retention_cap_days: null,
    });
    const set = await main.put('/api/v1/core/company/', {
      data_retention_days: 90,
      rollup_retention_days: 730,
    });
    expect(set.status).toBe(200);
    expect(set.body.payload).toMatchObject({ data_retention_days: 90, rollup_retention_days: 730 });
    // Fewer than 31 days: the widest chart bucket would not have closed before its raw rows go.
    expect((await main.put('/api/v1/core/company/', { data_retention_days: 7 })).status).toBe(422);
    // Rollups shorter than the raw data, or limited while the raw data is kept for ever: 90091.
    const shorter = await main.put('/api/v1/core/company/', { rollup_retention_days: 60 });
    expect([shorter.status, shorter.body.code]).toEqual([422, 90091]);
    const unlimited = await main.put('/api/v1/core/company/', { data_retention_days: null });
    expect([unlimited.status, unlimited.body.code]).toEqual([422, 90091]);
    const both = await main.put('/api/v1/core/company/', {
      data_retention_days: null,
      rollup_retention_days: null,
    });
    expect(both.body.payload).toMatchObject({ data_retention_days: null, rollup_retention_days: null });
  });

  it('lets the super admin cap the retention per client, and refuses a longer one (90090)', async () => {
    const admin = await signIn((await createSuperAdmin(suite.db)).email);
    const team = await createTeam(suite.db);
    const main = await signIn(team.main.email);
    await main.put('/api/v1/core/company/', { data_retention_days: 400 });
    const capped = await admin.put(`/api/v1/admin/clients/${team.company.id}`, {
      limits: { max_data_retention_days: 365 },
    });
    expect(capped.status).toBe(200);
    expect(capped.body.payload).toMatchObject({ data_retention_days: 400, data_retention_cap_days: 365 });
    const limits = await admin.get(`/api/v1/admin/clients/${team.company.id}/limits`);
    expect(limits.body.payload).toContainEqual({ key: 'max_data_retention_days', limit: 365, used: 400 });

    const longer = await main.put('/api/v1/core/company/', { data_retention_days: 500 });
    expect([longer.status, longer.body.code]).toEqual([422, 90090]);
    expect((await main.put('/api/v1/core/company/', { data_retention_days: 200 })).status).toBe(200);
    // Under a cap, rollups may be limited even while the company's own setting is "for ever".
    const underCap = await main.put('/api/v1/core/company/', {
      data_retention_days: null,
      rollup_retention_days: 365,
    });
    expect(underCap.status).toBe(200);
    // The super admin sets the client's own retention in the same dialog, within the cap.
    const tooLong = await admin.put(`/api/v1/admin/clients/${team.company.id}`, { data_retention_days: 366 });
    expect([tooLong.status, tooLong.body.code]).toEqual([422, 90090]);
    const below = await admin.put(`/api/v1/admin/clients/${team.company.id}`, {
      limits: { max_data_retention_days: 20 },
    });
    expect(below.status).toBe(422);
  });
});
