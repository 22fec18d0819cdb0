/**
 * /api/v1/core/company/support-access: whether support may act as the company always or only with its
 * consent, and the consent itself (issue #27). Everyone of the company reads it; its main users and
 * admins change it (not support acting as the company: 90046).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { responses, SupportAccessPayload, UpdateSupportAccessBody } from '@iot/contracts';
import type { SupportAccessRecord } from '@iot/db';
import { authOf } from '../../../../../plugins/guards';
import { readSupportAccess, updateSupportAccess } from '../../../../../services/support-access';

function present(access: SupportAccessRecord) {
  const running = access.grantedUntil !== null && access.grantedUntil.getTime() > Date.now();
  return {
    mode: access.mode,
    granted_until: running ? access.grantedUntil!.toISOString() : null,
    requested_at: access.requestedAt ? access.requestedAt.toISOString() : null,
  };
}

const supportAccessRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['company'],
        operationId: 'getSupportAccess',
        summary: "The company's support access: always, or only with its consent, and a running grant",
        response: responses(SupportAccessPayload),
      },
    },
    async (request) => ({ payload: present(await readSupportAccess(db, authOf(request).companyId)) }),
  );

  app.put(
    '/',
    {
      schema: {
        tags: ['company'],
        operationId: 'updateSupportAccess',
        summary: 'Require consent for support access, grant it for some hours or end a grant (main users)',
        body: UpdateSupportAccessBody,
        response: responses(SupportAccessPayload, [90046, 77]),
      },
    },
    async (request) => {
      const { mode, grant_hours } = request.body;
      const access = await updateSupportAccess(
        db,
        authOf(request),
        {
          ...(mode === undefined ? {} : { mode }),
          ...(grant_hours === undefined ? {} : { grantHours: grant_hours }),
        },
        request.ip,
      );
      return { payload: present(access) };
    },
  );
};

export default supportAccessRoutes;
