/**
 * The alarm page, registered under /core/devices (static segments win over /core/devices/{id} in the
 * router, so `alarms` is never read as a device id): GET /alarms, PUT /alarms/{id}/acknowledge.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AlarmPayload, AlarmQuery, IdParams, responses } from '@iot/contracts';
import { userLanguage } from '@iot/domain';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { sendKeptAnswer } from '../../../../../lib/answer-cache';
import { authOf } from '../../../../../plugins/guards';
import {
  acknowledgeCompanyAlarm,
  listCompanyAlarms,
  presentAlarm,
} from '../../../../../services/alarms-and-messages';

const alarmsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, alarmCache } = app.deps;

  app.get(
    '/alarms',
    {
      schema: {
        tags: ['alarms'],
        operationId: 'listAlarms',
        summary: "The company's open and recently cleared alarms, newest first",
        querystring: AlarmQuery,
        response: responses(Type.Array(AlarmPayload), [422]),
      },
      // The console's alarm poll: identical reads in flight share one answer.
      config: { coalesce: true },
    },
    async (request, reply) => {
      const query = request.query as {
        state?: 'open' | 'raised' | 'acknowledged' | 'cleared';
        device_id?: number;
        limit?: number;
      };
      const auth = authOf(request);
      const language = userLanguage(auth.user.locale);
      // Any user of the acting company reads the same alarms; only the language words them.
      // (The typed reply accepts only the schema's objects; the kept text is that object, already written.)
      return sendKeptAnswer(
        alarmCache,
        { company: auth.companyId, variant: `${language} ${request.url}` },
        request,
        reply as unknown as FastifyReply,
        async () => {
          const alarms = await listCompanyAlarms(db, auth, query);
          // Through the route's own serialiser, so the text is what the schema would have sent.
          return String(reply.serialize({ payload: alarms.map((a) => presentAlarm(a, language)) }));
        },
      );
    },
  );

  app.put(
    '/alarms/:id/acknowledge',
    {
      schema: {
        tags: ['alarms'],
        operationId: 'acknowledgeAlarm',
        summary: 'Acknowledge an alarm; records who and when (any user of the company; 404)',
        params: IdParams,
        response: responses(AlarmPayload, [404, 422, 77]),
      },
    },
    async (request) => ({
      payload: presentAlarm(
        await acknowledgeCompanyAlarm(db, authOf(request), request.params.id),
        userLanguage(authOf(request).user.locale),
      ),
    }),
  );
};

export default alarmsRoutes;
