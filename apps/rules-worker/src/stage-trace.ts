/**
 * Stage timestamps for the rules benchmark (tests/bench/rules.bench.ts, "stages from publish"): when a
 * process-wide hook `globalThis.__iotTrace(stage, messageIds)` is installed (only the benchmark does),
 * the rules worker and the notifier report the message ids of their work at a few stage boundaries, so
 * one bench run shows where an uplink's time to its mail goes. Without the hook a call costs one
 * property read, and callers compute the ids only when it is set.
 */
export type StageHook = (stage: string, messageIds: readonly string[]) => void;

export function stageHook(): StageHook | undefined {
  return (globalThis as { __iotTrace?: StageHook }).__iotTrace;
}
