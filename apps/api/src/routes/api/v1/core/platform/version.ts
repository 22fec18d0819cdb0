import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../../../../lib/schemas';

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
        summary: 'Backend version (no session needed)',
        response: responses(
          Type.Object({
            version: Type.String(),
            api: Type.String(),
            map_style_url: Type.Union([Type.String(), Type.Null()]),
          }),
        ),
      },
    },
    async () => ({
      payload: { version: app.deps.version, api: 'v1', map_style_url: app.deps.config.MAP_STYLE_URL ?? null },
    }),
  );
};

export default versionRoute;
