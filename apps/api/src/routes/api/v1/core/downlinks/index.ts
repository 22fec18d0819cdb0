/** Downlinks, registered under /core/devices: POST /{id}/downlink, GET /{id}/downlinks (codes 92-95). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DownlinkBody,
  DownlinkPayload,
  DownlinksQuery,
  IdParams,
  responses,
  SentPayload,
} from '@iot/contracts';
import { Type } from 'typebox';
import { authOf } from '../../../../../plugins/guards';
import {
  listDeviceDownlinks,
  presentDownlink,
  sendDeviceDownlink,
} from '../../../../../services/device-downlinks';

const downlinksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, publishDownlink, config } = app.deps;

  app.post(
    '/:id/downlink',
    {
      schema: {
        tags: ['downlinks'],
        operationId: 'sendDownlink',
        summary: 'Send a command to the device (ROLE_ADMIN, ROLE_MAINUSER; 90003, 10, 92, 93, 94, 95)',
        params: IdParams,
        body: DownlinkBody,
        response: responses(SentPayload, [90003, 10, 92, 93, 94, 95, 422, 77]),
      },
    },
    async (request) => {
      // A broker that cannot be reached is the send failure (95, row failed), not an internal error.
      const publish = await publishDownlink().catch(() => undefined);
      return {
        payload: await sendDeviceDownlink(
          db,
          authOf(request),
          request.params.id,
          request.body,
          publish,
          config.HTTP_ACTIONS_ALLOW_PRIVATE,
        ),
      };
    },
  );

  app.get(
    '/:id/downlinks',
    {
      schema: {
        tags: ['downlinks'],
        operationId: 'listDownlinks',
        summary: 'Downlink history with states, newest first (10)',
        params: IdParams,
        querystring: DownlinksQuery,
        response: responses(Type.Array(DownlinkPayload), [10, 422]),
      },
    },
    async (request) => {
      const list = await listDeviceDownlinks(
        db,
        authOf(request),
        request.params.id,
        request.query.limit ?? 100,
      );
      return { payload: list.map(presentDownlink) };
    },
  );
};

export default downlinksRoutes;
