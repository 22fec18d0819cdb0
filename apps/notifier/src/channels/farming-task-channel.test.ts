import type { Queryable } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { createDbJobKeyStore, InProcessJobQueue, notifyActionJob } from '@iot/jobs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type NotifierService, startNotifier } from '../index';
import {
  createAction,
  createFixture,
  type Fixture,
  payloadFor,
  silentLog,
  testConfig,
  waitFor,
} from '../test-support/fixtures';

async function addField(db: Queryable, companyId: number, name: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO farming_fields (company_id, name) VALUES ($1, $2) RETURNING id::int AS id',
    [companyId, name],
  );
  return rows[0]!.id;
}

async function tasksOf(db: Queryable, f: Fixture) {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT t.id::int AS id, t.title, t.type, t.status, t.description AS notes, t.due_at, t.source_rule_id::int
            AS source_rule_id, t.assigned_user_id::int AS assignee, t.history,
            coalesce((SELECT array_agg(tf.field_id::int ORDER BY tf.field_id) FROM task_fields tf
                       WHERE tf.task_id = t.id), '{}') AS field_ids
       FROM tasks t WHERE t.company_id = $1 ORDER BY t.id`,
    [f.companyId],
  );
  return rows;
}

async function logOf(db: Queryable, f: Fixture) {
  const { rows } = await db.query<{ channel: string; status: string; details: Record<string, unknown> }>(
    `SELECT channel, status, details FROM notification_log WHERE company_id = $1 ORDER BY id`,
    [f.companyId],
  );
  return rows;
}

const FARMING = ['farming'];

forEachDb((suite) => {
  let notifier: NotifierService;
  let queue: InProcessJobQueue;

  beforeAll(async () => {
    queue = new InProcessJobQueue({ keys: createDbJobKeyStore(suite.db) });
    notifier = await startNotifier({
      config: testConfig(),
      db: suite.db,
      log: silentLog,
      queue,
      job: notifyActionJob({ timeoutMs: 5_000, retry: { attempts: 2, delayMs: 30 } }),
    });
  });
  afterAll(async () => {
    await notifier?.stop();
    await queue?.close();
  });

  it('plans a task on the firing device’s field, due after the given hours, with a history entry', async () => {
    const f = await createFixture(suite.db, {
      deviceName: 'Boden Acker Ost',
      ruleName: 'Zu trocken',
      modules: FARMING,
    });
    const field = await addField(suite.db, f.companyId, 'Acker Ost');
    await suite.db.query('UPDATE devices SET field_id = $1 WHERE id = $2', [field, f.deviceId]);
    const actionId = await createAction(suite.db, f, {
      type: 'farming_task',
      subject: 'Beregnen: {device} {value} {unit}',
      body: 'Regel {rule}',
      settings: { task_type: 'irrigation', field_ids: [], due_in_hours: 24, assignee_user_id: null },
    });
    await notifier.enqueue(payloadFor(f, actionId));
    await waitFor(async () => (await logOf(suite.db, f)).length === 1, 'the delivery');

    const [task, ...rest] = await tasksOf(suite.db, f);
    expect(rest).toEqual([]);
    expect(task).toMatchObject({
      title: 'Beregnen: Boden Acker Ost 31.5 °C',
      type: 'irrigation',
      status: 'planned',
      notes: 'Regel Zu trocken',
      source_rule_id: f.ruleId,
      assignee: null,
      field_ids: [field],
    });
    expect(new Date(task!.due_at as string).toISOString()).toBe('2026-07-02T12:00:00.000Z');
    expect(task!.history).toEqual([
      expect.objectContaining({ kind: 'created', user_id: null, user_name: 'Zu trocken' }),
    ]);
    expect(await logOf(suite.db, f)).toEqual([
      {
        channel: 'farming_task',
        status: 'sent',
        details: expect.objectContaining({ task_id: task!.id, created: true }),
      },
    ]);
  });

  it('plans no second task while the rule’s task is open, and a new one once it is done', async () => {
    const f = await createFixture(suite.db, { modules: FARMING });
    const [a, b] = [await addField(suite.db, f.companyId, 'A'), await addField(suite.db, f.companyId, 'B')];
    const other = await createFixture(suite.db);
    const foreign = await addField(suite.db, other.companyId, 'Foreign');
    const actionId = await createAction(suite.db, f, {
      type: 'farming_task',
      subject: 'Kontrolle',
      settings: { task_type: 'maintenance', field_ids: [b, a, foreign] },
    });
    await notifier.enqueue(payloadFor(f, actionId));
    await waitFor(async () => (await logOf(suite.db, f)).length === 1, 'the first delivery');
    await notifier.enqueue(payloadFor(f, actionId));
    await waitFor(async () => (await logOf(suite.db, f)).length === 2, 'the second delivery');

    const tasks = await tasksOf(suite.db, f);
    // Several fields; another company's field is never put on the task.
    expect(tasks).toEqual([expect.objectContaining({ title: 'Kontrolle', field_ids: [a, b], due_at: null })]);
    expect((await logOf(suite.db, f))[1]).toMatchObject({
      status: 'sent',
      details: { task_id: tasks[0]!.id, created: false },
    });

    await suite.db.query(`UPDATE tasks SET status = 'done' WHERE id = $1`, [tasks[0]!.id]);
    await notifier.enqueue(payloadFor(f, actionId));
    await waitFor(async () => (await logOf(suite.db, f)).length === 3, 'the third delivery');
    expect(await tasksOf(suite.db, f)).toHaveLength(2);
  });

  it('plans no task once the company lost its farming licence: refused at firing, not only at save', async () => {
    const f = await createFixture(suite.db, { modules: FARMING });
    const actionId = await createAction(suite.db, f, {
      type: 'farming_task',
      subject: 'Kontrolle',
      settings: { task_type: 'maintenance', field_ids: [] },
    });
    await suite.db.query(`UPDATE companies SET modules = '{}' WHERE id = $1`, [f.companyId]);
    await notifier.enqueue(payloadFor(f, actionId));
    await waitFor(
      async () =>
        (await queue.deadLetters('notify.action')).some((d) => d.idempotencyKey.endsWith(`:${actionId}`)),
      'the refusal',
    );
    expect(await tasksOf(suite.db, f)).toEqual([]);
  });
});
