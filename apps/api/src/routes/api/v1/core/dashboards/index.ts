/**
 * /api/v1/core/company/dashboards (registered at that prefix): the acting company's dashboards with their
 * widgets (spec sections 2, 3, 6, 7). Everyone in the company reads; ROLE_ADMIN and ROLE_MAINUSER edit
 * (90006). PUT with widgets replaces the layout atomically. Another company's dashboard is 96. The list is
 * kept in memory per company until a change is announced (deps.dashboardsCache, plugins/answer-cache.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateDashboardBody,
  DashboardPayload,
  DeletedPayload,
  IdParams,
  responses,
  UpdateDashboardBody,
} from '@iot/contracts';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { sendKeptAnswer } from '../../../../../lib/answer-cache';
import { authOf } from '../../../../../plugins/guards';
import {
  createDashboard,
  deleteCompanyDashboard,
  getCompanyDashboard,
  listCompanyDashboards,
  updateCompanyDashboard,
} from '../../../../../services/manage-dashboards';
import { presentDashboard } from './present';

const dashboardsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, dashboardsCache } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['dashboards'],
        operationId: 'listDashboards',
        summary: "The company's dashboards with their widgets, by position",
        response: responses(Type.Array(DashboardPayload)),
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      // Every user of the acting company reads the same dashboards.
      // (The typed reply accepts only the schema's objects; the kept text is that object, already written.)
      return sendKeptAnswer(
        dashboardsCache,
        { company: auth.companyId, variant: 'dashboards' },
        request,
        reply as unknown as FastifyReply,
        async () => {
          const payload = (await listCompanyDashboards(db, auth)).map(presentDashboard);
          // The route's own serializer, so the kept text is what the schema lets out.
          return String(reply.serialize({ payload }));
        },
      );
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags: ['dashboards'],
        operationId: 'createDashboard',
        summary: 'Create a dashboard, optionally with widgets (90006, 422, 97)',
        body: CreateDashboardBody,
        response: responses(DashboardPayload, [90006, 422, 97, 77]),
      },
    },
    async (request) => ({
      payload: presentDashboard(await createDashboard(db, authOf(request), request.body)),
    }),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['dashboards'],
        operationId: 'getDashboard',
        summary: 'One dashboard with its widgets (96)',
        params: IdParams,
        response: responses(DashboardPayload, [96, 422]),
      },
    },
    async (request) => ({
      payload: presentDashboard(await getCompanyDashboard(db, authOf(request), request.params.id)),
    }),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags: ['dashboards'],
        operationId: 'updateDashboard',
        summary: 'Rename, move, or replace the whole widget layout in one transaction (90006, 96, 422, 98)',
        params: IdParams,
        body: UpdateDashboardBody,
        response: responses(DashboardPayload, [90006, 96, 422, 98, 77]),
      },
    },
    async (request) => ({
      payload: presentDashboard(
        await updateCompanyDashboard(db, authOf(request), request.params.id, request.body),
      ),
    }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['dashboards'],
        operationId: 'deleteDashboard',
        summary: 'Delete a dashboard and its widgets (90006, 96, 99)',
        params: IdParams,
        response: responses(DeletedPayload, [90006, 96, 99, 422, 77]),
      },
    },
    async (request) => {
      await deleteCompanyDashboard(db, authOf(request), request.params.id);
      return { payload: { id: request.params.id } };
    },
  );
};

export default dashboardsRoutes;
