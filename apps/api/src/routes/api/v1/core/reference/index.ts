/** /api/v1/core/countries, states and districts for company addresses, sorted by name. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CountryPayload, IdParams, NamedRefPayload, responses } from '@iot/contracts';
import { listCountries, listDistricts, listStates } from '@iot/db';
import { Type } from 'typebox';
import { apiError } from '../../../../../lib/errors';

const referenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/countries',
    {
      schema: {
        tags: ['reference'],
        operationId: 'listCountries',
        summary: 'Countries sorted by name',
        response: responses(Type.Array(CountryPayload)),
      },
    },
    async () => ({ payload: await listCountries(db) }),
  );

  app.get(
    '/countries/:id/states',
    {
      schema: {
        tags: ['reference'],
        operationId: 'listStates',
        summary: "A country's states sorted by name",
        params: IdParams,
        response: responses(Type.Array(NamedRefPayload), [422]),
      },
    },
    async (request) => {
      const states = await listStates(db, request.params.id);
      if (!states) throw apiError('DATA_NOT_FOUND');
      return { payload: states };
    },
  );

  app.get(
    '/states/:id/districts',
    {
      schema: {
        tags: ['reference'],
        operationId: 'listDistricts',
        summary: "A state's districts sorted by name",
        params: IdParams,
        response: responses(Type.Array(NamedRefPayload), [422]),
      },
    },
    async (request) => {
      const districts = await listDistricts(db, request.params.id);
      if (!districts) throw apiError('DATA_NOT_FOUND');
      return { payload: districts };
    },
  );
};

export default referenceRoutes;
