import { createHash } from 'node:crypto';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSWASMModule,
  RELEASE_SYNC,
} from 'quickjs-emscripten';
import { BOOTSTRAP } from './bootstrap.js';
import { CodecContext, type LoadFailure } from './codec-context.js';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from './limits.js';
import {
  type CodecDecodeResult,
  type CodecEncodeResult,
  readDecodeOutput,
  readEncodeOutput,
} from './read-codec-output.js';
import { WasmMemory } from './wasm-memory.js';

/** A codec script owned by a company. */
export interface UserCodec {
  companyId: number;
  codecId: string;
  /** JavaScript defining decodeUplink (TS013), or the legacy Decoder (TTN v2) / Decode (ChirpStack v3). */
  script: string;
}

export interface CodecUplinkInput {
  bytes: Uint8Array | readonly number[];
  fPort?: number;
  recvTime: Date;
  /** Device variables for ChirpStack-style codecs. */
  variables?: Record<string, string>;
}

/** TS013 encodeDownlink input; any further fields are handed to the codec as given (Ellenex reads `command`). */
export interface CodecDownlinkInput {
  data: Record<string, unknown>;
  /** Port used when the codec names none. */
  fPort?: number;
  variables?: Record<string, string>;
  [extra: string]: unknown;
}

export type CodecLoadResult = { ok: true; functions: string[] } | LoadFailure;

export interface CodecSandboxOptions {
  limits?: Partial<SandboxLimits>;
  /** Loaded codec contexts kept for reuse (least recently used ones are disposed first). */
  maxContexts?: number;
}

interface Entry {
  key: string;
  companyId: number;
  scriptHash: string;
  context: CodecContext;
}

export const DEFAULT_MAX_CONTEXTS = 64;
const WASM_PAGE = 64 * 1024;
const INITIAL_HEAP_BYTES = 16 * 1024 * 1024;

export const scriptHash = (script: string) => createHash('sha256').update(script).digest('hex');

/**
 * Runs user codecs (LoRaWAN Payload Codec API, TS013-1.0.0) in QuickJS compiled to WebAssembly.
 *
 * Each (company, codec, script hash) gets its own runtime and context, kept in a small LRU cache so
 * a codec is parsed once, not per uplink. Contexts are never shared across companies: the company
 * id is part of the key, so the same script used by two companies runs in two contexts and
 * neither sees the other's globals. A context that hit a limit or failed at the host level is
 * disposed and rebuilt on the next call. Every failure comes back in `errors`; nothing throws.
 */
export class CodecSandbox {
  readonly limits: SandboxLimits;
  private readonly maxContexts: number;
  private readonly entries = new Map<string, Entry>();
  // Hashing a 30 kB codec on every uplink would cost more than decoding it; a script string
  // seen before maps to its hash in one lookup.
  private readonly hashes = new Map<string, string>();

  private constructor(
    private readonly module: QuickJSWASMModule,
    private readonly memory: WasmMemory,
    limits: SandboxLimits,
    options: CodecSandboxOptions,
  ) {
    this.limits = limits;
    this.maxContexts = options.maxContexts ?? DEFAULT_MAX_CONTEXTS;
  }

