/**
 * /core/outbox: the acting company's mail, SMS and calls as the platform kept them (no provider
 * configured) or handed them over, for the console's outbox page. Managers only (90009).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { OutboxPayload, responses } from '@iot/contracts';
import { Type } from 'typebox';
import { apiError } from '../../../../../lib/errors';
import { authOf, isManager } from '../../../../../plugins/guards';
import { listOutbox, OUTBOX_DEFAULT_LIMIT } from '../../../../../services/list-outbox';

const outboxRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['outbox'],
        operationId: 'listOutbox',
        summary: 'Mail, SMS and calls of the company, newest first (ROLE_ADMIN, ROLE_MAINUSER; 90009)',
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: OUTBOX_DEFAULT_LIMIT })),
        }),
        response: responses(OutboxPayload, [90009, 422]),
      },
    },
    async (request) => {
      const auth = authOf(request);
      // Mail and SMS texts may carry customer data: the managers of the company read them, like the users.
      if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_VIEW_OUTBOX');
      return { payload: await listOutbox(db, auth, request.query.limit) };
    },
  );
};

export default outboxRoutes;
