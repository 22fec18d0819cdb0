import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** OpenAPI from the route schemas: JSON at /api/v1/docs/json, swagger-ui at /api/v1/docs. */
async function docsPlugin(app: FastifyInstance, options: { version: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'IoT platform API',
        description:
          'Cookie session with CSRF: GET /sanctum/csrf-cookie, then send the XSRF-TOKEN cookie as the X-XSRF-TOKEN header on every POST, PUT, PATCH and DELETE. Success: { payload }; failure: { code, message } with the HTTP status of the error catalogue. Routes marked with an empty security list need no session.',
        version: options.version,
        // Not published under an open licence; redocly's info-license rule asks for the field.
        license: { name: 'Proprietary' },
      },
      // Paths carry the full /api/v1 prefix: the server is wherever the API answers.
      servers: [{ url: '/', description: 'this API' }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'iot_session' },
          csrf: { type: 'apiKey', in: 'header', name: 'X-XSRF-TOKEN' },
          // External API keys (licensed module "external API"): routes that take one list these as an
          // alternative to the session and name the key scope they need in x-api-key-scopes.
          apiKeyBearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'An external API key as `Authorization: Bearer <key>`; no cookie or CSRF token.',
          },
          apiKeyHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: 'An external API key as the X-API-Key header; no cookie or CSRF token.',
          },
        },
      },
      security: [{ session: [], csrf: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/v1/docs' });
}

export default fp(docsPlugin, { name: 'iot-docs' });
