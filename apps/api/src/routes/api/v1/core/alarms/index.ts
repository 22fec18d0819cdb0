/**
 * The alarm page, registered under /core/devices (static segments win over /core/devices/{id} in the
 * router, so `alarms` is never read as a device id): GET /alarms, PUT /alarms/{id}/acknowledge.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, Nullable, responses } from '../../../../../lib/schemas';
import { authOf } from '../../../../../plugins/guards';
import {
  acknowledgeCompanyAlarm,
  listCompanyAlarms,
  presentAlarm,
} from '../../../../../services/alarms-and-messages';

const AlarmPayload = Type.Object({
  id: Type.Integer(),
  device_id: Type.Integer(),
  device_name: Type.String(),
  rule_id: Nullable(Type.Integer()),
  rule_name: Nullable(Type.String()),
  sensor_check_id: Nullable(Type.Integer()),
  sensor_check_kind: Nullable(Type.String()),
  state: Type.String({ description: 'raised | acknowledged | cleared' }),
  level: Type.Integer({ description: 'syslog severity, 4 warning' }),
  data_field: Nullable(Type.String()),
  value: Nullable(Type.Number()),
  message: Nullable(Type.String()),
  details: Type.Record(Type.String(), Type.Unknown()),
  raised_at: Type.String({ format: 'date-time' }),
  acknowledged_at: Nullable(Type.String({ format: 'date-time' })),
  acknowledged_by: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  cleared_at: Nullable(Type.String({ format: 'date-time' })),
});

const AlarmQuery = Type.Object({
  state: Type.Optional(
    Type.Union(
      ['open', 'raised', 'acknowledged', 'cleared'].map((s) => Type.Literal(s)),
      {
        description: 'absent: open alarms and those cleared within the last 24 hours',
      },
    ),
  ),
  device_id: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
});

const alarmsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/alarms',
    {
      schema: {
        tags: ['alarms'],
        summary: "The company's open and recently cleared alarms, newest first",
        querystring: AlarmQuery,
        response: responses(Type.Array(AlarmPayload)),
      },
    },
    async (request) => {
      const query = request.query as {
        state?: 'open' | 'raised' | 'acknowledged' | 'cleared';
        device_id?: number;
        limit?: number;
      };
      const alarms = await listCompanyAlarms(db, authOf(request), query);
      return { payload: alarms.map(presentAlarm) };
    },
  );

  app.put(
    '/alarms/:id/acknowledge',
    {
      schema: {
        tags: ['alarms'],
        summary: 'Acknowledge an alarm; records who and when (any user of the company; 404)',
        params: IdParams,
        response: responses(AlarmPayload),
      },
    },
    async (request) => ({
      payload: presentAlarm(await acknowledgeCompanyAlarm(db, authOf(request), request.params.id)),
    }),
  );
};

export default alarmsRoutes;
