/** /api/v1/core/user (the signed-in user), EULA acceptance and leaving impersonation. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AcceptEulaBody, CurrentUserPayload, responses } from '@iot/contracts';
import { updateUser, withTenant } from '@iot/db';
import { Type } from 'typebox';
import { apiError } from '../../../../../lib/errors';
import { authOf } from '../../../../../plugins/guards';
import { leaveImpersonation } from '../../../../../services/impersonation';
import { presentCurrentUser } from './present';

const currentUserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/user',
    {
      schema: {
        tags: ['user'],
        operationId: 'getCurrentUser',
        summary: 'The signed-in user with the acting company',
        response: responses(CurrentUserPayload),
      },
    },
    async (request) => {
      const auth = authOf(request);
      return { payload: presentCurrentUser(auth) };
    },
  );

  app.put(
    '/users/acceptEula',
    {
      schema: {
        tags: ['user'],
        operationId: 'acceptEula',
        summary: 'Accept the terms of use (EULA) for the signed-in user',
        body: Type.Optional(AcceptEulaBody),
        response: responses(Type.Boolean(), [62, 422, 77]),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const body = request.body;
      const accepted = typeof body === 'boolean' ? body : (body?.accepted ?? body?.eula_accepted ?? true);
      if (!accepted) throw apiError('INPUT_ERROR', { field: 'accepted', key: 'error.accepted' });
      // The EULA is the user's own: accepted in their own company even while impersonating.
      const updated = await withTenant(db, auth.realCompanyId, (tx) =>
        updateUser(tx, auth.realCompanyId, auth.user.id, { eulaAccepted: true }),
      );
      if (!updated) throw apiError('USER_NOT_FOUND');
      return { payload: true };
    },
  );

  app.get(
    '/leave_impersonation',
    {
      config: { csrf: true },
      schema: {
        tags: ['admin'],
        operationId: 'leaveImpersonation',
        summary: 'Stop acting as a client; answers the user acting for their own company again',
        response: responses(CurrentUserPayload),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const company = await leaveImpersonation(db, auth, request.ip);
      return {
        payload: presentCurrentUser({
          user: auth.user,
          company,
          realCompanyId: auth.realCompanyId,
          impersonated: false,
        }),
      };
    },
  );
};

export default currentUserRoutes;
