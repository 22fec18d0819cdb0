/** /api/v1/core/company/: the acting company's base data (spec section 3). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CompanyPayload, responses, UpdateCompanyBody } from '@iot/contracts';
import type { CompanyBaseData } from '@iot/db';
import { authOf } from '../../../../../plugins/guards';
import { updateCompany } from '../../../../../services/update-company';
import { presentCompany } from './present';

const COLUMN_OF: Record<string, keyof CompanyBaseData> = {
  name: 'name',
  name2: 'name2',
  street: 'street',
  street_number: 'streetNumber',
  zip: 'zip',
  city: 'city',
  district_id: 'districtId',
  state_id: 'stateId',
  country_id: 'countryId',
  phone: 'phone',
  email: 'email',
  customer_number: 'customerNumber',
  logo: 'logo',
  latitude: 'latitude',
  longitude: 'longitude',
};

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
        summary: 'Update the base data (ROLE_MAINUSER or ROLE_ADMIN; 90008, 422, 109)',
        body: UpdateCompanyBody,
        response: responses(CompanyPayload, [90008, 422, 109, 77]),
      },
    },
    async (request) => {
      const data: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(request.body)) {
        const column = COLUMN_OF[key];
        if (column && value !== undefined) data[column] = value;
      }
      const company = await updateCompany(db, authOf(request), data as CompanyBaseData);
      return { payload: presentCompany(company) };
    },
  );
};

export default companyRoutes;
