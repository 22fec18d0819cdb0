import { describe, expect, it } from 'vitest';
import { forEachDb } from '../testing';
import { insertCompany, listClients, softDeleteCompany, updateClient } from './companies';
import { listCountries } from './countries';
import {
  deleteExpiredSessions,
  deleteUserSessions,
  findLiveSession,
  insertSession,
  touchSession,
} from './sessions';
import {
  consumePasswordResetToken,
  countMainUsers,
  findUserById,
  findUserForLogin,
  insertPasswordResetToken,
  insertUser,
  isEmailRegistered,
  listUsers,
  softDeleteUser,
  updateUser,
} from './users';

describe('identity repositories', () => {
  forEachDb((suite) => {
    async function company(name = 'Acme') {
      return insertCompany(suite.db, { name });
    }
    async function user(companyId: number, email: string, roles: string[] = []) {
      return insertUser(suite.db, companyId, { email, name: email, passwordHash: 'x', roles });
    }

    it('scopes users to the company: another company sees neither the row nor can change it', async () => {
      const a = await company();
      const b = await company();
      const u = await user(a.id, `scoped-${a.id}@example.test`);
      expect((await findUserById(suite.db, a.id, u.id))?.email).toBe(u.email);
      expect(await findUserById(suite.db, b.id, u.id)).toBeNull();
      expect(await updateUser(suite.db, b.id, u.id, { name: 'stolen' })).toBeNull();
      expect(await softDeleteUser(suite.db, b.id, u.id)).toBe(false);
      expect((await listUsers(suite.db, b.id)).map((x) => x.id)).not.toContain(u.id);
      expect((await findUserById(suite.db, a.id, u.id))?.name).toBe(u.email);
    });

    it('treats addresses case-insensitively and frees them on soft delete', async () => {
      const a = await company();
      const u = await user(a.id, `Case-${a.id}@Example.test`);
      expect(await isEmailRegistered(suite.db, `case-${a.id}@example.TEST`)).toBe(true);
      expect(await isEmailRegistered(suite.db, `case-${a.id}@example.test`, u.id)).toBe(false);
      expect((await findUserForLogin(suite.db, `CASE-${a.id}@example.test`))?.id).toBe(u.id);
      await softDeleteUser(suite.db, a.id, u.id);
      expect(await isEmailRegistered(suite.db, u.email)).toBe(false);
      expect(await findUserForLogin(suite.db, u.email)).toBeNull();
    });

    it('counts main users of one company', async () => {
      const a = await company();
      await user(a.id, `m1-${a.id}@example.test`, ['ROLE_MAINUSER']);
      await user(a.id, `m2-${a.id}@example.test`, ['ROLE_ADMIN', 'ROLE_MAINUSER']);
      await user(a.id, `p-${a.id}@example.test`, ['ROLE_ADMIN']);
      expect(await countMainUsers(suite.db, a.id)).toBe(2);
    });

    it('spends a reset token once and never after expiry', async () => {
      const a = await company();
      const u = await user(a.id, `reset-${a.id}@example.test`);
      await insertPasswordResetToken(suite.db, u.id, `hash-live-${a.id}`, new Date(Date.now() + 60_000));
      await insertPasswordResetToken(suite.db, u.id, `hash-old-${a.id}`, new Date(Date.now() - 1000));
      expect(await consumePasswordResetToken(suite.db, `hash-live-${a.id}`)).toBe(u.id);
      expect(await consumePasswordResetToken(suite.db, `hash-live-${a.id}`)).toBeNull();
      expect(await consumePasswordResetToken(suite.db, `hash-old-${a.id}`)).toBeNull();
      expect(await consumePasswordResetToken(suite.db, 'unknown')).toBeNull();
    });

    it('finds live sessions only, slides at most once per interval, sweeps expired ones', async () => {
      const a = await company();
      const u = await user(a.id, `session-${a.id}@example.test`);
      await insertSession(suite.db, {
        id: `live-${a.id}`,
        userId: u.id,
        csrfToken: 'c',
        lifetimeSeconds: 7200,
      });
      await insertSession(suite.db, {
        id: `dead-${a.id}`,
        userId: u.id,
        csrfToken: 'c',
        lifetimeSeconds: 7200,
      });
      await suite.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [
        `dead-${a.id}`,
      ]);
      const live = await findLiveSession(suite.db, `live-${a.id}`);
      expect(live).toMatchObject({
        userId: u.id,
        userCompanyId: a.id,
        companyBlocked: false,
        companyDeleted: false,
      });
      expect(await findLiveSession(suite.db, `dead-${a.id}`)).toBeNull();

      await suite.db.query(`UPDATE sessions SET expires_at = now() + interval '10 seconds' WHERE id = $1`, [
        `live-${a.id}`,
      ]);
      await touchSession(suite.db, `live-${a.id}`, 7200, 60);
      const untouched = await findLiveSession(suite.db, `live-${a.id}`);
      expect(untouched!.expiresAt.getTime() - Date.now()).toBeLessThan(11_000);
      await suite.db.query(`UPDATE sessions SET last_seen_at = now() - interval '61 seconds' WHERE id = $1`, [
        `live-${a.id}`,
      ]);
      await touchSession(suite.db, `live-${a.id}`, 7200, 60);
      const slid = await findLiveSession(suite.db, `live-${a.id}`);
      expect(slid!.expiresAt.getTime() - Date.now()).toBeGreaterThan(7_100_000);

      expect(await deleteExpiredSessions(suite.db)).toBeGreaterThanOrEqual(1);
      expect(await deleteUserSessions(suite.db, u.id)).toBe(1);
    });

    it('reports blocked and deleted companies on the session', async () => {
      const a = await company();
      const u = await user(a.id, `blocked-${a.id}@example.test`);
      await insertSession(suite.db, { id: `s-${a.id}`, userId: u.id, csrfToken: 'c', lifetimeSeconds: 60 });
      await updateClient(suite.db, a.id, { blocked: true });
      expect((await findLiveSession(suite.db, `s-${a.id}`))?.companyBlocked).toBe(true);
      await softDeleteCompany(suite.db, a.id);
      expect((await findLiveSession(suite.db, `s-${a.id}`))?.companyDeleted).toBe(true);
      expect((await listClients(suite.db)).map((c) => c.id)).not.toContain(a.id);
    });

    it('lists clients with live user counts', async () => {
      const a = await company('Counted');
      const gone = await user(a.id, `c1-${a.id}@example.test`);
      await user(a.id, `c2-${a.id}@example.test`);
      await softDeleteUser(suite.db, a.id, gone.id);
      await suite.db.query(`INSERT INTO devices (company_id, name) VALUES ($1, 'one'), ($1, 'two')`, [a.id]);
      const entry = (await listClients(suite.db)).find((c) => c.id === a.id);
      expect(entry).toMatchObject({ name: 'Counted', userCount: 1, deviceCount: 2 });
    });

    it('sorts countries by name with German collation', async () => {
      expect((await listCountries(suite.db)).map((c) => c.name)).toEqual([
        'Deutschland',
        'France',
        'Österreich',
        'Schweiz',
      ]);
    });
  });
});
