/** /api/v1/admin/clients: the super admin's client management and impersonation (spec sections 1, 6). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ClientPayload,
  CompanyPayload,
  CurrentUserPayload,
  IdParams,
  responses,
  UpdateClientBody,
} from '@iot/contracts';
import { listClients } from '@iot/db';
import { Type } from 'typebox';
import { authOf, requireSuperAdmin, requireSuperAdminManager } from '../../../../../plugins/guards';
import { startImpersonation } from '../../../../../services/impersonation';
import { changeClient, deleteClient } from '../../../../../services/manage-clients';
import { presentCompany } from '../../core/company/present';
import { presentCurrentUser } from '../../core/user/present';
import { presentClient } from './present';

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

  app.put(
    '/:id',
    {
      preHandler: requireSuperAdminManager,
      schema: {
        tags: ['admin'],
        operationId: 'updateClient',
        summary: 'Block or unblock a client, set its modules (super admin)',
        params: IdParams,
        body: UpdateClientBody,
        response: responses(CompanyPayload, [401, 4, 400, 422, 77]),
      },
    },
    async (request) => {
      const { blocked, modules, is_nwa } = request.body;
      const company = await changeClient(db, authOf(request), request.params.id, {
        ...(blocked === undefined ? {} : { blocked }),
        ...(modules === undefined ? {} : { modules }),
        ...(is_nwa === undefined ? {} : { isNwa: is_nwa }),
      });
      return { payload: presentCompany(company) };
    },
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
        response: responses(CurrentUserPayload, [401, 4, 72, 422]),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const company = await startImpersonation(db, auth, request.params.id);
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
