/**
 * A thread of the codec pool (codec-pool.ts): runs user codecs in its own CodecSandbox, one call at a time,
 * so a codec that loops or computes for long holds this thread, never the event loop that serves uplinks,
 * the API and the rules. Built to dist/codec-worker.js (plain JavaScript a Worker can start, from the
 * sources under vitest and tsx as well as from an app's bundle).
 *
 * Messages from the pool: { id, op, codec: { companyId, codecId, hash, script? }, input?, options? } with op
 * load | decodeUplink | decodeDownlink | encodeDownlink, and { op: 'evict', companyId, codecId? }.
 * The script travels only when the pool does not know this thread holds it: a call without it whose
 * script this thread does not have (or has in another version) is answered { id, needScript: true }.
 * Replies: { id, result }; the first message is { ready: true } or { ready: false, error }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CodecSandbox, type CodecSandboxOptions } from '../sandbox/codec-sandbox.js';

interface CodecRef {
  companyId: number;
  codecId: string;
  hash: string;
  script?: string;
}

type Request =
  | { id: number; op: 'load'; codec: CodecRef }
  | { id: number; op: 'decodeUplink' | 'decodeDownlink'; codec: CodecRef; input: never; options?: never }
  | { id: number; op: 'encodeDownlink'; codec: CodecRef; input: never }
  | { op: 'evict'; companyId: number; codecId?: string };

const port = parentPort;
if (port === null) throw new Error('codec-worker runs as a worker thread');

const options = workerData as CodecSandboxOptions & { maxContexts: number };
let sandbox: CodecSandbox;
try {
  sandbox = await CodecSandbox.create(options);
} catch (error) {
  port.postMessage({ ready: false, error: (error as Error).message });
  throw error;
}

// The scripts this thread was given, per (company, codec): at most as many as the sandbox keeps contexts.
const scripts = new Map<string, { hash: string; script: string }>();
const keyOf = (companyId: number, codecId: string) => `${companyId}\u0000${codecId}`;

function scriptOf(ref: CodecRef): string | undefined {
  const key = keyOf(ref.companyId, ref.codecId);
  if (ref.script !== undefined) {
    scripts.delete(key);
    scripts.set(key, { hash: ref.hash, script: ref.script });
    while (scripts.size > options.maxContexts) {
      const oldest = scripts.keys().next().value;
      if (oldest === undefined) break;
      scripts.delete(oldest);
    }
    return ref.script;
  }
  const known = scripts.get(key);
  return known?.hash === ref.hash ? known.script : undefined;
}

port.on('message', (request: Request) => {
  if (request.op === 'evict') {
    sandbox.evict(request.companyId, request.codecId);
    for (const key of [...scripts.keys()])
      if (
        key === keyOf(request.companyId, request.codecId ?? '') ||
        (request.codecId === undefined && key.startsWith(`${request.companyId}\u0000`))
      )
        scripts.delete(key);
    return;
  }
  const script = scriptOf(request.codec);
  if (script === undefined) {
    port.postMessage({ id: request.id, needScript: true });
    return;
  }
  const codec = { companyId: request.codec.companyId, codecId: request.codec.codecId, script };
  let result: unknown;
  switch (request.op) {
    case 'load':
      result = sandbox.load(codec);
      break;
    case 'decodeUplink':
      result = sandbox.decodeUplink(codec, request.input, request.options);
      break;
    case 'decodeDownlink':
      result = sandbox.decodeDownlink(codec, request.input, request.options);
      break;
    case 'encodeDownlink':
      result = sandbox.encodeDownlink(codec, request.input);
      break;
  }
  port.postMessage({ id: request.id, result });
});

port.postMessage({ ready: true });
