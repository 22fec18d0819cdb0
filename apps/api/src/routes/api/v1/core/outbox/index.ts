/**
 * /core/outbox: the acting company's mail, SMS and calls as the platform kept them (no provider
 * configured) or handed them over, for the console's outbox page. Managers only (64).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { apiError } from '../../../../../lib/errors';
import { Nullable, responses } from '../../../../../lib/schemas';
import { authOf, isManager } from '../../../../../plugins/guards';
import { listOutbox, OUTBOX_DEFAULT_LIMIT } from '../../../../../services/list-outbox';

const State = Type.Union([Type.Literal('unsent'), Type.Literal('sent'), Type.Literal('failed')], {
  description: 'unsent: kept, no provider configured; sent: handed over; failed: refused (error)',
});

const Email = Type.Object({
  id: Type.Integer(),
  recipients: Type.Array(Type.String()),
  cc: Type.Array(Type.String()),
  subject: Type.String(),
  body: Type.String(),
  state: State,
  error: Nullable(Type.String()),
  sent_at: Nullable(Type.String({ format: 'date-time' })),
  created_at: Type.String({ format: 'date-time' }),
});

const PhoneMessage = Type.Object({
  id: Type.Integer(),
  channel: Type.Union([Type.Literal('sms'), Type.Literal('voice')]),
  recipient: Type.String({ description: 'E.164' }),
  body: Type.String({ description: 'the SMS text or the message spoken on the call' }),
  voice_language: Nullable(Type.String()),
  device_id: Nullable(Type.Integer()),
  device_name: Nullable(Type.String()),
  rule_id: Nullable(Type.Integer()),
  rule_name: Nullable(Type.String()),
  reference: Nullable(Type.String({ description: 'Twilio SID once sent' })),
  state: State,
  error: Nullable(Type.String()),
  sent_at: Nullable(Type.String({ format: 'date-time' })),
  created_at: Type.String({ format: 'date-time' }),
});

const outboxRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['outbox'],
        summary: 'Mail, SMS and calls of the company, newest first (ROLE_ADMIN, ROLE_MAINUSER; 64)',
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: OUTBOX_DEFAULT_LIMIT })),
        }),
        response: responses(
          Type.Object({ emails: Type.Array(Email), phone_messages: Type.Array(PhoneMessage) }),
        ),
      },
    },
    async (request) => {
      const auth = authOf(request);
      // Mail and SMS texts may carry customer data: the managers of the company read them, like the users.
      if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_CREATE_USER');
      return { payload: await listOutbox(db, auth, request.query.limit) };
    },
  );
};

export default outboxRoutes;
