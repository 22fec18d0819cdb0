/**
 * /api/v1/core/company/impersonations: when the platform's support acted as this company, who and from
 * where (issue #27), for its main users and admins (90038). While a super admin acts as the company it
 * sees the same list.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ImpersonationRecordPayload, responses } from '@iot/contracts';
import { Type } from 'typebox';
import { apiError } from '../../../../../lib/errors';
import { authOf, isManager } from '../../../../../plugins/guards';
import { listCompanyImpersonations } from '../../../../../services/impersonation';
import { presentImpersonation } from '../../admin/clients/present';

const impersonationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['company'],
        operationId: 'listCompanyImpersonations',
        summary: 'When support acted as this company: who, when, from where (main users and admins; 90038)',
        response: responses(Type.Array(ImpersonationRecordPayload), [90038]),
      },
    },
    async (request) => {
      const auth = authOf(request);
      if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_VIEW_IMPERSONATIONS');
      return { payload: (await listCompanyImpersonations(db, auth.companyId)).map(presentImpersonation) };
    },
  );
};

export default impersonationsRoutes;
