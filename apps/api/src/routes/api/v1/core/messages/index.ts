/**
 * /core/messages: system messages of the acting company for everyone or for the signed-in user, with the
 * read and unread counts (spec sections 3, 4, 7).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, MessageCountsPayload, MessageListPayload, MessagesQuery, responses } from '@iot/contracts';
import { userLanguage } from '@iot/domain';
import { authOf } from '../../../../../plugins/guards';
import {
  deleteUserMessage,
  listUserMessages,
  presentMessage,
  readUserMessage,
} from '../../../../../services/alarms-and-messages';

const messagesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/',
    {
      schema: {
        tags: ['messages'],
        operationId: 'listMessages',
        summary: 'Messages (show_read=1: read ones too) with read and unread counts',
        querystring: MessagesQuery,
        response: responses(MessageListPayload, [422]),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { messages, counts } = await listUserMessages(db, auth, request.query.show_read === 1);
      const language = userLanguage(auth.user.locale);
      return { payload: { messages: messages.map((m) => presentMessage(m, language)), ...counts } };
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags: ['messages'],
        operationId: 'readMessage',
        summary: 'Mark a message read: read count up, unread down (404)',
        params: IdParams,
        response: responses(MessageCountsPayload, [404, 422, 77]),
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
        operationId: 'deleteMessage',
        summary: 'Delete a message; the counts after it (404)',
        params: IdParams,
        response: responses(MessageCountsPayload, [404, 422, 77]),
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
