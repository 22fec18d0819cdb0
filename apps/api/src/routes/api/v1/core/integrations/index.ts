/**
 * /api/v1/core/integrations/tokens: the company's webhook tokens for ChirpStack v4, The Things Stack v3
 * and http scripts (ROLE_ADMIN and ROLE_MAINUSER only, else 90007). The token is shown once, at creation.
 * /api/v1/core/integrations/network-server: the LoRaWAN network server that LoRaWAN devices get their
 * downlinks through (same roles); its API token is write-only.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreatedTokenPayload,
  CreateTokenBody,
  IdParams,
  NetworkServerBody,
  NetworkServerPayload,
  Nullable,
  responses,
  TokenPayload,
} from '@iot/contracts';
import { Type } from 'typebox';
import { authOf } from '../../../../../plugins/guards';
import {
  createIntegrationToken,
  listCompanyIntegrationTokens,
  revokeCompanyIntegrationToken,
} from '../../../../../services/manage-integration-tokens';
import {
  presentNetworkServer,
  readCompanyNetworkServer,
  removeCompanyNetworkServer,
  setCompanyNetworkServer,
} from '../../../../../services/manage-network-server';
import { presentToken } from './present';

const integrationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/tokens',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'listIntegrationTokens',
        summary: "The company's webhook tokens, revoked ones marked (90007)",
        response: responses(Type.Array(TokenPayload), [90007]),
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
        operationId: 'createIntegrationToken',
        summary: 'Create a webhook token; the answer holds the token once (90007, 422)',
        body: CreateTokenBody,
        response: responses(CreatedTokenPayload, [90007, 422, 77]),
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
        operationId: 'revokeIntegrationToken',
        summary: 'Revoke a webhook token (90007, 404)',
        params: IdParams,
        response: responses(Type.Object({ id: Type.Integer() }), [90007, 404, 422, 77]),
      },
    },
    async (request) => {
      await revokeCompanyIntegrationToken(db, authOf(request), request.params.id);
      return { payload: { id: request.params.id } };
    },
  );

  app.get(
    '/network-server',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'getNetworkServer',
        summary: 'The LoRaWAN network server for downlinks, without its token; null when none is set (90007)',
        response: responses(Nullable(NetworkServerPayload), [90007]),
      },
    },
    async (request) => {
      const record = await readCompanyNetworkServer(db, authOf(request));
      return { payload: record ? presentNetworkServer(record) : null };
    },
  );

  app.put(
    '/network-server',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'setNetworkServer',
        summary:
          'Set the LoRaWAN network server for downlinks; without api_token the stored token stays (90007, 422)',
        body: NetworkServerBody,
        response: responses(NetworkServerPayload, [90007, 422, 77]),
      },
    },
    async (request) => {
      const record = await setCompanyNetworkServer(
        db,
        authOf(request),
        request.body,
        app.deps.config.HTTP_ACTIONS_ALLOW_PRIVATE,
      );
      return { payload: presentNetworkServer(record) };
    },
  );

  app.delete(
    '/network-server',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'deleteNetworkServer',
        summary:
          'Remove the network server: LoRaWAN devices take no downlinks until one is set again (90007, 404)',
        response: responses(Type.Null(), [90007, 404, 77]),
      },
    },
    async (request) => {
      await removeCompanyNetworkServer(db, authOf(request));
      return { payload: null };
    },
  );
};

export default integrationsRoutes;
