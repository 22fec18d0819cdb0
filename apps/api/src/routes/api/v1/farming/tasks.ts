/**
 * /api/v1/farming/tasks: the task planner (issue 24). GET lists one view (all, mine, overdue, upcoming,
 * done) optionally within a due-date window (the week calendar) and for one field; GET /{id} adds the
 * history; POST adds, PUT changes (every change a history entry). Registered inside the farming scope,
 * so the module licence applies.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FarmingTask } from '@iot/contracts';
import {
  CreateTaskBody,
  IdParams,
  responses,
  TaskListQuery,
  TaskPayload,
  UpdateTaskBody,
} from '@iot/contracts';
import type { TaskRecord } from '@iot/db';
import { isTaskLate } from '@iot/domain';
import { Type } from 'typebox';
import { authOf } from '../../../../plugins/guards';
import {
  createTask,
  getCompanyTask,
  listCompanyTasks,
  updateCompanyTask,
} from '../../../../services/manage-farming-tasks';

const tags = ['farming'];

function presentTask(t: TaskRecord, withHistory: boolean): FarmingTask {
  const due = t.due_at ? new Date(t.due_at).toISOString() : null;
  return {
    id: t.id,
    title: t.title,
    type: t.type,
    status: t.status,
    abandon_reason: t.abandon_reason,
    notes: t.notes,
    due_at: due,
    completed_at: t.completed_at ? new Date(t.completed_at).toISOString() : null,
    assignee_user_id: t.assignee_user_id,
    field_ids: t.field_ids,
    source_rule_id: t.source_rule_id,
    late: isTaskLate({ status: t.status, due_at: due }, new Date()),
    created_at: new Date(t.created_at).toISOString(),
    updated_at: new Date(t.updated_at).toISOString(),
    ...(withHistory ? { history: t.history } : {}),
  };
}

const farmingTaskRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags,
        operationId: 'listFarmingTasks',
        summary: 'Tasks of one planner view, by due date; from/to narrow to a due-date window',
        querystring: TaskListQuery,
        response: responses(Type.Array(TaskPayload), [27, 422]),
      },
    },
    async (request) => ({
      payload: (await listCompanyTasks(db, authOf(request), request.query)).map((t) => presentTask(t, false)),
    }),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        operationId: 'getFarmingTask',
        summary: 'One task with its history (20061)',
        params: IdParams,
        response: responses(TaskPayload, [27, 20061]),
      },
    },
    async (request) => ({
      payload: presentTask(await getCompanyTask(db, authOf(request), request.params.id), true),
    }),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        operationId: 'createFarmingTask',
        summary: 'Add a task (20062 invalid, 20063 assignee, 20064 a field not the company’s)',
        body: CreateTaskBody,
        response: responses(TaskPayload, [27, 20062, 20063, 20064, 422, 77]),
      },
    },
    async (request) => ({ payload: presentTask(await createTask(db, authOf(request), request.body), true) }),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        operationId: 'updateFarmingTask',
        summary: 'Change a task; each change is written to its history (20061, 20062, 20063, 20064)',
        params: IdParams,
        body: UpdateTaskBody,
        response: responses(TaskPayload, [27, 20061, 20062, 20063, 20064, 422, 77]),
      },
    },
    async (request) => ({
      payload: presentTask(
        await updateCompanyTask(db, authOf(request), request.params.id, request.body),
        true,
      ),
    }),
  );
};

export default farmingTaskRoutes;
