/** /api/v1/core/module, /modules, /drivers, /support: licensing, device types and the support form. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listDrivers } from '@iot/codecs';
import { MODULES } from '@iot/domain';
import { Type } from 'typebox';
import { responses } from '../../../../../lib/schemas';
import { authOf } from '../../../../../plugins/guards';
import { sendSupportRequest } from '../../../../../services/send-support-request';
import { effectiveModules } from '../company/schemas';

const ModuleEntry = Type.Object({ name: Type.String(), licensed: Type.Boolean() });
const Driver = Type.Object({
  id: Type.String(),
  name: Type.String(),
  device_type: Type.String(),
  description: Type.String(),
  commands: Type.Array(Type.String(), { description: 'downlink commands the driver can encode' }),
});

const SupportBody = Type.Object(
  {
    subject: Type.String({ minLength: 1, maxLength: 200 }),
    message: Type.String({ minLength: 1, maxLength: 10_000 }),
    phone: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
  },
  { additionalProperties: false },
);

const platformRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { deps } = app;

  app.get(
    '/module',
    {
      schema: {
        tags: ['company'],
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
        summary: 'Built-in device drivers, one per device type (@iot/codecs)',
        response: responses(Type.Array(Driver)),
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
        summary: 'Send a support request (stored in the audit log and mailed to support)',
        body: SupportBody,
        response: responses(Type.Object({ ok: Type.Boolean() })),
      },
    },
    async (request) => {
      await sendSupportRequest(deps, authOf(request), request.body);
      return { payload: { ok: true } };
    },
  );
};

export default platformRoutes;
