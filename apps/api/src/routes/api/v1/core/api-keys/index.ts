/**
 * /api/v1/core/company/api-keys: keys of the licensed external API (issue #27), for main users and admins
 * (90035) of a company with the module (27). The key is shown once, in the creation answer. These routes
 * refuse API keys themselves (90030): a key cannot mint or revoke keys.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiKeyPayload, CreateApiKeyBody, CreatedApiKeyPayload, IdParams, responses } from '@iot/contracts';
import { Type } from 'typebox';
import { authOf } from '../../../../../plugins/guards';
import {
  createApiKey,
  listCompanyApiKeys,
  revokeCompanyApiKey,
} from '../../../../../services/manage-api-keys';
import { presentApiKey } from './present';

const apiKeysRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['company'],
        operationId: 'listApiKeys',
        summary: "The company's API keys with last use and request count, revoked ones marked (27, 90035)",
        response: responses(Type.Array(ApiKeyPayload), [27, 90035, 90030]),
      },
    },
    async (request) => ({ payload: (await listCompanyApiKeys(db, authOf(request))).map(presentApiKey) }),
  );

  app.post(
    '/',
    {
      schema: {
        tags: ['company'],
        operationId: 'createApiKey',
        summary: 'Create an API key; the answer holds the key once as payload.key (27, 90035, 90036, 422)',
        body: CreateApiKeyBody,
        response: responses(CreatedApiKeyPayload, [27, 90035, 90036, 90030, 422, 77]),
      },
    },
    async (request) => {
      const { name, scopes, expires_at } = request.body;
      const { key, record } = await createApiKey(db, authOf(request), {
        name,
        scopes,
        expiresAt: expires_at ? new Date(expires_at) : null,
      });
      return { payload: { ...presentApiKey(record), key } };
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['company'],
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key; it stops working at once (27, 90035, 90034)',
        params: IdParams,
        response: responses(Type.Object({ id: Type.Integer() }), [27, 90035, 90034, 90030, 422, 77]),
      },
    },
    async (request) => {
      await revokeCompanyApiKey(db, authOf(request), request.params.id);
      return { payload: { id: request.params.id } };
    },
  );
};

export default apiKeysRoutes;
