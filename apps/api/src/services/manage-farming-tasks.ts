/**
 * The farming task planner (issue 24; research §6): everyone in a farming company plans and works tasks.
 * A task has a title, a type, a status (planned, in progress, done, abandoned with a reason), a due date, an
 * assignee of the company (20063) and fields of the company (20064). Every change appends one history
 * entry (who, when, what changed) in the same statement. Late is derived, not stored.
 */
import type { Db, Queryable, TaskColumns, TaskRecord, TaskView } from '@iot/db';
import {
  findTask,
  insertTask,
  isCompanyUser,
  listTasks,
  ownedFieldIds,
  updateTask,
  withTenant,
} from '@iot/db';
import { TASK_TYPES } from '@iot/domain';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';
import { farmingWrite } from './farming-common';

export interface TaskInput {
  title?: string;
  type?: string;
  status?: 'planned' | 'in_progress' | 'done' | 'abandoned';
  abandon_reason?: string | null;
  notes?: string | null;
  due_at?: string | null;
  assignee_user_id?: number | null;
  field_ids?: number[];
}

const TRACKED = [
  'title',
  'type',
  'status',
  'abandon_reason',
  'notes',
  'due_at',
  'assignee_user_id',
  'field_ids',
] as const;

function columnsOf(task: TaskRecord): TaskColumns {
  return {
    title: task.title,
    type: task.type,
    status: task.status,
    abandon_reason: task.abandon_reason,
    notes: task.notes,
    due_at: task.due_at ? new Date(task.due_at).toISOString() : null,
    assignee_user_id: task.assignee_user_id,
    field_ids: task.field_ids,
  };
}

async function checkColumns(tx: Queryable, auth: AuthContext, t: TaskColumns): Promise<TaskColumns> {
  const title = t.title.trim();
  if (title === '' || title.length > 200)
    throw apiError('TASK_INVALID', { fields: { title: { key: 'error.required' } } });
  if (!(TASK_TYPES as readonly string[]).includes(t.type))
    throw apiError('TASK_INVALID', { fields: { type: {} } });
  const reason = t.abandon_reason?.trim() || null;
  if (t.status === 'abandoned' && !reason) {
    throw apiError('TASK_INVALID', { fields: { abandon_reason: { key: 'error.required' } } });
  }
  if (t.assignee_user_id !== null && !(await isCompanyUser(tx, auth.companyId, t.assignee_user_id))) {
    throw apiError('TASK_ASSIGNEE_INVALID');
  }
  const fieldIds = [...new Set(t.field_ids)].sort((a, b) => a - b);
  if ((await ownedFieldIds(tx, auth.companyId, fieldIds)).length !== fieldIds.length)
    throw apiError('TASK_FIELD_INVALID');
  return {
    ...t,
    field_ids: fieldIds,
    title,
    abandon_reason: t.status === 'abandoned' ? reason : null,
    notes: t.notes?.trim() || null,
  };
}

function eventKind(changes: Record<string, unknown>): 'status' | 'assigned' | 'edited' {
  if ('status' in changes) return 'status';
  if (Object.keys(changes).length === 1 && 'assignee_user_id' in changes) return 'assigned';
  return 'edited';
}

export function listCompanyTasks(
  db: Db,
  auth: AuthContext,
  query: { view?: TaskView; from?: string; to?: string; field_id?: number },
): Promise<TaskRecord[]> {
  return withTenant(db, auth.companyId, (tx) =>
    listTasks(tx, auth.companyId, {
      view: query.view ?? 'all',
      userId: auth.user.id,
      now: new Date(),
      ...(query.from ? { from: new Date(query.from) } : {}),
      ...(query.to ? { to: new Date(query.to) } : {}),
      ...(query.field_id ? { fieldId: query.field_id } : {}),
    }),
  );
}

export async function getCompanyTask(db: Db, auth: AuthContext, id: number): Promise<TaskRecord> {
  const task = await withTenant(db, auth.companyId, (tx) => findTask(tx, auth.companyId, id));
  if (!task) throw apiError('TASK_NOT_FOUND');
  return task;
}

export async function createTask(db: Db, auth: AuthContext, input: TaskInput): Promise<TaskRecord> {
  return farmingWrite(db, auth, 'TASK_INVALID', async (tx) => {
    const columns = await checkColumns(tx, auth, {
      title: input.title ?? '',
      type: input.type ?? '',
      status: input.status ?? 'planned',
      abandon_reason: input.abandon_reason ?? null,
      notes: input.notes ?? null,
      due_at: input.due_at ?? null,
      assignee_user_id: input.assignee_user_id ?? null,
      field_ids: input.field_ids ?? [],
    });
    const id = await insertTask(tx, auth.companyId, columns, {
      user_id: auth.user.id,
      user_name: auth.user.name,
      kind: 'created',
      changes: { title: columns.title, status: columns.status },
    });
    const task = await findTask(tx, auth.companyId, id);
    if (!task) throw apiError('TASK_NOT_FOUND');
    return task;
  });
}

export async function updateCompanyTask(
  db: Db,
  auth: AuthContext,
  id: number,
  input: TaskInput,
): Promise<TaskRecord> {
  return farmingWrite(db, auth, 'TASK_INVALID', async (tx) => {
    const task = await findTask(tx, auth.companyId, id);
    if (!task) throw apiError('TASK_NOT_FOUND');
    const before = columnsOf(task);
    const wanted = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    const after = await checkColumns(tx, auth, { ...before, ...wanted } as TaskColumns);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const key of TRACKED) {
      const [from, to] = [before[key], after[key]];
      const same =
        key === 'due_at'
          ? (from ? Date.parse(String(from)) : null) === (to ? Date.parse(String(to)) : null)
          : JSON.stringify(from) === JSON.stringify(to);
      if (!same) changes[key] = { from, to };
    }
    if (Object.keys(changes).length === 0) return task;
    await updateTask(tx, auth.companyId, id, after, {
      user_id: auth.user.id,
      user_name: auth.user.name,
      kind: eventKind(changes),
      changes,
    });
    const updated = await findTask(tx, auth.companyId, id);
    if (!updated) throw apiError('TASK_NOT_FOUND');
    return updated;
  });
}
