import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CurrentUserPayload, responses } from '@iot/contracts';
import { authOf } from '../../../../plugins/guards';
import { presentCurrentUser } from '../core/user/present';

/**
 * GET /api/v1/auth/me: the console's start-up current-user call is named auth/me (spec section 7); it
 * answers exactly what GET /core/user answers.
 */
const meRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/me',
    {
      schema: {
        tags: ['auth'],
        operationId: 'getAuthenticatedUser',
        summary: 'The signed-in user (same as GET /core/user)',
        response: responses(CurrentUserPayload),
      },
    },
    async (request) => ({ payload: presentCurrentUser(authOf(request)) }),
  );
};

export default meRoute;
