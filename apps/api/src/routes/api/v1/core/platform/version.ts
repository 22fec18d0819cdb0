import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../../../../lib/schemas';

/** GET /api/v1/core/version: public, the login page shows its first 8 characters. */
const versionRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/version',
    {
      config: { public: true },
      schema: {
        tags: ['platform'],
        summary: 'Backend version (no session needed)',
        response: responses(Type.Object({ version: Type.String(), api: Type.String() })),
      },
    },
    async () => ({ payload: { version: app.deps.version, api: 'v1' } }),
  );
};

export default versionRoute;
