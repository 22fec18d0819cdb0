import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { useRouteApp } from '../../../../test/route-suite';
import { createFarmingTeam } from './farming-test-setup';

forEachDb((suite) => {
  const { signIn } = useRouteApp(suite);
  const day = 24 * 3600_000;

  describe('/farming/tasks', () => {
    it('plans, assigns and finishes tasks, keeps their history and sorts them into views', async () => {
      const team = await createFarmingTeam(suite.db);
      const main = await signIn(team.main.email);
      const plain = await signIn(team.plain.email);
      const field = (await main.post('/api/v1/farming/fields', { name: 'Acker Ost' })).body.payload;
      const soon = new Date(Date.now() + 2 * day).toISOString();
      const past = new Date(Date.now() - day).toISOString();

      const irrigate = await main.post('/api/v1/farming/tasks', {
        title: ' Beregnen ',
        type: 'irrigation',
        due_at: soon,
        field_id: field.id,
        assignee_user_id: team.plain.id,
      });
      expect(irrigate.status).toBe(200);
      expect(irrigate.body.payload).toMatchObject({
        title: 'Beregnen',
        status: 'planned',
        late: false,
        field_id: field.id,
      });
      const late = (
        await main.post('/api/v1/farming/tasks', { title: 'Bodenprobe', type: 'soil_sampling', due_at: past })
      ).body.payload;
      expect(late.late).toBe(true);

      const ids = async (client: typeof main, view: string) =>
        (await client.get(`/api/v1/farming/tasks?view=${view}`)).body.payload.map(
          (t: { id: number }) => t.id,
        );
      expect(await ids(plain, 'mine')).toEqual([irrigate.body.payload.id]);
      expect(await ids(main, 'overdue')).toEqual([late.id]);
      expect(await ids(main, 'upcoming')).toEqual([irrigate.body.payload.id]);

      // The assignee works the task: each change is a history entry with who and what.
      await plain.put(`/api/v1/farming/tasks/${irrigate.body.payload.id}`, { status: 'in_progress' });
      const done = await plain.put(`/api/v1/farming/tasks/${irrigate.body.payload.id}`, { status: 'done' });
      expect(done.body.payload.completed_at).not.toBeNull();
      const history = (await main.get(`/api/v1/farming/tasks/${irrigate.body.payload.id}`)).body.payload
        .history;
      expect(history.map((h: { kind: string; user_name: string }) => [h.kind, h.user_name])).toEqual([
        ['created', 'Main User'],
        ['status', 'Plain User'],
        ['status', 'Plain User'],
      ]);
      expect(history[2].changes).toEqual({ status: { from: 'in_progress', to: 'done' } });
      expect(await ids(main, 'done')).toEqual([irrigate.body.payload.id]);

      // Abandoning needs a reason (20062).
      const noReason = await main.put(`/api/v1/farming/tasks/${late.id}`, { status: 'abandoned' });
      expect([noReason.status, noReason.body.code]).toEqual([422, 20062]);
      const abandoned = await main.put(`/api/v1/farming/tasks/${late.id}`, {
        status: 'abandoned',
        abandon_reason: 'Regen',
      });
      expect(abandoned.body.payload).toMatchObject({
        status: 'abandoned',
        abandon_reason: 'Regen',
        late: false,
      });

      // The week window of the calendar.
      const from = new Date(Date.now() + day).toISOString();
      const to = new Date(Date.now() + 3 * day).toISOString();
      const week = (
        await main.get(`/api/v1/farming/tasks?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`)
      ).body.payload;
      expect(week.map((t: { id: number }) => t.id)).toEqual([irrigate.body.payload.id]);
    });

    it('refuses another company’s users, fields and tasks', async () => {
      const home = await createFarmingTeam(suite.db);
      const other = await createFarmingTeam(suite.db);
      const main = await signIn(home.main.email);
      const otherMain = await signIn(other.main.email);
      const foreignField = (await otherMain.post('/api/v1/farming/fields', { name: 'Fremd' })).body.payload;
      const assignee = await main.post('/api/v1/farming/tasks', {
        title: 'X',
        type: 'harvest',
        assignee_user_id: other.main.id,
      });
      expect([assignee.status, assignee.body.code]).toEqual([422, 20063]);
      const field = await main.post('/api/v1/farming/tasks', {
        title: 'X',
        type: 'harvest',
        field_id: foreignField.id,
      });
      expect([field.status, field.body.code]).toEqual([422, 20064]);
      const type = await main.post('/api/v1/farming/tasks', { title: 'X', type: 'dancing' });
      expect([type.status, type.body.code]).toEqual([422, 20062]);
      const own = (await main.post('/api/v1/farming/tasks', { title: 'Mine', type: 'harvest' })).body.payload;
      const read = await otherMain.get(`/api/v1/farming/tasks/${own.id}`);
      expect([read.status, read.body.code]).toEqual([404, 20061]);
      const write = await otherMain.put(`/api/v1/farming/tasks/${own.id}`, { title: 'Taken' });
      expect([write.status, write.body.code]).toEqual([404, 20061]);
      expect((await otherMain.get('/api/v1/farming/tasks')).body.payload).toEqual([]);
    });
  });
});
