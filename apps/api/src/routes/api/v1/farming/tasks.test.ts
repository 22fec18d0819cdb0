import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { createDevice } from '../../../../test/device-fixtures';
import { createTeam } from '../../../../test/fixtures';
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
        field_ids: [field.id],
        assignee_user_id: team.plain.id,
      });
      expect(irrigate.status).toBe(200);
      expect(irrigate.body.payload).toMatchObject({
        title: 'Beregnen',
        status: 'planned',
        late: false,
        field_ids: [field.id],
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
        field_ids: [foreignField.id],
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

    it('puts a task on several fields, lists it under each and records a change of fields', async () => {
      const team = await createFarmingTeam(suite.db);
      const main = await signIn(team.main.email);
      const fieldId = async (name: string): Promise<number> =>
        (await main.post('/api/v1/farming/fields', { name })).body.payload.id;
      const east = await fieldId('Acker Ost');
      const vineyard = await fieldId('Weinberg');
      const orchard = await fieldId('Obstwiese');
      const created = await main.post('/api/v1/farming/tasks', {
        title: 'Bodenprobe',
        type: 'soil_sampling',
        field_ids: [vineyard, east, east],
      });
      expect(created.status).toBe(200);
      const task = created.body.payload;
      expect(task.field_ids).toEqual([east, vineyard].sort((a, b) => a - b));
      const onField = async (fieldId: number) =>
        (await main.get(`/api/v1/farming/tasks?field_id=${fieldId}`)).body.payload.map(
          (t: { id: number }) => t.id,
        );
      expect(await onField(east)).toEqual([task.id]);
      expect(await onField(vineyard)).toEqual([task.id]);
      expect(await onField(orchard)).toEqual([]);

      const moved = await main.put(`/api/v1/farming/tasks/${task.id}`, { field_ids: [orchard, east] });
      expect(moved.body.payload.field_ids).toEqual([east, orchard].sort((a, b) => a - b));
      expect(moved.body.payload.history.at(-1)).toMatchObject({
        kind: 'edited',
        changes: { field_ids: { from: task.field_ids, to: moved.body.payload.field_ids } },
      });
      expect(await onField(vineyard)).toEqual([]);

      // Deleting a field takes it off the task; the task stays.
      await main.delete(`/api/v1/farming/fields/${orchard}`);
      expect((await main.get(`/api/v1/farming/tasks/${task.id}`)).body.payload.field_ids).toEqual([east]);
    });
  });

  describe('rule action farming_task (PUT /core/devices/{id})', () => {
    const ruleWith = (config: Record<string, unknown>) => ({
      name: 'Zu trocken',
      trigger: 'data',
      data_field: 'soil_humidity',
      operator: 'lte',
      value: 20,
      actions: [{ channel: 'farming_task', config }],
    });

    it('stores the task action and shows its config; checks its fields, assignee and type', async () => {
      const team = await createFarmingTeam(suite.db);
      const other = await createFarmingTeam(suite.db);
      const main = await signIn(team.main.email);
      const device = await createDevice(suite.db, team.company.id, { device_type: 'nbiot_soil_sensor' });
      const field = (await main.post('/api/v1/farming/fields', { name: 'Acker Ost' })).body.payload.id;
      const foreign = (await (await signIn(other.main.email)).post('/api/v1/farming/fields', { name: 'F' }))
        .body.payload.id;
      const config = {
        title: 'Beregnen {device}',
        notes: 'Wert {value}',
        task_type: 'irrigation',
        field_ids: [field],
        due_in_hours: 24,
        assignee_user_id: team.plain.id,
      };
      const put = await main.put(`/api/v1/core/devices/${device.id}`, { rules: [ruleWith(config)] });
      expect(put.status).toBe(200);
      expect(put.body.payload.rules[0].actions).toEqual([
        { id: expect.any(Number), channel: 'farming_task', config },
      ]);

      const bad = async (c: Record<string, unknown>) => {
        const res = await main.put(`/api/v1/core/devices/${device.id}`, { rules: [ruleWith(c)] });
        return [res.status, res.body.code];
      };
      expect(await bad({ ...config, field_ids: [field, foreign] })).toEqual([422, 20064]);
      expect(await bad({ ...config, assignee_user_id: other.main.id })).toEqual([422, 20063]);
      expect(await bad({ ...config, task_type: 'dancing' })).toEqual([422, 422]);
      expect(await bad({ ...config, title: '' })).toEqual([422, 422]);
      expect(await bad({ ...config, due_in_hours: -1 })).toEqual([422, 422]);
    });

    it('is refused to a company without the farming licence (27)', async () => {
      const team = await createTeam(suite.db);
      const main = await signIn(team.main.email);
      const device = await createDevice(suite.db, team.company.id, { device_type: 'nbiot_soil_sensor' });
      const res = await main.put(`/api/v1/core/devices/${device.id}`, {
        rules: [ruleWith({ title: 'X', task_type: 'irrigation' })],
      });
      expect([res.status, res.body.code]).toEqual([403, 27]);
    });
  });
});
