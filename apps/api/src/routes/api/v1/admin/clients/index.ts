/** /api/v1/admin/clients: the super admin's client management and impersonation (spec sections 1, 6). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ClientLimitsPayload,
  ClientPayload,
  ClientPurgePreviewPayload,
  CompanyPayload,
  CreateClientBody,
  CurrentUserPayload,
  DeletedClientPayload,
  IdParams,
  ImpersonationRecordPayload,
  responses,
  UpdateClientBody,
} from '@iot/contracts';
import { findCompany, listClients, listDeletedCompanies } from '@iot/db';
import { Type } from 'typebox';
import { apiError } from '../../../../../lib/errors';
import { authOf, requireSuperAdmin, requireSuperAdminManager } from '../../../../../plugins/guards';
import { createClient } from '../../../../../services/create-client';
import { listCompanyImpersonations, startImpersonation } from '../../../../../services/impersonation';
import {
  changeClient,
  deleteClient,
  previewClientPurge,
  restoreClient,
} from '../../../../../services/manage-clients';
import { readClientLimits } from '../../../../../services/read-client-limits';
import { askForSupportAccess } from '../../../../../services/support-access';
import { baseDataOf } from '../../core/company/base-data';
import { presentCompany } from '../../core/company/present';
import { presentCurrentUser } from '../../core/user/present';
import { presentClient, presentImpersonation } from './present';

const clientsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/',
    {
      preHandler: requireSuperAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'listClients',
        summary: 'All clients with user and device counts (super admin)',
        response: responses(Type.Array(ClientPayload), [401]),
      },
    },
    async () => ({ payload: (await listClients(db)).map(presentClient) }),
  );

  app.get(
    '/deleted',
    {
      preHandler: requireSuperAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'listDeletedClients',
        summary: 'Deleted clients waiting for their purge, with its date (super admin)',
        response: responses(Type.Array(DeletedClientPayload), [401]),
      },
    },
    async () => {
      const days = app.deps.config.CLIENT_PURGE_DAYS;
      return {
        payload: (await listDeletedCompanies(db)).map((c) => ({
          id: c.id,
          name: c.name,
          deleted_at: c.deletedAt.toISOString(),
          purge_at: new Date(c.deletedAt.getTime() + days * 86_400_000).toISOString(),
        })),
      };
    },
  );

  app.get(
    '/:id',
    {
      preHandler: requireSuperAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'getClient',
        summary: "The client's base data, modules and state, for editing them (super admin)",
        params: IdParams,
        response: responses(CompanyPayload, [401, 4]),
      },
    },
    async (request) => {
      const company = await findCompany(db, request.params.id);
      if (!company) throw apiError('COMPANY_NOT_FOUND');
      return { payload: presentCompany(company) };
    },
  );

  app.get(
    '/:id/purge-preview',
    {
      preHandler: requireSuperAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'previewClientPurge',
        summary: 'What purging the client removes and when; shown before a delete is confirmed (super admin)',
        params: IdParams,
        response: responses(ClientPurgePreviewPayload, [401, 4, 400]),
      },
    },
    async (request) => {
      const days = app.deps.config.CLIENT_PURGE_DAYS;
      const { counts, purgeAt } = await previewClientPurge(db, request.params.id, days);
      return {
        payload: {
          purge_after_days: days,
          purge_at: purgeAt ? purgeAt.toISOString() : null,
          users: counts.users,
          devices: counts.devices,
          data_points: counts.dataPoints,
          rules: counts.rules,
          alarms: counts.alarms,
          dashboards: counts.dashboards,
          groups: counts.groups,
          api_keys: counts.apiKeys,
        },
      };
    },
  );

  app.post(
    '/:id/restore',
    {
      preHandler: requireSuperAdminManager,
      schema: {
        tags: ['admin'],
        operationId: 'restoreClient',
        summary: 'Take back the delete of a client before its purge (super admin)',
        params: IdParams,
        response: responses(CompanyPayload, [401, 4, 400, 72, 90047, 77]),
      },
    },
    async (request) => {
      const company = await restoreClient(db, authOf(request), request.params.id);
      app.deps.onCompanyChanged(request.params.id);
      return { payload: presentCompany(company) };
    },
  );

  app.post(
    '/:id/support-access-request',
    {
      preHandler: requireSuperAdminManager,
      schema: {
        tags: ['admin'],
        operationId: 'requestSupportAccess',
        summary: 'Ask a client that requires consent for access; its main users get a message (super admin)',
        params: IdParams,
        response: responses(Type.Object({ id: Type.Integer() }), [401, 4, 72, 77]),
      },
    },
    async (request) => {
      await askForSupportAccess(db, authOf(request), request.params.id);
      return { payload: { id: request.params.id } };
    },
  );

  app.put(
    '/:id',
    {
      preHandler: requireSuperAdminManager,
      schema: {
        tags: ['admin'],
        operationId: 'updateClient',
        summary:
          'Block or unblock a client, set its modules, edit its base data, logo and limits (super admin)',
        params: IdParams,
        body: UpdateClientBody,
        response: responses(CompanyPayload, [401, 4, 400, 422, 109, 50109, 90037, 77, 90090, 90091]),
      },
    },
    async (request) => {
      const { blocked, modules, is_nwa, limits, ...rest } = request.body;
      const company = await changeClient(
        db,
        authOf(request),
        request.params.id,
        {
          ...(blocked === undefined ? {} : { blocked }),
          ...(modules === undefined ? {} : { modules }),
          ...(is_nwa === undefined ? {} : { isNwa: is_nwa }),
        },
        baseDataOf(rest),
        limits ?? {},
      );
      app.deps.onCompanyChanged(request.params.id);
      return { payload: presentCompany(company) };
    },
  );

  app.post(
    '/',
    {
      preHandler: requireSuperAdminManager,
      schema: {
        tags: ['admin'],
        operationId: 'createClient',
        summary:
          'Create a client with its base data and first main user, who is invited by mail (super admin)',
        body: CreateClientBody,
        response: responses(CompanyPayload, [72, 73, 109, 422, 50109, 90037, 77]),
      },
    },
    async (request) => {
      const { modules, is_nwa, main_user, ...rest } = request.body;
      const { company } = await createClient(app.deps, authOf(request), {
        baseData: { ...baseDataOf(rest), name: rest.name },
        modules: modules ?? [],
        isNwa: is_nwa ?? false,
        mainUser: { email: main_user.email, name: main_user.name, locale: main_user.locale ?? 'de' },
      });
      return { payload: presentCompany(company) };
    },
  );

  app.get(
    '/:id/limits',
    {
      preHandler: requireSuperAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'getClientLimits',
        summary: "The client's limits with its current use (super admin)",
        params: IdParams,
        response: responses(ClientLimitsPayload, [401]),
      },
    },
    async (request) => ({ payload: await readClientLimits(db, request.params.id) }),
  );

  app.get(
    '/:id/impersonations',
    {
      preHandler: requireSuperAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'listClientImpersonations',
        summary: 'Who acted as the client, when and from where, newest first (super admin)',
        params: IdParams,
        response: responses(Type.Array(ImpersonationRecordPayload), [401]),
      },
    },
    async (request) => ({
      payload: (await listCompanyImpersonations(db, request.params.id)).map(presentImpersonation),
    }),
  );

  app.delete(
    '/:id',
    {
      preHandler: requireSuperAdminManager,
      schema: {
        tags: ['admin'],
        operationId: 'deleteClient',
        summary: 'Soft-delete a client; its sessions stop working (super admin)',
        params: IdParams,
        response: responses(Type.Object({ id: Type.Integer() }), [401, 4, 422, 77]),
      },
    },
    async (request) => {
      await deleteClient(db, authOf(request), request.params.id);
      app.deps.onCompanyChanged(request.params.id);
      return { payload: { id: request.params.id } };
    },
  );

  app.get(
    '/:id/impersonate',
    {
      // A state-changing GET fixed by the spec: it needs the CSRF header like a POST.
      config: { csrf: true },
      preHandler: requireSuperAdminManager,
      schema: {
        tags: ['admin'],
        operationId: 'impersonateClient',
        summary: 'Act as the client from now on; answers the user acting for it (super admin)',
        params: IdParams,
        response: responses(CurrentUserPayload, [401, 4, 72, 422, 90045]),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const company = await startImpersonation(db, auth, request.params.id, request.ip);
      return {
        payload: presentCurrentUser({
          user: auth.user,
          company,
          realCompanyId: auth.realCompanyId,
          impersonated: true,
        }),
      };
    },
  );
};

export default clientsRoutes;
