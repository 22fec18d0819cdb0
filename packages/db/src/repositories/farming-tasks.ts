/**
 * The farming task planner's rows (issue 24) in the tasks table of 0004 (statuses of 0029). The history
 * is the task's own jsonb array, one entry per change appended in the same statement as the change:
 * {at, user_id, user_name, kind, changes}.
 */
import type { Queryable } from '../db';
import { jsonParam } from './json-param';

export interface TaskRecord {
  id: number;
  title: string;
  type: string;
  status: 'planned' | 'in_progress' | 'done' | 'abandoned';
  abandon_reason: string | null;
  notes: string | null;
  due_at: Date | null;
  completed_at: Date | null;
  assignee_user_id: number | null;
  field_ids: number[];
  source_rule_id: number | null;
  history: Array<{
    at: string;
    user_id: number | null;
    user_name: string | null;
    kind: string;
    changes: Record<string, unknown>;
  }>;
  created_at: Date;
  updated_at: Date;
}

export type TaskView = 'all' | 'mine' | 'overdue' | 'upcoming' | 'done';

const COLUMNS = `id::int AS id, title, type, status, abandon_reason, description AS notes, due_at, completed_at,
  assigned_user_id::int AS assignee_user_id, source_rule_id::int AS source_rule_id,
  coalesce((SELECT array_agg(tf.field_id::int ORDER BY tf.field_id) FROM task_fields tf
             WHERE tf.task_id = tasks.id AND tf.company_id = tasks.company_id), '{}') AS field_ids,
  history, created_at, updated_at`;

export interface TaskFilter {
  view: TaskView;
  userId: number;
  now: Date;
  from?: Date;
  to?: Date;
  fieldId?: number;
}

/** The company's tasks of one planner view, by due date (undated last). */
export async function listTasks(q: Queryable, companyId: number, f: TaskFilter): Promise<TaskRecord[]> {
  const open = `status IN ('planned', 'in_progress')`;
  const views: Record<TaskView, string> = {
    all: 'true',
    mine: `assigned_user_id = $2 AND ${open}`,
    overdue: `${open} AND due_at < $3`,
    upcoming: `${open} AND (due_at IS NULL OR due_at >= $3)`,
    done: `status IN ('done', 'abandoned')`,
  };
  const { rows } = await q.query<TaskRecord>(
    `SELECT ${COLUMNS} FROM tasks
      WHERE company_id = $1 AND (${views[f.view]})
        -- Every view names its parameters' types, also those it does not use.
        AND $2::bigint IS NOT NULL AND $3::timestamptz IS NOT NULL
        AND ($4::timestamptz IS NULL OR due_at >= $4) AND ($5::timestamptz IS NULL OR due_at < $5)
        AND ($6::bigint IS NULL OR EXISTS (SELECT 1 FROM task_fields tf
                                             WHERE tf.task_id = tasks.id AND tf.field_id = $6))
      ORDER BY due_at NULLS LAST, id`,
    [companyId, f.userId, f.now, f.from ?? null, f.to ?? null, f.fieldId ?? null],
  );
  return rows;
}

export async function findTask(q: Queryable, companyId: number, id: number): Promise<TaskRecord | null> {
  const { rows } = await q.query<TaskRecord>(
    `SELECT ${COLUMNS} FROM tasks WHERE company_id = $1 AND id = $2`,
    [companyId, id],
  );
  return rows[0] ?? null;
}

export interface TaskColumns {
  title: string;
  type: string;
  status: string;
  abandon_reason: string | null;
  notes: string | null;
  due_at: string | null;
  assignee_user_id: number | null;
  field_ids: number[];
  source_rule_id?: number | null;
}

export interface TaskEvent {
  user_id: number | null;
  user_name: string | null;
  kind: 'created' | 'status' | 'assigned' | 'edited';
  changes: Record<string, unknown>;
}

