import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { responses } from '@iot/contracts';
import { Type } from 'typebox';
import { issueCsrfCookie } from '../plugins/session';

/**
 * GET /sanctum/csrf-cookie (at the root and under /api/v1): sets the readable XSRF-TOKEN cookie the
 * console echoes as X-XSRF-TOKEN on every mutating call.
 */
const csrfRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/sanctum/csrf-cookie',
    {
      schema: {
        tags: ['auth'],
        operationId: app.prefix ? 'issueCsrfCookie' : 'issueRootCsrfCookie',
        security: [],
        summary: 'Issue the XSRF-TOKEN cookie',
        response: responses(Type.Null(), [], { public: true }),
      },
    },
    async (request, reply) => {
      issueCsrfCookie(request, reply);
      return { payload: null };
    },
  );
};

export default csrfRoutes;
