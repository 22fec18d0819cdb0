import type { Config } from '@iot/config';
import type { Db } from '@iot/db';
import type { Logger } from '@iot/runtime';
import { evaluateTimerTick } from './evaluate-timer-tick.js';
import { type HousekeepingResult, runHousekeeping } from './housekeeping.js';
import { evaluateWaterWarnings } from './water-warnings.js';

/** Hands notify jobs to the queue (the worker's enqueue). */
export type HandOver = (jobs: readonly unknown[]) => Promise<void>;

export interface TimerTickResult extends HousekeepingResult {
  /** Notify jobs handed over, devices judged for no-data checks and rules. */
  jobs: number;
  devices: number;
  /** Water usage warnings claimed this tick (null: the water check was not due). */
  waterWarnings: number | null;
}

export interface RulesTimer {
  /** Runs one tick now, or joins the one running; resolves when its jobs were handed over. */
  tick(): Promise<TimerTickResult>;
  /** Runs the water usage check now, due or not (tests, tools); resolves with the warnings claimed. */
  checkWater(): Promise<number>;
  /** Stops the interval and waits for a running tick. */
  stop(): Promise<void>;
}

/**
 * The rules worker's timer: every `intervalMs` (0: only on `tick()`) the no-data checks and rules
 * (evaluateTimerTick), then housekeeping, then (every few minutes) the water usage warnings. Jobs of a tick whose enqueue failed are kept and handed over
 * first at the next tick.
 */
export function startRulesTimer(options: {
  db: Db;
  config: Config;
  log: Logger;
  clock: () => number;
  handOver: HandOver;
  /** Hands notify.water jobs to the queue. */
  handOverWater: HandOver;
  intervalMs: number;
  /**
   * The water usage check runs on the first tick and then on a tick at least this long after the last
   * (it reads a water year of every shared meter; a warning minutes late is still timely). 0: every tick.
   */
  waterIntervalMs?: number;
}): RulesTimer {
  const { db, log, clock, handOver, handOverWater } = options;
  const waterIntervalMs = options.waterIntervalMs ?? 5 * 60_000;
  let lastWater = Number.NEGATIVE_INFINITY;
  let unsent: unknown[] = [];
  let unsentWater: unknown[] = [];
  let running: Promise<TimerTickResult> | undefined;
  /** Hands `jobs` over; what fails is kept for the next tick. */
  const send = (jobs: unknown[]) =>
    handOver(jobs).catch((error: unknown) => {
      unsent.push(...jobs);
      throw error;
    });
  /** The water check when due; its jobs go to the queue, those that fail wait for the next tick. */
  const checkWater = async (force = false): Promise<number | null> => {
    const retry = unsentWater;
    unsentWater = [];
    await handOverWater(retry).catch((error: unknown) => {
      unsentWater.push(...retry);
      throw error;
    });
    const now = clock();
    if (!force && now - lastWater < waterIntervalMs) return null;
    lastWater = now;
    const water = await evaluateWaterWarnings({ db, now });
    if (water.warnings > 0) log.info({ warnings: water.warnings }, 'water usage warnings raised');
    await handOverWater(water.jobs).catch((error: unknown) => {
      unsentWater.push(...water.jobs);
      throw error;
    });
    return water.warnings;
  };
  const tick = () => {
    running ??= (async () => {
      try {
        const retry = unsent;
        unsent = [];
        await send(retry);
        const result = await evaluateTimerTick({ db, now: clock() });
        await send(result.jobs);
        const housekeeping = await runHousekeeping({ db, config: options.config, log, clock });
        const water = await checkWater();
        return { jobs: result.jobs.length, devices: result.devices, ...housekeeping, waterWarnings: water };
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
    checkWater: async () => (await checkWater(true)) ?? 0,
    stop: async () => {
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
