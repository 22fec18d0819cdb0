/**
 * Identical reads in flight share one answer (routes with `config: { coalesce: true }`): a console that
 * polls, or several tabs of one operator, send the same GET while the first is still on the database's one
 * connection (PGlite), and each would queue its own copy of the query behind it (issue #29).
 *
 * Only requests of the same session's user and acting company for the same URL share, and only while the
 * first is running: nothing is kept after its answer. A joiner never gets an answer older than a request it
 * made itself: every mutating request of this process starts a new generation, and an answer begun before
 * it is not shared with requests arriving after. A first request that fails or answers other than 200
 * shares nothing; its joiners run on their own.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Shared {
  contentType: string;
  /** Text, or bytes as they went out (a cached answer's compressed copy: `encoding`). */
  body: string | Buffer;
  encoding?: string;
}

interface InFlight {
  answer: Promise<Shared | null>;
  settle: (shared: Shared | null) => void;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Identical GETs of one user in flight share one answer (plugins/coalesce-reads). */
    coalesce?: boolean;
  }
  interface FastifyRequest {
    /** Set on the first of identical reads: its answer goes to the joiners. */
    coalescing: InFlight | null;
  }
}

function keyOf(request: FastifyRequest): string | null {
  const auth = request.auth;
  if (!auth || auth.apiKey || request.method !== 'GET') return null;
  // The accepted encodings too: an answer may be shared in the encoding it went out in.
  return `${auth.user.id}:${auth.companyId}:${request.url}:${request.headers['accept-encoding'] ?? ''}`;
}

async function coalesceReads(app: FastifyInstance): Promise<void> {
  let inFlight = new Map<string, InFlight>();
  app.decorateRequest('coalescing', null);

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.routeOptions.config?.coalesce) return;
    const key = keyOf(request);
    if (!key) return;
    const running = inFlight.get(key);
    if (running) {
      const shared = await running.answer;
      if (!shared) return;
      if (shared.encoding)
        reply.header('content-encoding', shared.encoding).header('vary', 'accept-encoding');
      return reply.type(shared.contentType).send(shared.body);
    }
    let settle: (shared: Shared | null) => void = () => {};
    const answer = new Promise<Shared | null>((resolve) => {
      settle = resolve;
    });
    const entry = { answer, settle };
    inFlight.set(key, entry);
    request.coalescing = entry;
    // The entry leaves when its answer is settled, whatever happens to the request.
    void answer.then(() => {
      if (inFlight.get(key) === entry) inFlight.delete(key);
    });
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // A change through this process: reads begun before it are not shared with later requests.
    if (MUTATING.has(request.method)) inFlight = new Map();
    const entry = request.coalescing;
    if (!entry) return payload;
    const shareable = reply.statusCode === 200 && (typeof payload === 'string' || Buffer.isBuffer(payload));
    const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
    const encoding = reply.getHeader('content-encoding');
    entry.settle(
      shareable
        ? {
            contentType,
            body: payload as string | Buffer,
            ...(encoding ? { encoding: String(encoding) } : {}),
          }
        : null,
    );
    return payload;
  });
  // Whatever did not reach onSend (an aborted request) still frees its joiners.
  app.addHook('onResponse', async (request) => request.coalescing?.settle(null));
}

export default fp(coalesceReads, { name: 'iot-coalesce-reads', dependencies: ['iot-session'] });
