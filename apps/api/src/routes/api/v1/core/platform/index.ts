/** /api/v1/core/module, /modules, /drivers, /support: licensing, device types and the support form. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listDrivers } from '@iot/codecs';
import { DriverPayload, ModuleEntry, responses, SupportBody } from '@iot/contracts';
import { MODULES } from '@iot/domain';
import { Type } from 'typebox';
import { authOf } from '../../../../../plugins/guards';
import { sendSupportRequest } from '../../../../../services/send-support-request';
import { effectiveModules } from '../company/present';

const platformRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { deps } = app;

  app.get(
    '/module',
    {
      schema: {
        tags: ['company'],
        operationId: 'listLicensedModules',
        summary: "The acting company's licensed modules (the super admin has all)",
        response: responses(Type.Array(Type.String())),
      },
    },
    async (request) => ({ payload: effectiveModules(authOf(request).company) }),
  );

  app.get(
    '/modules',
    {
      schema: {
        tags: ['company'],
        operationId: 'listModules',
        summary: 'Every module with whether the acting company holds its licence',
        response: responses(Type.Array(ModuleEntry)),
      },
    },
    async (request) => {
      const licensed = effectiveModules(authOf(request).company);
      return { payload: MODULES.map((name) => ({ name, licensed: licensed.includes(name) })) };
    },
  );

  app.get(
    '/drivers',
    {
      schema: {
        tags: ['devices'],
        operationId: 'listDrivers',
        summary: 'Built-in device drivers, one per device type (@iot/codecs)',
        response: responses(Type.Array(DriverPayload)),
      },
    },
    async () => ({
      payload: listDrivers().map((driver) => ({
        id: driver.id,
        name: driver.id,
        device_type: driver.deviceType,
        description: driver.description,
        commands: driver.commands,
      })),
    }),
  );

  app.post(
    '/support',
    {
      schema: {
        tags: ['support'],
        operationId: 'sendSupportRequest',
        summary: 'Send a support request (stored in the audit log and mailed to support)',
        body: SupportBody,
        response: responses(Type.Object({ ok: Type.Boolean() }), [422, 77]),
      },
    },
    async (request) => {
      await sendSupportRequest(deps, authOf(request), request.body);
      return { payload: { ok: true } };
    },
  );
};

export default platformRoutes;
