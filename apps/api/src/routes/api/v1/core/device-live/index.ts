/**
 * Registered at /api/v1/core/devices next to the devices folder: GET /current (latest values of many
 * devices, the dashboard's table widget) and GET /positions (the map). Both are static paths, which
 * Fastify's router matches before the parametric /core/devices/:id, so `current` is never read as an id.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  MAX_IDS,
  ManyCurrentPayload,
  ManyCurrentQuery,
  PositionItem,
  PositionsQuery,
  responses,
} from '@iot/contracts';
import type { DevicePositionRecord } from '@iot/db';
import { Type } from 'typebox';
import { apiError } from '../../../../../lib/errors';
import { authOf, requireModule } from '../../../../../plugins/guards';
import {
  listCompanyDevicePositionsJson,
  readCurrentValuesOfMany,
} from '../../../../../services/read-dashboard-values';
import { parseDataFields } from '../device-data/fields-param';
import { parseIds } from './ids-param';

function idsOf(value: string): number[] {
  const ids = parseIds(value);
  if (ids.some((id) => id < 1 || !Number.isSafeInteger(id))) {
    throw apiError('INPUT_ERROR', { fields: { ids: { key: 'error.integer' } } });
  }
  if (ids.length > MAX_IDS) {
    throw apiError('INPUT_ERROR', { fields: { ids: { key: 'error.max', params: { max: MAX_IDS } } } });
  }
  return ids;
}

const deviceLiveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/current',
    {
      schema: {
        tags: ['devices'],
        operationId: 'listDevicesCurrentValues',
        summary:
          'Latest values of many devices in one call; ids of other companies are listed as missing (422)',
        querystring: ManyCurrentQuery,
        response: responses(ManyCurrentPayload, [422]),
      },
    },
    async (request) => {
      const { ids, data_fields } = request.query;
      const payload = await readCurrentValuesOfMany(
        db,
        authOf(request),
        idsOf(ids),
        parseDataFields(data_fields),
      );
      return { payload };
    },
  );

  app.get(
    '/positions',
    {
      // The map's data: the map view module's (issue #27).
      preHandler: requireModule('map_view'),
      schema: {
        tags: ['devices'],
        operationId: 'listDevicePositions',
        summary:
          'Compact positions of the company’s devices for the map (only devices with a position; map view module)',
        querystring: PositionsQuery,
        response: responses(Type.Array(PositionItem), [422, 27]),
      },
    },
    async (request, reply) => {
      const { ids, group_id, data_field } = request.query;
      const positions = await listCompanyDevicePositionsJson(db, authOf(request), {
        ...(ids === undefined ? {} : { deviceIds: idsOf(ids) }),
        ...(group_id === undefined ? {} : { groupId: group_id }),
        ...(data_field === undefined ? {} : { dataField: data_field }),
      });
      // The array is JSON text built in SQL from typed columns with the documented keys only. Fastify sends
      // a string with a JSON content type as it is, without a second parse and stringify; the type names
      // what the text holds.
      const body = `{"payload":${positions}}` as unknown as { payload: DevicePositionRecord[] };
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
};

export default deviceLiveRoutes;
