import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { responses, VersionPayload } from '@iot/contracts';

/**
 * GET /api/v1/core/version: public, the login page shows its first 8 characters. It also tells the console
 * the map style (MAP_STYLE_URL; null = the console draws devices on a plain background).
 */
const versionRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/version',
    {
      config: { public: true },
      schema: {
        tags: ['platform'],
        operationId: 'getVersion',
        security: [],
        summary: 'Backend version (no session needed)',
        response: responses(VersionPayload, [], { public: true }),
      },
    },
    async () => ({
      payload: { version: app.deps.version, api: 'v1', map_style_url: app.deps.config.MAP_STYLE_URL ?? null },
    }),
  );
};

export default versionRoute;
