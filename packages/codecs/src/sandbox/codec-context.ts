import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { BOOTSTRAP, CODEC_PREFIX, CODEC_SUFFIX } from './bootstrap.js';
import type { SandboxLimits } from './limits.js';

export type CallOutcome = { ok: true; text: string } | { ok: false; error: string };

/** Why a codec did not load, with the line of its script the error points at when QuickJS names one. */
export interface LoadFailure {
  ok: false;
  error: string;
  line?: number;
}

const MIB = 1024 * 1024;

/**
 * One user codec loaded into its own QuickJS runtime and context. A runtime per codec (not one
 * runtime with many contexts) because the memory limit and the interrupt handler are per runtime,
 * and because contexts of one runtime share its atoms and garbage collector.
 *
 * After a call that fails at the host level (time limit, memory limit, stack overflow) the context
 * is `broken` and must be disposed: QuickJS may have been stopped half-way through anything.
 */
export class CodecContext {
  broken = false;
  /** The entry points the codec's top level defines (decodeUplink, encodeDownlink, ...). */
  functions: string[] = [];
  private factory: QuickJSHandle | undefined;
  private deadline = 0;
  private callsSinceCheck = 0;

  private constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly context: QuickJSContext,
    private entry: QuickJSHandle | undefined,
    private readonly limits: SandboxLimits,
    private readonly heapSize: () => number,
  ) {
    runtime.setInterruptHandler(() => performance.now() > this.deadline);
  }

  /** Builds the runtime, the bootstrap and runs the codec's top level; an error message if that fails. */
  static load(
    module: QuickJSWASMModule,
    script: string,
    limits: SandboxLimits,
    heapSize: () => number,
  ): { ok: true; context: CodecContext } | LoadFailure {
    const runtime = module.newRuntime();
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.maxStackBytes);
    // import() is refused; the promise it returns never even settles, as pending jobs are never run.
    runtime.setModuleLoader(() => {
      throw new Error('modules are not available to codecs');
    });
    const context = runtime.newContext();
    const codec = new CodecContext(runtime, context, undefined, limits, heapSize);
    try {
      return codec.boot(script);
    } catch (error) {
      // A host-level failure half-way through loading: free what was built, then report it.
      try {
        codec.dispose();
      } catch {
        // Nothing more can be done for a runtime that refuses to be freed.
      }
      throw error;
    }
  }

  private boot(script: string): { ok: true; context: CodecContext } | LoadFailure {
    const { context, limits } = this;
    this.deadline = performance.now() + limits.loadTimeoutMs;
    const boot = context.evalCode(BOOTSTRAP, 'bootstrap.js', { type: 'global', strict: true });
    if (boot.error) {
      const error = this.describe(boot.error, 'loading the sandbox');
      boot.error.dispose();
      this.dispose();
      return { ok: false, error };
    }
    this.entry = boot.value;
    const loaded = context.evalCode(CODEC_PREFIX + script + CODEC_SUFFIX, 'codec.js', { type: 'global' });
    if (loaded.error) return this.failLoad(loaded.error, lineCount(script));
    this.factory = loaded.value;
    // Runs the top level once now, so a script that throws there is refused at load, not per uplink.
    const probe = this.run('{"op":"probe"}', limits.loadTimeoutMs, 'loading the codec');
    if (!probe.ok) {
      this.dispose();
      return probe;
    }
    const envelope = JSON.parse(probe.text) as {
      kind: string;
      names?: string[];
      message?: string;
      line?: number;
    };
    if (envelope.kind !== 'probe') {
      this.dispose();
      return {
        ok: false,
        error: `loading the codec failed: ${envelope.message ?? 'unknown error'}`,
        line: envelope.line,
      };
    }
    this.functions = envelope.names ?? [];
    const held = this.measure();
    if (held > limits.memoryBytes) {
      this.dispose();
      return { ok: false, error: this.overLimit(held) };
    }
    return { ok: true, context: this };
  }

  private failLoad(handle: QuickJSHandle, lines: number): LoadFailure {
    const error = this.describe(handle, 'loading the codec');
    // An unclosed brace is found in the suffix that closes the factory: point at the script's last line.
    const found = this.lineOf(handle);
    const line = found === undefined ? undefined : Math.min(found, lines);
    handle.dispose();
    this.dispose();
    return line === undefined ? { ok: false, error } : { ok: false, error, line };
  }

  /** The codec.js line an error's stack names first (QuickJS: "at <fn> (codec.js:12)" or "codec.js:12:5"). */
  private lineOf(handle: QuickJSHandle): number | undefined {
    try {
      const dumped: unknown = this.context.dump(handle);
      const stack = (dumped as { stack?: unknown } | null)?.stack;
      const match = typeof stack === 'string' ? /codec\.js:(\d+)/.exec(stack) : null;
      return match ? Number(match[1]) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Calls the entry with one JSON request; the JSON text it returns, or why there is none. */
  call(request: string): CallOutcome {
    return this.run(request, this.limits.timeoutMs, 'running the codec');
  }

  private run(request: string, budgetMs: number, during: string): CallOutcome {
    if (this.entry === undefined || this.factory === undefined || this.broken)
      return { ok: false, error: 'codec context is disposed' };
    const argument = this.context.newString(request);
    const heapBefore = this.heapSize();
    this.deadline = performance.now() + budgetMs;
    try {
      const result = this.context.callFunction(this.entry, this.context.undefined, argument, this.factory);
      if (result.error) {
        const error = this.describe(result.error, during);
        result.error.dispose();
        this.broken = true;
        return { ok: false, error };
      }
      const value = result.value;
      try {
        // A call that grew the heap may be keeping what it allocated: measure now rather than later.
        // (Growth itself is no verdict: the heap grows in steps of up to 20 %, not by what one call needs.)
        if (this.heapSize() > heapBefore || ++this.callsSinceCheck >= this.limits.memoryCheckEvery) {
          this.callsSinceCheck = 0;
          const held = this.measure();
          if (held > this.limits.memoryBytes) {
            this.broken = true;
            return { ok: false, error: this.overLimit(held) };
          }
        }
        if (this.context.typeof(value) !== 'string') {
          this.broken = true;
          return { ok: false, error: 'codec sandbox returned no result' };
        }
        const text = this.context.getString(value);
        if (text.length > this.limits.maxResultChars)
          return {
            ok: false,
            error: `codec result exceeds ${this.limits.maxResultChars} characters of JSON`,
          };
        return { ok: true, text };
      } finally {
        value.dispose();
      }
    } finally {
      argument.dispose();
    }
  }

  /** Bytes the runtime holds right now, walked by QuickJS itself (exact, but about 30 µs). */
  private measure(): number {
    const handle = this.runtime.computeMemoryUsage();
    try {
      const usage: unknown = this.context.dump(handle);
      const used = (usage as { memory_used_size?: unknown } | null)?.memory_used_size;
      return typeof used === 'number' ? used : 0;
    } finally {
      handle.dispose();
    }
  }

  private overLimit(held: number): string {
    return `codec exceeded its memory limit of ${this.limits.memoryBytes / MIB} MiB (it used ${(held / MIB).toFixed(1)} MiB)`;
  }

  dispose(): void {
    if (!this.context.alive) return;
    this.entry?.dispose();
    this.entry = undefined;
    this.factory?.dispose();
    this.factory = undefined;
    this.context.dispose();
    this.runtime.dispose();
  }

  private describe(handle: QuickJSHandle, during: string): string {
    let name = 'Error';
    let message = 'unknown error';
    try {
      const dumped: unknown = this.context.dump(handle);
      if (typeof dumped === 'object' && dumped !== null) {
        const record = dumped as { name?: unknown; message?: unknown };
        if (typeof record.name === 'string') name = record.name;
        if (typeof record.message === 'string') message = record.message;
      } else message = String(dumped);
    } catch {
      message = 'error value could not be read';
    }
    if (name === 'InternalError' && message === 'interrupted')
      return `codec exceeded its time limit of ${during === 'running the codec' ? this.limits.timeoutMs : this.limits.loadTimeoutMs} ms`;
    if (name === 'InternalError' && message === 'out of memory')
      return `codec exceeded its memory limit of ${this.limits.memoryBytes / MIB} MiB`;
    if (name === 'InternalError' && message === 'stack overflow')
      return `codec exceeded its stack limit of ${this.limits.maxStackBytes / 1024} KiB (recursion too deep)`;
    return `${during} failed: ${name}: ${message}`;
  }
}

function lineCount(script: string): number {
  let lines = 1;
  for (let i = script.indexOf('\n'); i !== -1; i = script.indexOf('\n', i + 1)) lines++;
  return lines;
}
