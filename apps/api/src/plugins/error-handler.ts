/**
 * One place maps every failure to `{ code, message }` with the catalogue's HTTP status:
 * ApiError as is, schema validation to 422/422, rate limits to 429, anything else to 500 with the
 * catalogue text only (the real cause goes to the log). Unknown routes: `notFound` below.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, apiError, tooManyRequests } from '../lib/errors';

function toApiError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) return apiError('INPUT_ERROR', { reason: error.message });
  const status = error.statusCode ?? 500;
  if (status === 429) return tooManyRequests();
  if (status === 404) return apiError('DATA_NOT_FOUND');
  // Client errors Fastify raises itself (bad JSON, unsupported media type, body too large).
  if (status === 415) return apiError('UNSUPPORTED_CONTENT_TYPE');
  if (status >= 400 && status < 500) return apiError('BAD_REQUEST', { reason: error.message });
  return apiError('INTERNAL_ERROR');
}

async function errorHandlerPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiErr = toApiError(error);
    if (apiErr.status >= 500) {
      request.log.error({ err: error }, 'request failed');
      // Never more than the catalogue text on a 5xx: the cause stays in the log.
      return reply.status(apiErr.status).send({ code: apiErr.code, message: apiErr.message });
    }
    request.log.info({ code: apiErr.code, status: apiErr.status, reason: error.message }, 'request refused');
    return reply.status(apiErr.status).send(apiErr.toBody());
  });
}

export default fp(errorHandlerPlugin, { name: 'iot-error-handler' });

/** The 404 answer for a route that does not exist. */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  const notFound = apiError('DATA_NOT_FOUND', { route: `${request.method} ${request.url.split('?')[0]}` });
  return reply.status(notFound.status).send(notFound.toBody());
}
