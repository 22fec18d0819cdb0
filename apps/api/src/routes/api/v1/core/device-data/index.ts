/**
 * /api/v1/core/data: a device's data points and latest values (spec section 7). The folder is not named
 * `data` because the repository's .gitignore ignores every `data/` directory (runtime data dirs).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CurrentPayload,
  CurrentQuery,
  IdParams,
  responses,
  SeriesPayload,
  SeriesQuery,
} from '@iot/contracts';
import { nestDataFields } from '@iot/domain';
import { authOf } from '../../../../../plugins/guards';
import { parsePeriod } from '../../../../../services/device-period';
import { readDeviceCurrentValues } from '../../../../../services/read-current-values';
import { type DeviceSeries, readDeviceSeries } from '../../../../../services/read-device-data';
import { parseDataFields } from './fields-param';

const dataRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/:id',
    {
      schema: {
        tags: ['data'],
        operationId: 'getDeviceData',
        summary:
          'Data points of a period; more rows than max_points come back as buckets with avg, min, max (10, 10001, 10002)',
        params: IdParams,
        querystring: SeriesQuery,
        response: responses(SeriesPayload, [10, 10001, 10002, 422]),
      },
      // Charts refresh on a timer: identical reads in flight share one answer.
      config: { coalesce: true },
    },
    async (request, reply) => {
      const { query } = request;
      const fields = parseDataFields(query.data_fields);
      const range = parsePeriod(query);
      const payload = await readDeviceSeries(db, authOf(request), request.params.id, {
        fields,
        range,
        lastRecord: query.last_record === true,
        periodGiven: query.tsstart !== undefined || query.tsend !== undefined,
        closedBuckets: app.deps.closedBuckets,
        ...(query.max_points === undefined ? {} : { maxPoints: query.max_points }),
      });
      // Stored flat, answered as the codec shaped it unless the caller charts the stored names (console).
      // A bucket's min and max stay by stored field name, as the chart bands read them.
      if (query.shape !== 'flat') for (const point of payload.points) point.data = nestDataFields(point.data);
      // A year's chart is 1,460 points of open {field: value} records, which the response schema's
      // serialiser took about twice as long to write as the query took to answer; JSON.stringify does it in
      // a few ms. readDeviceSeries builds the payload with the documented keys only. Fastify sends a string
      // with a JSON content type as it is; the type names what the text holds.
      const body = JSON.stringify({ payload }) as unknown as { payload: DeviceSeries };
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  app.get(
    '/:id/current',
    {
      schema: {
        tags: ['data'],
        operationId: 'getDeviceCurrentValues',
        summary: 'Latest value per field with its time and a stale flag (10)',
        params: IdParams,
        querystring: CurrentQuery,
        response: responses(CurrentPayload, [10, 422]),
      },
    },
    async (request) => {
      const fields = parseDataFields(request.query.data_fields);
      const payload = await readDeviceCurrentValues(db, authOf(request), request.params.id, fields);
      if (request.query.shape !== 'flat') payload.data = nestDataFields(payload.data);
      return { payload };
    },
  );
};

export default dataRoutes;
