/**
 * POST /api/v1/core/devices/import: devices from a CSV file sent as text/csv (issue 23; see
 * services/import-devices.ts). `?dry_run=true` answers the preview only. The static segment wins over
 * /core/devices/:id in the router.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DeviceImportPayload, DeviceImportQuery, responses } from '@iot/contracts';
import { Type } from 'typebox';
import { authOf } from '../../../../../plugins/guards';
import { importDevices } from '../../../../../services/import-devices';

// 10,000 rows of a few hundred characters each.
const CSV_BODY_LIMIT = 8 * 1024 * 1024;

const deviceImportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  // Scoped to this plugin: elsewhere text/csv stays an unsupported content type (50109).
  app.addContentTypeParser(
    'text/csv',
    { parseAs: 'string', bodyLimit: CSV_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/import',
    {
      bodyLimit: CSV_BODY_LIMIT,
      schema: {
        tags: ['devices'],
        operationId: 'importDevices',
        summary:
          'Import devices from CSV; dry_run=true previews new, updated and invalid rows (90001, 50107)',
        querystring: DeviceImportQuery,
        body: Type.String({ description: 'the CSV file (text/csv)' }),
        response: responses(DeviceImportPayload, [90001, 50107, 50109, 77]),
      },
    },
    async (request) => {
      const answer = await importDevices(db, authOf(request), request.body, request.query.dry_run ?? false);
      if (!answer.dry_run)
        for (const row of answer.rows) if (row.device_id !== null) app.deps.onDeviceChanged(row.device_id);
      return { payload: answer };
    },
  );
};

export default deviceImportRoutes;
