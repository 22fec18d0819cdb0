/**
 * The HTTP side of health and metrics (issue #29): one answer function for the API's Fastify routes and
 * for the small server of the worker apps (HEALTH_PORT). `/health/live` (also `/health`) answers while
 * the process runs; `/health/ready` 200 or 503 with each check; `/metrics` the Prometheus text, open to
 * loopback and to others only with `Authorization: Bearer <METRICS_TOKEN>`; anything else under
 * `/health` a JSON 404.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Health } from './health.js';
import type { Logger } from './logger.js';
import { metricsRegistry } from './metrics.js';

export interface HealthAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface HealthRequest {
  path: string;
  remoteAddress: string | undefined;
  authorization: string | undefined;
}

const json = (status: number, value: unknown): HealthAnswer => ({
  status,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify(value),
});

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function tokenMatches(authorization: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** Paths this module answers; the API routes exactly these to it. */
export function isHealthPath(path: string): boolean {
  return path === '/health' || path.startsWith('/health/') || path === '/metrics';
}

export async function answerHealth(
  request: HealthRequest,
  health: Health,
  metricsToken: string | undefined,
): Promise<HealthAnswer> {
  switch (request.path) {
    case '/health':
    case '/health/live':
      return json(200, { status: 'live' });
    case '/health/ready': {
      const readiness = await health.ready();
      return json(readiness.status === 'ready' ? 200 : 503, readiness);
    }
    case '/metrics': {
      const allowed = isLoopback(request.remoteAddress)
        ? true
        : metricsToken !== undefined && tokenMatches(request.authorization, metricsToken);
      if (!allowed) {
        return json(metricsToken ? 401 : 403, {
          message: metricsToken
            ? 'metrics need Authorization: Bearer <METRICS_TOKEN>'
            : 'metrics are served to loopback only; set METRICS_TOKEN to scrape from elsewhere',
        });
      }
      return { status: 200, contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
    }
    default:
      return json(404, { message: `no such path: ${request.path}` });
  }
}

/** The worker apps' own small HTTP server for health and metrics (HEALTH_PORT). */
export async function startHealthServer(options: {
  port: number;
  host: string;
  health: Health;
  metricsToken: string | undefined;
  log: Logger;
}): Promise<{ url: string; name: string; stop: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': 'application/json' }).end('{"message":"GET only"}');
      return;
    }
    answerHealth(
      { path, remoteAddress: req.socket.remoteAddress, authorization: req.headers.authorization },
      options.health,
      options.metricsToken,
    ).then(
      (answer) => res.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body),
      (error: unknown) => {
        options.log.error({ err: error }, 'health request failed');
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"internal error"}');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  options.log.info({ url }, 'health and metrics listening');
  return {
    name: 'health-server',
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
