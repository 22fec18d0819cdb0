import { channel } from 'node:diagnostics_channel';

/**
 * Stage timestamps for the rules benchmark (tests/bench/rules.bench.ts, "stages from publish"): the rules
 * worker and the notifier publish the message ids of their work at a few stage boundaries on Node's
 * diagnostics channel `iot:stage`, so one bench run shows where an uplink's time to its mail goes. Only
 * the benchmark (and a test) subscribes. Without a subscriber `stageHook()` returns undefined and callers
 * skip even computing the ids: one property read per call.
 */
export const STAGE_CHANNEL = 'iot:stage';

export interface StageEvent {
  stage: string;
  messageIds: readonly string[];
}

export type StageHook = (stage: string, messageIds: readonly string[]) => void;

const stages = channel(STAGE_CHANNEL);

const publishStage: StageHook = (stage, messageIds) => {
  stages.publish({ stage, messageIds } satisfies StageEvent);
};

export function stageHook(): StageHook | undefined {
  return stages.hasSubscribers ? publishStage : undefined;
}
