/**
 * The one WebAssembly API the sandbox uses. Node has it; TypeScript types it only in the DOM lib,
 * which the project's strict Node configuration leaves out.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  // Part of the shape so this type also fits where the DOM lib's WebAssembly.Memory is expected
  // (workspaces that include the DOM lib type-check this file too).
  grow(delta: number): number;
}

interface WasmMemoryConstructor {
  new (descriptor: { initial: number; maximum?: number }): WasmMemory;
}

export const WasmMemory = (globalThis as unknown as { WebAssembly: { Memory: WasmMemoryConstructor } })
  .WebAssembly.Memory;