  /**
   * Each sandbox gets its own WebAssembly instance and memory, capped at `limits.heapBytes`, so
   * nothing is shared with other sandboxes either.
   */
  static async create(options: CodecSandboxOptions = {}): Promise<CodecSandbox> {
    const limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
    // 16 MiB is the initial memory the QuickJS build expects; growth beyond the maximum fails,
    // which QuickJS reports to the codec as "out of memory".
    const memory = new WasmMemory({
      initial: INITIAL_HEAP_BYTES / WASM_PAGE,
      maximum: Math.max(INITIAL_HEAP_BYTES, limits.heapBytes) / WASM_PAGE,
    });
    const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory }));
    warmUp(module);
    return new CodecSandbox(module, memory, limits, options);
  }

  private readonly heapSize = () => this.memory.buffer.byteLength;

  /** Bytes of WebAssembly memory the sandbox has grown to (it never shrinks). */
  get heapBytes(): number {
    return this.heapSize();
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Loads a codec (or finds it loaded) and tells which entry points its top level defines; a script
   * that does not parse or throws at its top level gets the error and, when QuickJS names it, the line.
   */
  load(codec: UserCodec): CodecLoadResult {
    const acquired = this.acquire(codec);
    if (!acquired.ok) return acquired;
    return { ok: true, functions: [...acquired.entry.context.functions] };
  }

  decodeUplink(
    codec: UserCodec,
    input: CodecUplinkInput,
    options: { keepShape?: boolean } = {},
  ): CodecDecodeResult {
    return this.decode(codec, 'decode', input, options.keepShape ?? false);
  }

  /** TS013 decodeDownlink: what a downlink's bytes mean, for showing a sent command to people. */
  decodeDownlink(
    codec: UserCodec,
    input: { bytes: Uint8Array | readonly number[]; fPort?: number },
    options: { keepShape?: boolean } = {},
  ): CodecDecodeResult {
    return this.decode(
      codec,
      'decodeDownlink',
      { ...input, recvTime: new Date() },
      options.keepShape ?? false,
    );
  }

  private decode(
    codec: UserCodec,
    op: 'decode' | 'decodeDownlink',
    input: CodecUplinkInput,
    keepShape: boolean,
  ): CodecDecodeResult {
    let request: string;
    try {
      request = JSON.stringify({
        op,
        // Through Uint8Array so a codec only ever sees integers 0..255, whatever the caller passed.
        bytes: Array.from(Uint8Array.from(input.bytes)),
        fPort: input.fPort,
        recvTime: input.recvTime.getTime(),
        variables: input.variables,
      });
    } catch (error) {
      return { data: {}, warnings: [], errors: [`uplink input is not JSON: ${(error as Error).message}`] };
    }
    const outcome = this.call(codec, request);
    if (!outcome.ok) return { data: {}, warnings: [], errors: [outcome.error] };
    const result = readDecodeOutput(outcome.text, this.limits.maxFields, keepShape);
    if (op === 'decodeDownlink' && result.errors[0]?.startsWith('codec defines none'))
      result.errors = ['codec defines no decodeDownlink'];
    return result;
  }

  encodeDownlink(codec: UserCodec, input: CodecDownlinkInput): CodecEncodeResult {
    const fPort = input.fPort ?? 1;
    let request: string;
    try {
      request = JSON.stringify({
        op: 'encode',
        input: { ...input, fPort, variables: input.variables ?? {} },
      });
    } catch (error) {
      return {
        bytes: new Uint8Array(),
        fPort,
        warnings: [],
        errors: [`data is not JSON: ${(error as Error).message}`],
      };
    }
    const outcome = this.call(codec, request);
    if (!outcome.ok) return { bytes: new Uint8Array(), fPort, warnings: [], errors: [outcome.error] };
    return readEncodeOutput(outcome.text, fPort);
  }

  /** Disposes the contexts of one company's codec (after it was edited or deleted), or all of the company's. */
  evict(companyId: number, codecId?: string): void {
    for (const entry of [...this.entries.values()])
      if (entry.companyId === companyId && (codecId === undefined || entry.key === keyOf(companyId, codecId)))
        this.drop(entry);
  }

  dispose(): void {
    for (const entry of [...this.entries.values()]) this.drop(entry);
  }

  private call(codec: UserCodec, request: string): { ok: true; text: string } | { ok: false; error: string } {
    const acquired = this.acquire(codec);
    if (!acquired.ok) return acquired;
    const entry = acquired.entry;
    try {
      const outcome = entry.context.call(request);
      if (entry.context.broken) this.drop(entry);
      return outcome;
    } catch (error) {
      // A failure outside QuickJS's own error handling (the host's stack, a lifetime error):
      // this context cannot be trusted any more.
      this.drop(entry);
      return { ok: false, error: `codec sandbox failed: ${(error as Error).message}` };
    }
  }

  private acquire(codec: UserCodec): { ok: true; entry: Entry } | LoadFailure {
    const key = keyOf(codec.companyId, codec.codecId);
    let hash = this.hashes.get(codec.script);
    if (hash === undefined) {
      hash = scriptHash(codec.script);
      if (this.hashes.size >= this.maxContexts * 2) this.hashes.clear();
      this.hashes.set(codec.script, hash);
    }
    const existing = this.entries.get(key);
    if (existing !== undefined && existing.scriptHash === hash) {
      // Most recently used goes to the end of the Map's order.
      this.entries.delete(key);
      this.entries.set(key, existing);
      return { ok: true, entry: existing };
    }
    // A changed script replaces the old context rather than keeping both.
    if (existing !== undefined) this.drop(existing);
    let loaded: ReturnType<typeof CodecContext.load>;
    try {
      loaded = CodecContext.load(this.module, codec.script, this.limits, this.heapSize);
    } catch (error) {
      return { ok: false, error: `codec sandbox failed: ${(error as Error).message}` };
    }
    if (!loaded.ok) return loaded;
    const entry: Entry = { key, companyId: codec.companyId, scriptHash: hash, context: loaded.context };
    this.entries.set(key, entry);
    while (this.entries.size > this.maxContexts) {
      const oldest = this.entries.values().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
    return { ok: true, entry };
  }

  private drop(entry: Entry): void {
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    try {
      entry.context.dispose();
    } catch {
      // A context stopped half-way may refuse to be freed; it is unreachable either way.
    }
  }
}

/**
 * The first script a fresh WebAssembly instance parses and runs costs some 200 ms (the engine compiles
 * QuickJS's parser and interpreter lazily); without this the first codec loaded would spend its whole
 * load budget on that and be refused as too slow.
 */
function warmUp(module: QuickJSWASMModule): void {
  const runtime = module.newRuntime();
  const context = runtime.newContext();
  try {
    const result = context.evalCode(
      `${BOOTSTRAP};(function () { var b = [1, 2]; return JSON.stringify({ d: b.map(function (x) { return x * 2; }) }); })()`,
    );
    (result.error ?? result.value).dispose();
  } finally {
    context.dispose();
    runtime.dispose();
  }
}

// The key includes the company: two companies never share a context, even for the same script.
const keyOf = (companyId: number, codecId: string) => `${companyId}\u0000${codecId}`;
