/**
 * POST /api/v1/core/devices/import: devices from a CSV file sent as text/csv (issue 23; see
 * services/import-devices.ts). `?dry_run=true` answers the preview only. The static segment wins over
 * /core/devices/:id in the router.
 *
 * Progress (long imports): a caller that accepts `application/x-ndjson` gets, once the write has passed
 * its first IMPORT_PROGRESS_EVERY rows, a 200 streamed as lines: `{"progress": {"written", "total"}}`
 * while the one transaction runs, then `{"payload": ...}`, or on failure the error body with its
 * `status` (nothing written). Shorter imports, and every other caller, get the plain JSON answer.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DeviceImportPayload, DeviceImportQuery, responses } from '@iot/contracts';
import { isApiError } from '@iot/domain';
import { Type } from 'typebox';
import { apiError } from '../../../../../lib/errors';
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
    async (request, reply) => {
      const streams = (request.headers.accept ?? '').includes('application/x-ndjson');
      let streaming = false;
      const line = (value: unknown) => reply.raw.write(`${JSON.stringify(value)}\n`);
      const onProgress = (progress: { written: number; total: number }) => {
        if (!streaming) {
          streaming = true;
          reply.hijack();
          reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8' });
        }
        line({ progress });
      };
      try {
        const answer = await importDevices(
          db,
          authOf(request),
          request.body,
          request.query.dry_run ?? false,
          streams ? onProgress : undefined,
        );
        if (!answer.dry_run)
          for (const row of answer.rows) if (row.device_id !== null) app.deps.onDeviceChanged(row.device_id);
        if (!streaming) return { payload: answer };
        line({ payload: answer });
      } catch (err) {
        if (!streaming) throw err;
        const failure = isApiError(err) ? err : apiError('DEVICE_IMPORT_FAILED');
        line({ status: failure.status, ...failure.toBody() });
      }
      reply.raw.end();
      return reply;
    },
  );
};

export default deviceImportRoutes;
