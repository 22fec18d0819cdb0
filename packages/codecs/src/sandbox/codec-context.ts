import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { BOOTSTRAP } from './bootstrap.js';
import type { SandboxLimits } from './limits.js';

export type CallOutcome = { ok: true; text: string } | { ok: false; error: string };

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
  ): { ok: true; context: CodecContext } | { ok: false; error: string } {
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

  private boot(script: string): { ok: true; context: CodecContext } | { ok: false; error: string } {
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
    const loaded = context.evalCode(script, 'codec.js', { type: 'global' });
    if (loaded.error) {
      const error = this.describe(loaded.error, 'loading the codec');
      loaded.error.dispose();
      this.dispose();
      return { ok: false, error };
    }
    loaded.value.dispose();
    const held = this.measure();
    if (held > limits.memoryBytes) {
      this.dispose();
      return { ok: false, error: this.overLimit(held) };
    }
    return { ok: true, context: this };
  }

  /** Calls the entry with one JSON request; the JSON text it returns, or why there is none. */
  call(request: string): CallOutcome {
    if (this.entry === undefined || this.broken) return { ok: false, error: 'codec context is disposed' };
    const argument = this.context.newString(request);
    const heapBefore = this.heapSize();
    this.deadline = performance.now() + this.limits.timeoutMs;
    try {
      const result = this.context.callFunction(this.entry, this.context.undefined, argument);
      if (result.error) {
        const error = this.describe(result.error, 'running the codec');
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
