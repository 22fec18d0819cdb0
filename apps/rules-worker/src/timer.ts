import type { Config } from '@iot/config';
import type { Db } from '@iot/db';
import type { Logger } from '@iot/runtime';
import { evaluateTimerTick } from './evaluate-timer-tick.js';
import { type HousekeepingResult, runHousekeeping } from './housekeeping.js';

/** Hands notify jobs to the queue (the worker's enqueue). */
export type HandOver = (jobs: readonly unknown[]) => Promise<void>;

export interface TimerTickResult extends HousekeepingResult {
  /** Notify jobs handed over, devices judged for no-data checks and rules. */
  jobs: number;
  devices: number;
}

export interface RulesTimer {
  /** Runs one tick now, or joins the one running; resolves when its jobs were handed over. */
  tick(): Promise<TimerTickResult>;
  /** Stops the interval and waits for a running tick. */
  stop(): Promise<void>;
}

/**
 * The rules worker's timer: every `intervalMs` (0: only on `tick()`) the no-data checks and rules
 * (evaluateTimerTick), then housekeeping. Jobs of a tick whose enqueue failed are kept and handed over
 * first at the next tick.
 */
export function startRulesTimer(options: {
  db: Db;
  config: Config;
  log: Logger;
  clock: () => number;
  handOver: HandOver;
  intervalMs: number;
}): RulesTimer {
  const { db, log, clock, handOver } = options;
  let unsent: unknown[] = [];
  let running: Promise<TimerTickResult> | undefined;
  /** Hands `jobs` over; what fails is kept for the next tick. */
  const send = (jobs: unknown[]) =>
    handOver(jobs).catch((error: unknown) => {
      unsent.push(...jobs);
      throw error;
    });
  const tick = () => {
    running ??= (async () => {
      try {
        const retry = unsent;
        unsent = [];
        await send(retry);
        const result = await evaluateTimerTick({ db, now: clock() });
        await send(result.jobs);
        const housekeeping = await runHousekeeping({ db, config: options.config, log, clock });
        return { jobs: result.jobs.length, devices: result.devices, ...housekeeping };
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  const timer =
    options.intervalMs > 0
      ? setInterval(() => {
          tick().catch((error: unknown) => log.error({ err: error }, 'rules timer tick failed'));
        }, options.intervalMs)
      : undefined;
  timer?.unref();
  return {
    tick,
    stop: async () => {
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
