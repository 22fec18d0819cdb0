/** /api/v1/core/company/limits: the acting company's limits with its current use (issue #27). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ClientLimitsPayload, responses } from '@iot/contracts';
import { withTenant } from '@iot/db';
import { authOf } from '../../../../../plugins/guards';
import { readClientLimits } from '../../../../../services/read-client-limits';

const companyLimitsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['company'],
        operationId: 'getCompanyLimits',
        summary:
          "The company's limits (devices, users, dashboards, rules per device, uplinks per minute) and use",
        response: responses(ClientLimitsPayload),
      },
    },
    async (request) => {
      const { companyId } = authOf(request);
      return { payload: await withTenant(db, companyId, (tx) => readClientLimits(tx, companyId)) };
    },
  );
};

export default companyLimitsRoutes;
