/** /api/v1/core/company/: the acting company's base data (spec section 3). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CompanyPayload, responses, UpdateCompanyBody } from '@iot/contracts';
import { authOf } from '../../../../../plugins/guards';
import { updateCompany } from '../../../../../services/update-company';
import { baseDataOf } from './base-data';
import { presentCompany } from './present';

const companyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['company'],
        operationId: 'getCompany',
        summary: 'The acting company',
        response: responses(CompanyPayload),
      },
    },
    async (request) => ({ payload: presentCompany(authOf(request).company) }),
  );

  app.put(
    '/',
    {
      schema: {
        tags: ['company'],
        operationId: 'updateCompany',
        summary:
          'Update the base data and data retention (ROLE_MAINUSER or ROLE_ADMIN; 90008, 422, 109, 90090, 90091)',
        body: UpdateCompanyBody,
        response: responses(CompanyPayload, [90008, 422, 109, 77, 90090, 90091]),
      },
    },
    async (request) => {
      const company = await updateCompany(db, authOf(request), baseDataOf(request.body));
      return { payload: presentCompany(company) };
    },
  );
};

export default companyRoutes;
