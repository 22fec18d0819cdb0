/**
 * /api/v1/core/integrations/tokens: the company's webhook tokens for ChirpStack v4, The Things Stack v3
 * and http scripts (ROLE_ADMIN and ROLE_MAINUSER only, else 64). The token is shown once, at creation.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, responses } from '../../../../../lib/schemas';
import { authOf } from '../../../../../plugins/guards';
import {
  createIntegrationToken,
  listCompanyIntegrationTokens,
  revokeCompanyIntegrationToken,
} from '../../../../../services/manage-integration-tokens';
import { CreatedTokenPayload, CreateTokenBody, presentToken, TokenPayload } from './schemas';

const integrationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/tokens',
    {
      schema: {
        tags: ['integrations'],
        summary: "The company's webhook tokens, revoked ones marked (64)",
        response: responses(Type.Array(TokenPayload)),
      },
    },
    async (request) => {
      const tokens = await listCompanyIntegrationTokens(db, authOf(request));
      return { payload: tokens.map(presentToken) };
    },
  );

  app.post(
    '/tokens',
    {
      schema: {
        tags: ['integrations'],
        summary: 'Create a webhook token; the answer holds the token once (64, 422)',
        body: CreateTokenBody,
        response: responses(CreatedTokenPayload),
      },
    },
    async (request) => {
      const { token, record } = await createIntegrationToken(db, authOf(request), request.body);
      return { payload: { ...presentToken(record), token } };
    },
  );

  app.delete(
    '/tokens/:id',
    {
      schema: {
        tags: ['integrations'],
        summary: 'Revoke a webhook token (64, 404)',
        params: IdParams,
        response: responses(Type.Object({ id: Type.Integer() })),
      },
    },
    async (request) => {
      await revokeCompanyIntegrationToken(db, authOf(request), request.params.id);
      return { payload: { id: request.params.id } };
    },
  );
};

export default integrationsRoutes;
