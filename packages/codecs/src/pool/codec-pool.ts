/**
 * User codecs off the event loop (issue #28, finding 3): a pool of worker threads (codec-worker.ts), each
 * with its own CodecSandbox, so a codec that loops or computes for long holds one thread of the pool and
 * never the event loop that serves everyone's uplinks, the API and the rules. The sandbox's interrupt
 * handler ends a call at its time limit (`limits.timeoutMs`, 50 ms); should a call outlast that by
 * `graceMs` (a native operation the handler cannot interrupt), the pool terminates the thread and starts
 * another. Either way the result says so (`overBudget`), for the caller to count toward suspending the
 * codec (apps/ingest codec-guard.ts).
 *
 * A thread runs one call at a time; calls wait in the pool for the first free thread (one that holds the
 * codec already if it is free, else any), so one company's slow codec takes at most one thread while other
 * codecs go to the others. Threads start on the first call, not with the pool, all at once. The script crosses to a
 * thread once per version; after that a call names it by its SHA-256.
 */

import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type {
  CodecDownlinkInput,
  CodecLoadResult,
  CodecUplinkInput,
  UserCodec,
} from '../sandbox/codec-sandbox.js';
import { DEFAULT_MAX_CONTEXTS, scriptHash } from '../sandbox/codec-sandbox.js';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from '../sandbox/limits.js';
import type { CodecDecodeResult, CodecEncodeResult } from '../sandbox/read-codec-output.js';

export interface CodecPoolOptions {
  /** Threads at most (default: the cores less one, between 2 and 4). */
  workers?: number;
  limits?: Partial<SandboxLimits>;
  /** Loaded codec contexts each thread keeps (default 64). */
  maxContexts?: number;
  /** How long past its budget a call may run before its thread is terminated (default 1 s). */
  graceMs?: number;
  /** A call running this long has its thread terminated (default: its budget plus `graceMs`; for tests). */
  deadlineMs?: number;
  /** Calls that may wait for a thread; more fail at once as overloaded (default 10,000). */
  maxQueue?: number;
}

/** A result of the pool: the sandbox's, and whether the codec ran past its time or memory budget. */
export type Pooled<T> = T & { overBudget?: boolean };

type Op = 'load' | 'decodeUplink' | 'decodeDownlink' | 'encodeDownlink';

interface Call {
  id: number;
  op: Op;
  codec: UserCodec;
  hash: string;
  input?: unknown;
  options?: unknown;
  budgetMs: number;
  /** The script goes along (the thread said it lacks it, or the pool knows it does). */
  withScript: boolean;
  fail: (error: string) => unknown;
  resolve: (result: unknown) => void;
}

interface Thread {
  worker: Worker;
  ready: Promise<void>;
  busy: Call | undefined;
  timer: NodeJS.Timeout | undefined;
  /** The script version of each codec this thread was given (a hint: the thread may have dropped it). */
  holds: Map<string, string>;
  dead: boolean;
}

// Waiting calls looked at for a free thread: a deep queue is served oldest first beyond this.
const SCAN = 256;
const BUDGET_ERROR = /^codec exceeded its (time|memory) limit/;

/** The worker's script: dist/codec-worker.js of @iot/codecs (built by `npm run build -w @iot/codecs`). */
export function codecWorkerUrl(): URL {
  return pathToFileURL(createRequire(import.meta.url).resolve('@iot/codecs/codec-worker.js'));
}

export class CodecPool {
  readonly limits: SandboxLimits;
  private readonly size: number;
  private readonly maxContexts: number;
  private readonly graceMs: number;
  private readonly deadlineMs: number | undefined;
  private readonly maxQueue: number;
  private readonly threads: Thread[] = [];
  private readonly queue: Call[] = [];
  private readonly hashes = new Map<string, string>();
  private nextId = 1;
  private disposed = false;
  /** Threads terminated because a call outlasted its budget (for tests and metrics). */
  terminated = 0;

  constructor(options: CodecPoolOptions = {}) {
    this.limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
    this.size = Math.max(1, options.workers ?? Math.min(4, Math.max(2, availableParallelism() - 1)));
    this.maxContexts = options.maxContexts ?? DEFAULT_MAX_CONTEXTS;
    this.graceMs = options.graceMs ?? 1000;
    this.deadlineMs = options.deadlineMs;
    this.maxQueue = options.maxQueue ?? 10_000;
  }

  /** Threads running now. */
  get threadCount(): number {
    return this.threads.length;
  }

  load(codec: UserCodec): Promise<CodecLoadResult & { overBudget?: boolean }> {
    return this.submit('load', codec, undefined, undefined, (error) => ({ ok: false, error }));
  }

  decodeUplink(
    codec: UserCodec,
    input: CodecUplinkInput,
    options: { keepShape?: boolean } = {},
  ): Promise<Pooled<CodecDecodeResult>> {
    return this.submit('decodeUplink', codec, input, options, decodeFailure);
  }

