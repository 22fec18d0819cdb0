import { withTenant } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/app';
import { TestClient } from '../../../../test/client';
import { insertData } from '../../../../test/device-fixtures';
import { createSuperAdmin, PASSWORD } from '../../../../test/fixtures';
import { createWaterWorld, type WaterWorld } from '../../../../test/water-fixtures';

forEachDb((suite) => {
  let app: FastifyInstance;
  let w: WaterWorld;

  beforeAll(async () => {
    app = buildTestApp(suite.db);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    w = await createWaterWorld(suite.db);
  });

  async function as(email: string) {
    const client = new TestClient(app);
    await client.login(email, PASSWORD);
    return client;
  }
  const code = (res: { status: number; body: { code?: number } }) => [res.status, res.body.code];
  const nwaUrl = () => `/api/v1/nwa/${w.nwa.company.id}`;

  describe('GET /nwa and /nwa/{id}', () => {
    it('lists the association for itself, its admin member and its member, each with its role', async () => {
      const own = await (await as(w.nwa.main.email)).get('/api/v1/nwa');
      expect(own.body.payload).toEqual([
        expect.objectContaining({
          id: w.nwa.company.id,
          role: 'association',
          is_admin: true,
          member_count: 2,
          open_request_count: 1,
          shared_device_count: 1,
        }),
      ]);
      const admin = await (await as(w.adminMember.main.email)).get('/api/v1/nwa');
      expect(admin.body.payload[0]).toMatchObject({ role: 'admin', is_admin: true, open_request_count: 1 });
      const member = await (await as(w.member.main.email)).get('/api/v1/nwa');
      expect(member.body.payload[0]).toMatchObject({
        role: 'member',
        is_admin: false,
        open_request_count: 0,
      });
      // The NWA's plain user sees the association but decides no requests: no badge.
      const plain = await (await as(w.nwa.plain.email)).get('/api/v1/nwa');
      expect(plain.body.payload[0]).toMatchObject({ role: 'association', open_request_count: 0 });
    });

    it('answers a company without relation an empty list, with the module or without', async () => {
      expect((await (await as(w.outsider.main.email)).get('/api/v1/nwa')).body.payload).toEqual([]);
      const unlicensed = await (await as(w.unlicensed.main.email)).get('/api/v1/nwa');
      expect([unlicensed.status, unlicensed.body.payload]).toEqual([200, []]);
    });

    it('shows the association all members, a plain member only itself, an outsider nothing (90051)', async () => {
      const full = await (await as(w.nwa.plain.email)).get(nwaUrl());
      expect(full.body.payload.members.map((m: { company_id: number }) => m.company_id).sort()).toEqual(
        [w.adminMember.company.id, w.member.company.id].sort(),
      );
      expect(full.body.payload.settings).toEqual({
        max_flow_per_hour: null,
        max_volume_per_year: null,
        water_year_start_month: 1,
        time_zone: 'Europe/Berlin',
        members_see_shared_devices: false,
        close_valves_at_limit: false,
      });
      const own = await (await as(w.member.plain.email)).get(nwaUrl());
      expect(own.body.payload.members.map((m: { company_id: number }) => m.company_id)).toEqual([
        w.member.company.id,
      ]);
      expect(code(await (await as(w.outsider.main.email)).get(nwaUrl()))).toEqual([404, 90051]);
      // A company id that is no association is not found either, even one's own.
      expect(code(await (await as(w.member.main.email)).get(`/api/v1/nwa/${w.member.company.id}`))).toEqual([
        404, 90051,
      ]);
    });

    it('shows the super admin every association', async () => {
      const superAdmin = await createSuperAdmin(suite.db);
      const client = await as(superAdmin.email);
      const list = await client.get('/api/v1/nwa');
      expect(list.body.payload.map((n: { id: number }) => n.id)).toContain(w.nwa.company.id);
      expect((await client.get(nwaUrl())).body.payload.members).toHaveLength(2);
    });
  });

  describe('PUT /nwa/{id}', () => {
    const body = () => ({
      max_flow_per_hour: 40,
      max_volume_per_year: 120000,
      water_year_start_month: 4,
      members_see_shared_devices: true,
      allowances: [{ company_id: w.member.company.id, allowance_per_hour: 10, allowance_per_year: 30000 }],
    });

    it('saves the permit and allowances for the association and its admin members', async () => {
      const res = await (await as(w.nwa.main.email)).put(nwaUrl(), body());
      expect(res.status).toBe(200);
      expect(res.body.payload.settings).toMatchObject({ max_flow_per_hour: 40, water_year_start_month: 4 });
      const member = res.body.payload.members.find(
        (m: { company_id: number }) => m.company_id === w.member.company.id,
      );
      expect(member).toMatchObject({ allowance_per_hour: 10, allowance_per_year: 30000 });
      const again = await (await as(w.adminMember.admin.email)).put(nwaUrl(), { max_flow_per_hour: 50 });
      expect(again.body.payload.settings).toMatchObject({
        max_flow_per_hour: 50,
        max_volume_per_year: 120000,
      });
    });

    it('refuses plain users, plain members and outsiders, and bad input', async () => {
      expect(code(await (await as(w.nwa.plain.email)).put(nwaUrl(), body()))).toEqual([403, 90050]);
      expect(code(await (await as(w.member.main.email)).put(nwaUrl(), body()))).toEqual([403, 90050]);
      expect(code(await (await as(w.outsider.main.email)).put(nwaUrl(), body()))).toEqual([404, 90051]);
      const main = await as(w.nwa.main.email);
      expect(
        code(
          await main.put(nwaUrl(), {
            allowances: [{ company_id: w.outsider.company.id, allowance_per_hour: 1, allowance_per_year: 1 }],
          }),
        ),
      ).toEqual([404, 90052]);
      expect((await main.put(nwaUrl(), { time_zone: 'Mars/Olympus' })).status).toBe(422);
      expect((await main.put(nwaUrl(), { water_year_start_month: 13 })).status).toBe(422);
    });
  });

  describe('members', () => {
    const memberUrl = (companyId: number) => `${nwaUrl()}/members/${companyId}`;

    it('makes a member admin and back, answering the reloaded members', async () => {
      const main = await as(w.nwa.main.email);
      const res = await main.put(`${memberUrl(w.member.company.id)}/set_admin`, {});
      expect(res.status).toBe(200);
      expect(
        res.body.payload.find((m: { company_id: number }) => m.company_id === w.member.company.id).is_admin,
      ).toBe(true);
      const back = await main.put(`${memberUrl(w.member.company.id)}/set_admin`, { is_admin: false });
      expect(
        back.body.payload.find((m: { company_id: number }) => m.company_id === w.member.company.id).is_admin,
      ).toBe(false);
    });

    it('refuses set_admin to non-admins and outsiders, and names an unknown member', async () => {
      const url = `${memberUrl(w.member.company.id)}/set_admin`;
      expect(code(await (await as(w.member.main.email)).put(url, {}))).toEqual([403, 90050]);
      expect(code(await (await as(w.nwa.plain.email)).put(url, {}))).toEqual([403, 90050]);
      expect(code(await (await as(w.outsider.main.email)).put(url, {}))).toEqual([404, 90051]);
      expect(
        code(await (await as(w.nwa.main.email)).put(`${memberUrl(w.outsider.company.id)}/set_admin`, {})),
      ).toEqual([404, 90052]);
    });

    it('unassigns a member (admin member may), lets a member leave, refuses others', async () => {
      expect(
        code(await (await as(w.member.main.email)).request('DELETE', memberUrl(w.adminMember.company.id))),
      ).toEqual([403, 90050]);
      expect(
        code(await (await as(w.outsider.main.email)).request('DELETE', memberUrl(w.member.company.id))),
      ).toEqual([404, 90051]);
      expect(
        code(await (await as(w.member.plain.email)).request('DELETE', memberUrl(w.member.company.id))),
      ).toEqual([403, 90050]);
      const left = await (await as(w.member.main.email)).request('DELETE', memberUrl(w.member.company.id));
      expect(left.status).toBe(200);
      expect(left.body.payload).toEqual([]);
      // Its share went with it.
      const shares = await suite.db.query('SELECT 1 FROM nwa_shared_devices WHERE company_id = $1', [
        w.member.company.id,
      ]);
      expect(shares.rows).toHaveLength(0);
      const unassigned = await (await as(w.adminMember.main.email)).request(
        'DELETE',
        memberUrl(w.adminMember.company.id),
      );
      expect(unassigned.body.payload).toEqual([]);
      expect(
        code(await (await as(w.nwa.main.email)).request('DELETE', memberUrl(w.member.company.id))),
      ).toEqual([404, 90052]);
    });
  });

  describe('membership requests', () => {
    const requestsUrl = () => `${nwaUrl()}/membership-requests`;
    const decideUrl = (companyId: number) => `${nwaUrl()}/request-membership/${companyId}`;

    it('lists open requests to managers only', async () => {
      const list = await (await as(w.adminMember.main.email)).get(requestsUrl());
      expect(list.body.payload).toEqual([
        expect.objectContaining({
          company_id: w.requester.company.id,
          company_name: w.requester.company.name,
          state: 'pending',
        }),
      ]);
      expect(code(await (await as(w.member.main.email)).get(requestsUrl()))).toEqual([403, 90050]);
      expect(code(await (await as(w.nwa.plain.email)).get(requestsUrl()))).toEqual([403, 90050]);
      expect(code(await (await as(w.outsider.main.email)).get(requestsUrl()))).toEqual([404, 90051]);
    });

    it('accepts a request (POST): the list is reloaded and the company is a member', async () => {
      const main = await as(w.nwa.main.email);
      const res = await main.post(decideUrl(w.requester.company.id));
      expect(res.status).toBe(200);
      expect(res.body.payload).toEqual([]);
      const mine = await (await as(w.requester.main.email)).get('/api/v1/nwa');
      expect(mine.body.payload[0]).toMatchObject({ id: w.nwa.company.id, role: 'member' });
      expect(code(await main.post(decideUrl(w.requester.company.id)))).toEqual([404, 90053]);
    });

    it('rejects a request (DELETE): no member, no open request', async () => {
      const res = await (await as(w.nwa.admin.email)).request('DELETE', decideUrl(w.requester.company.id));
      expect(res.body.payload).toEqual([]);
      expect((await (await as(w.requester.main.email)).get('/api/v1/nwa')).body.payload).toEqual([]);
      const { rows } = await suite.db.query<{ state: string }>(
        'SELECT state FROM nwa_membership_requests WHERE company_id = $1',
        [w.requester.company.id],
      );
      expect(rows).toEqual([{ state: 'rejected' }]);
    });

    it('refuses decisions by plain members and outsiders', async () => {
      expect(code(await (await as(w.member.main.email)).post(decideUrl(w.requester.company.id)))).toEqual([
        403, 90050,
      ]);
      expect(
        code(await (await as(w.outsider.main.email)).request('DELETE', decideUrl(w.requester.company.id))),
      ).toEqual([404, 90051]);
    });

    it('lets a company’s main user ask to join once; members, plain users and non-associations are refused', async () => {
      const outsider = await as(w.outsider.main.email);
      const asked = await outsider.post(requestsUrl());
      expect(asked.body.payload).toMatchObject({
        nwa_id: w.nwa.company.id,
        company_id: w.outsider.company.id,
        state: 'pending',
      });
      expect(code(await outsider.post(requestsUrl()))).toEqual([409, 90054]);
      expect(code(await (await as(w.member.main.email)).post(requestsUrl()))).toEqual([409, 90054]);
      expect(code(await (await as(w.unlicensed.plain.email)).post(requestsUrl()))).toEqual([403, 90050]);
      expect(code(await outsider.post(`/api/v1/nwa/${w.member.company.id}/membership-requests`))).toEqual([
        404, 90051,
      ]);
      const directory = await outsider.get('/api/v1/nwa/directory');
      expect(directory.body.payload).toContainEqual(
        expect.objectContaining({ id: w.nwa.company.id, role: null, request_pending: true }),
      );
      const badge = await (await as(w.nwa.main.email)).get('/api/v1/nwa');
      expect(badge.body.payload[0].open_request_count).toBe(2);
    });
  });

  describe('shared devices', () => {
    const sharesUrl = () => `${nwaUrl()}/shared-devices`;

    it('shows a shared device to the association and its admin, not to other members unless allowed', async () => {
      const nwaList = await (await as(w.nwa.plain.email)).get(sharesUrl());
      expect(nwaList.body.payload).toEqual([
        expect.objectContaining({
          device_id: w.meter.id,
          owner_company_id: w.member.company.id,
          access: 'read',
          unit: 'm3',
        }),
      ]);
      expect((await (await as(w.adminMember.plain.email)).get(sharesUrl())).body.payload).toHaveLength(1);
      expect((await (await as(w.member.plain.email)).get(sharesUrl())).body.payload).toHaveLength(1); // its own
      expect(code(await (await as(w.outsider.main.email)).get(sharesUrl()))).toEqual([404, 90051]);
    });

    it('lets the owner share and unshare; others cannot share what is not theirs', async () => {
      const admin = await as(w.adminMember.main.email);
      const shared = await admin.post(sharesUrl(), { device_id: w.adminMeter.id, access: 'control' });
      expect(shared.status).toBe(200);
      expect(shared.body.payload.map((s: { device_id: number }) => s.device_id).sort()).toEqual(
        [w.meter.id, w.adminMeter.id].sort(),
      );
      // The plain member does not see the admin member's device (members_see_shared_devices is off).
      expect((await (await as(w.member.main.email)).get(sharesUrl())).body.payload).toHaveLength(1);
      expect(code(await admin.post(sharesUrl(), { device_id: w.privateDevice.id }))).toEqual([404, 10]);
      expect(
        code(await (await as(w.adminMember.plain.email)).post(sharesUrl(), { device_id: w.adminMeter.id })),
      ).toEqual([403, 90056]);
      expect(
        code(await (await as(w.outsider.main.email)).post(sharesUrl(), { device_id: w.adminMeter.id })),
      ).toEqual([404, 90051]);
      expect(
        code(await (await as(w.nwa.main.email)).request('DELETE', `${sharesUrl()}/${w.meter.id}`)),
      ).toEqual([404, 90055]);
      const back = await admin.request('DELETE', `${sharesUrl()}/${w.adminMeter.id}`);
      expect(back.body.payload.map((s: { device_id: number }) => s.device_id)).toEqual([w.meter.id]);
      const drawer = await (await as(w.member.main.email)).get(`/api/v1/nwa/devices/${w.meter.id}/shares`);
      expect(drawer.body.payload).toEqual([expect.objectContaining({ nwa_id: w.nwa.company.id })]);
      expect(code(await admin.get(`/api/v1/nwa/devices/${w.meter.id}/shares`))).toEqual([404, 10]);
    });

    it('lets the association edit the usage settings, not a plain member', async () => {
      const url = `${sharesUrl()}/${w.meter.id}`;
      const res = await (await as(w.nwa.main.email)).put(url, {
        counts_against_company_id: w.adminMember.company.id,
        unit: 'l',
        meter_factor: 10,
      });
      expect(res.body.payload).toMatchObject({
        counts_against_company_id: w.adminMember.company.id,
        unit: 'l',
        meter_factor: 10,
      });
      expect(
        code(
          await (await as(w.nwa.main.email)).put(url, { counts_against_company_id: w.outsider.company.id }),
        ),
      ).toEqual([404, 90052]);
      expect(code(await (await as(w.member.main.email)).put(url, { unit: 'm3' }))).toEqual([403, 90050]);
      expect(
        code(await (await as(w.nwa.main.email)).put(`${sharesUrl()}/${w.privateDevice.id}`, { unit: 'm3' })),
      ).toEqual([404, 90055]);
    });

    it('row-level security: the association sees the shared device and its data, nothing else of the owner', async () => {
      const visible = (companyId: number) =>
        withTenant(suite.db, companyId, async (tx) => {
          const one = async (sql: string) =>
            (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, [w.member.company.id]))
              .rows[0]!.n;
          return {
            devices: await one('devices WHERE company_id = $1'),
            data: await one('device_data WHERE company_id = $1'),
            rules: await one('rules WHERE company_id = $1'),
            users: await one('users WHERE company_id = $1'),
            shares: await one('nwa_shared_devices WHERE company_id = $1'),
          };
        });
      await insertData(suite.db, w.member.company.id, w.meter.id, [
        { at: new Date(), data: { counter_1: 5 } },
      ]);
      expect(await visible(w.nwa.company.id)).toEqual({ devices: 1, data: 1, rules: 0, users: 0, shares: 1 });
      expect(await visible(w.adminMember.company.id)).toEqual({
        devices: 1,
        data: 1,
        rules: 0,
        users: 0,
        shares: 1,
      });
      expect(await visible(w.outsider.company.id)).toEqual({
        devices: 0,
        data: 0,
        rules: 0,
        users: 0,
        shares: 0,
      });
      expect(await visible(w.requester.company.id)).toEqual({
        devices: 0,
        data: 0,
        rules: 0,
        users: 0,
        shares: 0,
      });
      // The owner keeps everything of its own.
      expect(await visible(w.member.company.id)).toMatchObject({ devices: 2, data: 2, rules: 1, shares: 1 });
      // The tenant cannot change a shared device: the share policy admits reading only.
      const changed = await withTenant(suite.db, w.nwa.company.id, (tx) =>
        tx.query("UPDATE devices SET name = 'taken' WHERE id = $1 RETURNING id", [w.meter.id]),
      );
      expect(changed.rows).toHaveLength(0);
      // A member who leaves takes its shares along: the association sees nothing of it at once.
      await suite.db.query('DELETE FROM nwa_members WHERE nwa_company_id = $1 AND company_id = $2', [
        w.nwa.company.id,
        w.member.company.id,
      ]);
      expect(await visible(w.nwa.company.id)).toEqual({ devices: 0, data: 0, rules: 0, users: 0, shares: 0 });
    });

    it('shows shared devices to plain members only when the association says so', async () => {
      const other = await as(w.adminMember.main.email);
      await other.post(sharesUrl(), { device_id: w.adminMeter.id });
      const member = await as(w.member.plain.email);
      expect((await member.get(sharesUrl())).body.payload).toHaveLength(1);
      await (await as(w.nwa.main.email)).put(nwaUrl(), { members_see_shared_devices: true });
      expect((await member.get(sharesUrl())).body.payload).toHaveLength(2);
    });
  });

  describe('usage and warnings', () => {
    it('computes a member’s use across a counter reset; reading sends no warning', async () => {
      const hour = 3_600_000;
      const t = Date.now() - 6 * hour;
      await insertData(suite.db, w.member.company.id, w.meter.id, [
        { at: new Date(t), data: { counter_1: 1000 } },
        { at: new Date(t + hour), data: { counter_1: 1030 } },
        { at: new Date(t + 2 * hour), data: { counter_1: 1050 } },
        { at: new Date(t + 3 * hour), data: { counter_1: 15 } }, // reset: 15 drawn since
        { at: new Date(t + 4 * hour), data: { counter_1: 35 } },
      ]);
      const main = await as(w.nwa.main.email);
      await main.put(nwaUrl(), {
        allowances: [{ company_id: w.member.company.id, allowance_per_hour: 25, allowance_per_year: 100 }],
      });
      const usage = await main.get(`${nwaUrl()}/usage`);
      expect(usage.status).toBe(200);
      const member = usage.body.payload.members.find(
        (m: { company_id: number }) => m.company_id === w.member.company.id,
      );
      expect(member).toMatchObject({
        used: 85,
        allowance: 100,
        percent: 85,
        remaining: 15,
        max_hourly: 30,
        hourly_cap_exceeded: true,
      });
      expect(usage.body.payload.total_used).toBe(85);
      // Warnings are the rules worker's timer's (tests/e2e/water-warnings-distributed.test.ts).
      const { rows } = await suite.db.query(`SELECT 1 FROM messages WHERE kind LIKE 'water_%'`);
      expect(rows).toHaveLength(0);
      const history = await main.get(`${nwaUrl()}/shared-devices/${w.meter.id}/history`);
      expect(history.body.payload).toMatchObject({ counter_resets: 1 });
      expect(history.body.payload.readings).toHaveLength(5);
      expect(code(await (await as(w.outsider.main.email)).get(`${nwaUrl()}/usage`))).toEqual([404, 90051]);
    });
  });
});
