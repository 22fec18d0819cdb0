import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { IngestContext } from '../accept/ingest-context.js';
import { ingestHttpRoutes } from './http.js';

export const INGEST_HTTP_PREFIX = '/ingest/v1';

/**
 * The ingest HTTP front door as its own Fastify instance (not listening), routes under /ingest/v1.
 * Its own server rather than routes on the API's: the API checks a CSRF token on every mutating
 * request, which network servers and devices cannot send, and the distributed profile runs ingest
 * apart from the API anyway.
 */
export function buildIngestHttpServer(options: { ctx: IngestContext; bodyLimit?: number }): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.ctx.log.child({ door: 'http' }) as FastifyBaseLogger,
    routerOptions: { ignoreTrailingSlash: true },
    // Behind a load balancer the refusal log lines should name the sender.
    trustProxy: true,
  });
  app.register(ingestHttpRoutes, {
    prefix: INGEST_HTTP_PREFIX,
    ctx: options.ctx,
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
  });
  return app;
}