  decodeDownlink(
    codec: UserCodec,
    input: { bytes: Uint8Array | readonly number[]; fPort?: number },
    options: { keepShape?: boolean } = {},
  ): Promise<Pooled<CodecDecodeResult>> {
    return this.submit('decodeDownlink', codec, input, options, decodeFailure);
  }

  encodeDownlink(codec: UserCodec, input: CodecDownlinkInput): Promise<Pooled<CodecEncodeResult>> {
    const fPort = input.fPort ?? 1;
    return this.submit('encodeDownlink', codec, input, undefined, (error) => ({
      bytes: new Uint8Array(),
      fPort,
      warnings: [],
      errors: [error],
    }));
  }

  /** Forgets one company's codec (after it was edited or deleted), or all of the company's, in every thread. */
  evict(companyId: number, codecId?: string): void {
    for (const thread of this.threads) {
      for (const key of [...thread.holds.keys()])
        if (
          key === keyOf(companyId, codecId ?? '') ||
          (codecId === undefined && key.startsWith(`${companyId}\u0000`))
        )
          thread.holds.delete(key);
      thread.worker.postMessage({ op: 'evict', companyId, codecId });
    }
  }

  /**
   * Fails the waiting calls of one company's codec with `error` (it was just suspended: what waits for it
   * must not run it); a call already running finishes. The number of calls failed.
   */
  cancel(companyId: number, codecId: string, error: string): number {
    let cancelled = 0;
    for (let index = this.queue.length - 1; index >= 0; index--) {
      const call = this.queue[index] as Call;
      if (call.codec.companyId !== companyId || call.codec.codecId !== codecId) continue;
      this.queue.splice(index, 1);
      call.resolve(call.fail(error));
      cancelled++;
    }
    return cancelled;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const call of this.queue.splice(0)) call.resolve(call.fail('codec pool stopped'));
    await Promise.all(
      this.threads.splice(0).map((thread) => {
        thread.dead = true;
        if (thread.timer) clearTimeout(thread.timer);
        if (thread.busy) thread.busy.resolve(thread.busy.fail('codec pool stopped'));
        return thread.worker.terminate();
      }),
    );
  }

  private submit<T extends object>(
    op: Op,
    codec: UserCodec,
    input: unknown,
    options: unknown,
    fail: (error: string) => T,
  ): Promise<Pooled<T>> {
    if (this.disposed) return Promise.resolve<Pooled<T>>(fail('codec pool stopped'));
    if (this.queue.length >= this.maxQueue)
      return Promise.resolve<Pooled<T>>(fail('codec pool overloaded: too many uplinks wait for a codec'));
    let hash = this.hashes.get(codec.script);
    if (hash === undefined) {
      hash = scriptHash(codec.script);
      if (this.hashes.size >= this.maxContexts * 4) this.hashes.clear();
      this.hashes.set(codec.script, hash);
    }
    // A call may have to load the codec first (its top level runs under loadTimeoutMs).
    const budgetMs = this.limits.loadTimeoutMs + (op === 'load' ? 0 : this.limits.timeoutMs);
    return new Promise<Pooled<T>>((resolve) => {
      this.queue.push({
        id: this.nextId++,
        op,
        codec,
        hash: hash as string,
        input,
        options,
        budgetMs,
        withScript: false,
        fail,
        resolve: resolve as (result: unknown) => void,
      });
      this.dispatch();
    });
  }

  /** Hands waiting calls to free threads, starting threads up to the pool's size. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      // All threads start together (each takes a while: WebAssembly compile and warm-up), and a
      // terminated one is replaced at once.
      while (this.threads.length < this.size) this.threads.push(this.spawn());
      const free = this.threads.filter((thread) => thread.busy === undefined && !thread.dead);
      if (free.length === 0) return;
      // A company may hold all threads but one, so another company's codec always finds one (with a pool
      // of one thread, a company's calls run one after the other with everyone else's).
      const busyOf = new Map<number, number>();
      for (const thread of this.threads)
        if (thread.busy)
          busyOf.set(thread.busy.codec.companyId, (busyOf.get(thread.busy.codec.companyId) ?? 0) + 1);
      const share = Math.max(1, this.size - 1);
      // The first waiting call whose codec a free thread holds goes there; else the oldest call to any.
      let chosen: { index: number; thread: Thread } | undefined;
      let fallback: number | undefined;
      for (let index = 0; index < Math.min(this.queue.length, SCAN) && chosen === undefined; index++) {
        const call = this.queue[index] as Call;
        if ((busyOf.get(call.codec.companyId) ?? 0) >= share) continue;
        fallback ??= index;
        const key = keyOf(call.codec.companyId, call.codec.codecId);
        const thread = free.find((t) => t.holds.get(key) === call.hash);
        if (thread) chosen = { index, thread };
      }
      if (chosen === undefined && fallback !== undefined)
        chosen = { index: fallback, thread: free[0] as Thread };
      // Every waiting call (of those looked at) is of a company that has its share running: wait.
      if (chosen === undefined) return;
      const [call] = this.queue.splice(chosen.index, 1);
      this.run(chosen.thread, call as Call);
    }
  }

  private run(thread: Thread, call: Call): void {
    thread.busy = call;
    const key = keyOf(call.codec.companyId, call.codec.codecId);
    const withScript = call.withScript || thread.holds.get(key) !== call.hash;
    call.withScript = withScript;
    if (withScript) thread.holds.set(key, call.hash);
    void thread.ready.then(() => {
      if (thread.dead || thread.busy !== call) return;
      thread.worker.postMessage({
        id: call.id,
        op: call.op,
        codec: {
          companyId: call.codec.companyId,
          codecId: call.codec.codecId,
          hash: call.hash,
          ...(withScript ? { script: call.codec.script } : {}),
        },
        input: call.input,
        options: call.options,
      });
      thread.timer = setTimeout(() => this.overran(thread, call), this.deadlineOf(call));
    });
  }

  private deadlineOf(call: Call): number {
    return this.deadlineMs ?? call.budgetMs + this.graceMs;
  }

  /** A call outlasted its budget and grace: its thread is stopped (another starts on demand). */
  private overran(thread: Thread, call: Call): void {
    if (thread.busy !== call || thread.dead) return;
    this.terminated++;
    this.retire(thread);
    const result = call.fail(
      `codec exceeded its time limit of ${this.limits.timeoutMs} ms (stopped after ${this.deadlineOf(call)} ms)`,
    ) as object;
    call.resolve({ ...result, overBudget: true });
    this.dispatch();
  }

  private retire(thread: Thread): void {
    thread.dead = true;
    thread.busy = undefined;
    if (thread.timer) clearTimeout(thread.timer);
    const index = this.threads.indexOf(thread);
    if (index !== -1) this.threads.splice(index, 1);
    void thread.worker.terminate();
  }

  private spawn(): Thread {
    const worker = new Worker(codecWorkerUrl(), {
      workerData: { limits: this.limits, maxContexts: this.maxContexts },
    });
    // A pool nobody disposed does not keep the process alive.
    worker.unref();
    const thread: Thread = {
      worker,
      ready: Promise.resolve(),
      busy: undefined,
      timer: undefined,
      holds: new Map(),
      dead: false,
    };
    thread.ready = new Promise<void>((resolve, reject) => {
      const onFirst = (message: { ready?: boolean; error?: string }) => {
        if (message.ready === true) resolve();
        else reject(new Error(`codec worker did not start: ${message.error ?? 'unknown error'}`));
      };
      worker.once('message', onFirst);
    });
    thread.ready.then(
      () => worker.on('message', (message) => this.answered(thread, message)),
      (error: Error) => this.crashed(thread, error),
    );
    worker.on('error', (error) => this.crashed(thread, error));
    worker.on('exit', () => {
      if (!thread.dead) this.crashed(thread, new Error('codec worker exited'));
    });
    return thread;
  }

  private answered(thread: Thread, message: { id: number; result?: unknown; needScript?: boolean }): void {
    const call = thread.busy;
    if (call === undefined || call.id !== message.id) return;
    if (thread.timer) clearTimeout(thread.timer);
    thread.timer = undefined;
    if (message.needScript) {
      // The thread dropped the script (its cache is bounded): the same thread gets it again.
      call.withScript = true;
      this.run(thread, call);
      return;
    }
    thread.busy = undefined;
    const result = message.result as { errors?: string[]; error?: string; ok?: boolean };
    const errors = result.errors ?? (result.ok === false && result.error ? [result.error] : []);
    call.resolve(errors.some((error) => BUDGET_ERROR.test(error)) ? { ...result, overBudget: true } : result);
    this.dispatch();
  }

  /** A thread failed outside any codec (it could not start, or died): its call fails, others go on. */
  private crashed(thread: Thread, error: Error): void {
    if (thread.dead) return;
    const call = thread.busy;
    this.retire(thread);
    if (call) call.resolve(call.fail(`codec sandbox failed: ${error.message}`));
    // A pool whose threads cannot start fails what waits rather than retrying for ever.
    if (this.threads.length === 0 && error.message.startsWith('codec worker did not start'))
      for (const waiting of this.queue.splice(0))
        waiting.resolve(waiting.fail(`codec sandbox failed: ${error.message}`));
    this.dispatch();
  }
}

const decodeFailure = (error: string): CodecDecodeResult => ({ data: {}, warnings: [], errors: [error] });

const keyOf = (companyId: number, codecId: string) => `${companyId}\u0000${codecId}`;