export async function insertTask(
  q: Queryable,
  companyId: number,
  t: TaskColumns,
  event: TaskEvent,
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO tasks (company_id, title, type, status, abandon_reason, description, due_at, assigned_user_id,
                        source_rule_id, created_by, completed_at, history)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $4 = 'done' THEN now() END,
             jsonb_build_array($11::jsonb || jsonb_build_object('at', now())))
     RETURNING id::int AS id`,
    [
      companyId,
      t.title,
      t.type,
      t.status,
      t.abandon_reason,
      t.notes,
      t.due_at,
      t.assignee_user_id,
      t.source_rule_id ?? null,
      event.user_id,
      jsonParam(event),
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into tasks returned no row');
  await setTaskFields(q, companyId, id, t.field_ids);
  return id;
}

/** Makes `fieldIds` exactly the task's fields. The caller has checked every id is the company's. */
async function setTaskFields(q: Queryable, companyId: number, taskId: number, fieldIds: readonly number[]) {
  await q.query(
    'DELETE FROM task_fields WHERE company_id = $1 AND task_id = $2 AND NOT (field_id = ANY($3::bigint[]))',
    [companyId, taskId, fieldIds],
  );
  if (fieldIds.length === 0) return;
  await q.query(
    `INSERT INTO task_fields (company_id, task_id, field_id)
     SELECT $1, $2, unnest($3::bigint[]) ON CONFLICT DO NOTHING`,
    [companyId, taskId, fieldIds],
  );
}

/** Writes the task's new columns and appends the event to its history in one statement. */
export async function updateTask(
  q: Queryable,
  companyId: number,
  id: number,
  t: TaskColumns,
  event: TaskEvent,
): Promise<void> {
  await q.query(
    `UPDATE tasks SET title = $3, type = $4, status = $5, abandon_reason = $6, description = $7, due_at = $8,
        assigned_user_id = $9,
        completed_at = CASE WHEN $5 = 'done' THEN coalesce(completed_at, now()) ELSE NULL END,
        history = history || jsonb_build_array($10::jsonb || jsonb_build_object('at', now())),
        updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [
      companyId,
      id,
      t.title,
      t.type,
      t.status,
      t.abandon_reason,
      t.notes,
      t.due_at,
      t.assignee_user_id,
      jsonParam(event),
    ],
  );
  await setTaskFields(q, companyId, id, t.field_ids);
}

/** Whether the user belongs to the company (an assignee must). */
export async function isCompanyUser(q: Queryable, companyId: number, userId: number): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM users WHERE company_id = $1 AND id = $2', [
    companyId,
    userId,
  ]);
  return rows.length > 0;
}

/** Of `fieldIds`, those that are fields of the company. */
export async function ownedFieldIds(
  q: Queryable,
  companyId: number,
  fieldIds: readonly number[],
): Promise<number[]> {
  if (fieldIds.length === 0) return [];
  const { rows } = await q.query<{ id: number }>(
    'SELECT id::int AS id FROM farming_fields WHERE company_id = $1 AND id = ANY($2::bigint[]) ORDER BY id',
    [companyId, fieldIds],
  );
  return rows.map((r) => r.id);
}

/** The field a device stands on (devices.field_id), null when none. */
export async function fieldOfDevice(
  q: Queryable,
  companyId: number,
  deviceId: number,
): Promise<number | null> {
  const { rows } = await q.query<{ field_id: number | null }>(
    'SELECT field_id::int AS field_id FROM devices WHERE company_id = $1 AND id = $2',
    [companyId, deviceId],
  );
  return rows[0]?.field_id ?? null;
}

/** The newest open (planned or in progress) task a rule created, if any. */
export async function findOpenTaskOfRule(
  q: Queryable,
  companyId: number,
  ruleId: number,
): Promise<number | null> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT id::int AS id FROM tasks
      WHERE company_id = $1 AND source_rule_id = $2 AND status IN ('planned', 'in_progress')
      ORDER BY id DESC LIMIT 1`,
    [companyId, ruleId],
  );
  return rows[0]?.id ?? null;
}
