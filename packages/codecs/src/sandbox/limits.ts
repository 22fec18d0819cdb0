/** Resource limits of one user-codec call. */
export interface SandboxLimits {
  /**
   * Memory one codec's runtime may hold (its compiled script, globals and what a call allocates).
   * QuickJS's own limit, as built for WebAssembly, only refuses single allocations above it (it
   * counts no block sizes, measured: 64 buffers of 1 MiB passed a 16 MiB limit), so the sandbox
   * also measures the runtime's real usage after a call that grew the heap, and every
   * `memoryCheckEvery` calls, and disposes a context above this figure.
   */
  memoryBytes: number;
  /** Calls between two exact usage measurements when the heap did not grow (one costs about 30 µs). */
  memoryCheckEvery: number;
  /**
   * Cap of the WebAssembly memory all codecs of one sandbox share. It bounds what a codec can take
   * within one call before the limits above can act (the interrupt handler runs only every few
   * thousand operations): without it one codec grew the process by 2 GiB in 2.4 s. WebAssembly
   * memory never shrinks, so this is also the most the sandbox ever costs the process.
   */
  heapBytes: number;
  /** Wall-clock budget of one decode or encode call. */
  timeoutMs: number;
  /** Budget for loading a codec (parsing and running its top level) when its context is built. */
  loadTimeoutMs: number;
  /**
   * QuickJS's own stack limit. It must trip before the host's native stack does: QuickJS recursion
   * is C recursion inside WebAssembly, and at 512 KiB a plain `function f() { return f() }` overflowed
   * Node's stack first (a host RangeError, not a codec error). 256 KiB allows about 1 500 JS frames.
   */
  maxStackBytes: number;
  /** Largest JSON result a call may return. */
  maxResultChars: number;
  /** Most data fields one decode may produce after flattening. */
  maxFields: number;
}

export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = {
  memoryBytes: 16 * 1024 * 1024,
  memoryCheckEvery: 64,
  heapBytes: 256 * 1024 * 1024,
  timeoutMs: 50,
  loadTimeoutMs: 250,
  maxStackBytes: 256 * 1024,
  maxResultChars: 256 * 1024,
  maxFields: 256,
};
