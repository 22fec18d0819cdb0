/**
 * /core/messages: system messages of the acting company for everyone or for the signed-in user, with the
 * read and unread counts (spec sections 3, 4, 7).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, Nullable, responses } from '../../../../../lib/schemas';
import { authOf } from '../../../../../plugins/guards';
import {
  deleteUserMessage,
  listUserMessages,
  presentMessage,
  readUserMessage,
} from '../../../../../services/alarms-and-messages';

const Message = Type.Object({
  id: Type.Integer(),
  user_id: Nullable(Type.Integer({ description: 'null: for every user of the company' })),
  subject: Type.String(),
  body: Type.String(),
  level: Type.Integer(),
  is_read: Type.Boolean(),
  read_at: Nullable(Type.String({ format: 'date-time' })),
  device_id: Nullable(Type.Integer()),
  rule_id: Nullable(Type.Integer()),
  kind: Nullable(
    Type.String({
      description:
        "null: a rule's system action (subject and body as the rule wrote them). downlink_failed: the platform's " +
        'own message that a command queued at a LoRaWAN network server failed or got no report in time ' +
        '(DOWNLINK_ACK_TIMEOUT_HOURS). action_failed: a rule action the notifier gave up on after its retries ' +
        '(one unread message per action at a time). Subject and body are English, params lets a client word it itself',
    }),
  ),
  params: Nullable(
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        'downlink_failed: downlink_id, device (name), command, error, sent_at, by_rule (sent by a rule action). ' +
        'action_failed: action_id, rule (name), device (name), channel, recipient (the target device name for ' +
        'remote_control), command (remote_control), error, attempts',
    }),
  ),
  created_at: Type.String({ format: 'date-time' }),
});

const Counts = { read: Type.Integer(), unread: Type.Integer() };

const messagesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['messages'],
        summary: 'Messages (show_read=1: read ones too) with read and unread counts',
        querystring: Type.Object({
          show_read: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
        }),
        response: responses(Type.Object({ messages: Type.Array(Message), ...Counts })),
      },
    },
    async (request) => {
      const { messages, counts } = await listUserMessages(db, authOf(request), request.query.show_read === 1);
      return { payload: { messages: messages.map(presentMessage), ...counts } };
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags: ['messages'],
        summary: 'Mark a message read: read count up, unread down (404)',
        params: IdParams,
        response: responses(Type.Object({ id: Type.Integer(), ...Counts })),
      },
    },
    async (request) => ({
      payload: { id: request.params.id, ...(await readUserMessage(db, authOf(request), request.params.id)) },
    }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['messages'],
        summary: 'Delete a message; the counts after it (404)',
        params: IdParams,
        response: responses(Type.Object({ id: Type.Integer(), ...Counts })),
      },
    },
    async (request) => ({
      payload: {
        id: request.params.id,
        ...(await deleteUserMessage(db, authOf(request), request.params.id)),
      },
    }),
  );
};

export default messagesRoutes;
