/**
 * Answers kept in memory until what they were read from changes (issue #29): the alarm poll and the device
 * list (table and map), which every open console sends every few seconds and which change far less often.
 * An entry is the answer's JSON text, and its compressed copies once a client asked for them, under a key
 * that holds everything the answer depends on: the acting company first (the entry's scope), then what
 * else (language, URL); whoever may read the route may read the entry, the route's guards run before it.
 *
 * Never served stale after a change that was announced (plugins/answer-cache.ts says by whom). Nothing is
 * served until those LISTENs are in effect, nor while their connection is lost. A read that began before
 * a clear is not stored (`mark`). What no one announces (a script editing the database) shows after at most
 * the entry's lifetime.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AnnouncedCache } from './announced-cache';

/** Enough for every company's few variants of a poll; past it the cache starts over. */
const MAX_ENTRIES = 10_000;
/** Below this, compressing saves less than it costs (the same threshold as app.ts's compression). */
const COMPRESS_FROM_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

/** An answer's JSON text and its compressed copies, each made once, when a client first accepts it. */
export class CachedAnswer {
  private readonly encoded = new Map<Encoding, Buffer>();
  private readonly bytes: Buffer;

  constructor(readonly body: string) {
    this.bytes = Buffer.from(body);
  }

  /** The body in `encoding` (undefined: as it is, too small to gain from compression). */
  in(encoding: Encoding | undefined): { bytes: Buffer; encoding?: Encoding } {
    if (encoding === undefined || this.bytes.length < COMPRESS_FROM_BYTES) return { bytes: this.bytes };
    let bytes = this.encoded.get(encoding);
    if (!bytes) {
      // Synchronous: once per entry, cheaper than a compression stream per request (brotli 4 as app.ts).
      bytes =
        encoding === 'br'
          ? brotliCompressSync(this.bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 4,
                [constants.BROTLI_PARAM_SIZE_HINT]: this.bytes.length,
              },
            })
          : gzipSync(this.bytes);
      this.encoded.set(encoding, bytes);
    }
    return { bytes, encoding };
  }
}

/** Cached answers by key `<company id> <the rest>`; serves nothing until its LISTENs are in effect. */
export class AnswerCache extends AnnouncedCache<CachedAnswer> {
  constructor(ttlMs: number) {
    super(ttlMs, { maxEntries: MAX_ENTRIES, live: false, scopeOf: (key) => key.slice(0, key.indexOf(' ')) });
  }
}

/** The encoding a request accepts, brotli first (as app.ts's compression); `q=0` refuses one. */
export function acceptedEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

/**
 * Sends the answer kept for `company` under `variant` (what else the answer depends on: language, URL),
 * reading it with `read` (its JSON text) and keeping it first when none is kept. The key is built here, so
 * every entry's scope is the company it was read for and that company's announcements clear it.
 */
export async function sendKeptAnswer(
  cache: AnswerCache,
  at: { company: number | string; variant: string },
  request: FastifyRequest,
  reply: FastifyReply,
  read: () => Promise<string>,
) {
  const key = `${at.company} ${at.variant}`;
  let answer = cache.get(key);
  if (answer === undefined) {
    const mark = cache.mark();
    answer = new CachedAnswer(await read());
    cache.set(key, answer, mark);
  }
  return sendCachedAnswer(request, reply, answer);
}

/** Sends a cached answer as JSON in the encoding the request accepts (compression then skips it). */
function sendCachedAnswer(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer) {
  const { bytes, encoding } = answer.in(acceptedEncoding(request.headers['accept-encoding']));
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(bytes);
}
