/** The latency phases (a rate, some uplinks firing) and the throughput phase (nothing fires, closed loop). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type EventLoopUtilization, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { type Db, pgliteWorkerOf } from '@iot/db';
import { ABOVE_BASE, BELOW, CONDITIONS, DRAIN_MS, sleep } from './settings.js';
import { type Publisher, publishNext, type Side } from './side.js';
import {
  clearTraced,
  epochNow,
  percentile,
  spread,
  stageRelays,
  stageSummary,
  stageTimes,
  traceSequence,
} from './stages.js';

/**
 * How the firing uplinks of the 1 in 50 phase are spread: `steady` (default) gives each device its own
 * phase, so the firings come evenly (20 mails/s at 1k uplinks/s: one every 50 ms); `burst`, how the bench
 * ran before 2026-11-21 16:00 UTC, fires every device in the same round of 100 uplinks: 100 mails within
 * 100 ms every 5 s, and an 8 s phase is one such burst. The burst measured mostly the SMTP pool opening
 * new connections (smtp-server holds each greeting 100 ms), which the floor line shows too.
 */
export const FIRING = process.env.RULES_BENCH_FIRING === 'burst' ? 'burst' : 'steady';

/**
 * Values per device: `period - 1` below, then one above. Period 2 alternates, so each device's "above"
 * uplinks fire exactly once each (the "below" ends the episode and re-arms the rule). Steady: a device's
 * count starts at its index (order of first publish) modulo (period - 1).
 */
class Pattern {
  private readonly count = new Map<string, number>();
  constructor(
    private readonly publishers: Publisher[],
    private readonly period: number,
  ) {}
  above(seq: number): boolean {
    const p = this.publishers[seq % this.publishers.length] as Publisher;
    const topic = p.topics[p.next % p.topics.length] as string;
    // Offsets 0 .. period - 2: no device fires on its first uplink of a phase, which must end the
    // episode the phase before may have left open (the warm-up ends above).
    const n =
      this.count.get(topic) ??
      (FIRING === 'steady' && this.period > 2 ? this.count.size % (this.period - 1) : 0);
    this.count.set(topic, n + 1);
    return n % this.period === this.period - 1;
  }
}

export let sequence = 0;

/**
 * Event loop delay of the process during a phase: everything of a side runs on this one thread (PGlite
 * too), so a blocked loop delays every socket, SMTP round trips included.
 */
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

export async function latencyPhase(side: Side, rate: number, seconds: number, period: number) {
  loopDelay.reset();
  const busyFrom = threadBusy(side);
  const pattern = new Pattern(side.publishers, period);
  const publishedAt = new Map<number, number>();
  const publishedEpoch = new Map<number, number>();
  const firstSeq = sequence;
  const maxBacklog: Record<string, number> = {};
  let sampling = true;
  const sampler = (async () => {
    while (sampling && side.backlog) {
      for (const [k, v] of Object.entries(await side.backlog()))
        maxBacklog[k] = Math.max(maxBacklog[k] ?? 0, v);
      await sleep(100);
    }
  })();
  let published = 0;
  let failed = 0;
  const start = performance.now();
  let slots = 0;
  while (performance.now() - start < seconds * 1000) {
    const due = Math.floor(((performance.now() - start) * rate) / 1000) - slots;
    for (let i = 0; i < due; i++) {
      slots += 1;
      const seq = sequence++;
      const above = pattern.above(seq);
      if (above) {
        publishedAt.set(seq, performance.now());
        publishedEpoch.set(seq, epochNow());
        traceSequence(seq);
      }
      published += 1;
      publishNext(side, seq, above ? ABOVE_BASE + seq : BELOW, (ok) => {
        if (!ok) failed += 1;
      });
    }
    await sleep(2);
  }
  const sendSeconds = (performance.now() - start) / 1000;
  const loop = {
    p50: loopDelay.percentile(50) / 1e6,
    p99: loopDelay.percentile(99) / 1e6,
    max: loopDelay.max / 1e6,
  };
  const end = performance.now();
  const delivered = () => [...publishedAt.keys()].filter((s) => side.mail.arrivals.has(s)).length;
  while (delivered() < publishedAt.size && performance.now() - end < DRAIN_MS) await sleep(50);
  const drainMs = performance.now() - end;
  const busy = busyFrom();
  sampling = false;
  await sampler;
  // Stage: publish -> the rules worker's transaction that logged the firing (its start, PostgreSQL now()).
  const stage = async (read?: (fromSeq: number) => Promise<Map<number, number>>) => {
    if (!read) return { n: 0, p50: Number.NaN, p99: Number.NaN };
    const at = await read(firstSeq);
    return spread([...publishedEpoch].flatMap(([s, t]) => (at.has(s) ? [(at.get(s) as number) - t] : [])));
  };
  // The child processes of the apart side send their stages every 5 ms: let the last ones arrive.
  if (stageRelays.size > 0) await sleep(50);
  const stages = stageSummary(publishedEpoch, side.mail.arrivals);
  dumpStages(publishedEpoch, side.mail.arrivals, period);
  clearTraced();
  stageTimes.clear();
  // Mails that never came: did their rule decline to fire (and why), or was nothing logged for them?
  const missing = [...publishedAt.keys()].filter((q) => !side.mail.arrivals.has(q));
  const missingWhy: Record<string, number> = {};
  if (missing.length > 0 && side.suppressed) {
    const why = await side.suppressed(missing);
    for (const q of missing) {
      const reason = why.get(q) ?? 'no suppression logged';
      missingWhy[reason] = (missingWhy[reason] ?? 0) + 1;
    }
  }
  const fired = await stage(side.firedAt);
  const claimed = await stage(side.claimedAt);
  const more: Record<string, { n: number; p50: number; p99: number }> = {};
  for (const read of [side.moreStages, side.dbStages]) {
    if (!read) continue;
    const maps = await read(firstSeq);
    for (const [name, map] of Object.entries(maps)) more[name] = await stage(async () => map);
  }
  const job = spread(side.jobDurations ? await side.jobDurations(firstSeq) : []);
  // Mails not delivered within the drain bound count as infinitely late: p99 is then at least that late.
  const latencies = [...publishedAt].map(
    ([s, t]) => (side.mail.arrivals.get(s) ?? Number.POSITIVE_INFINITY) - t,
  );
  latencies.sort((a, b) => a - b);
  const pct = (q: number) => percentile(latencies, q);
  return {
    offered: published / sendSeconds,
    published,
    failed,
    expected: publishedAt.size,
    delivered: delivered(),
    p50: pct(50),
    p99: pct(99),
    max: latencies.at(-1) ?? Number.NaN,
    drainMs,
    maxBacklog,
    fired,
    claimed,
    more,
    job,
    loop,
    busy,
    stages,
    missingWhy,
  };
}

/**
 * RULES_BENCH_STAGE_DUMP=<dir>: every traced uplink's stage times (ms from its publish) of each latency
 * phase, one JSON file per phase, to read how the stages of one uplink add up (the summary's p50 / p99
 * of each stage from publish do not say which stage a late mail lost its time in).
 */
function dumpStages(
  publishedEpoch: ReadonlyMap<number, number>,
  arrivals: ReadonlyMap<number, number>,
  period: number,
): void {
  const dir = process.env.RULES_BENCH_STAGE_DUMP;
  if (!dir) return;
  const uplinks: Record<string, Record<string, number>> = {};
  for (const [seq, published] of publishedEpoch) {
    const row: Record<string, number> = {};
    for (const [stage, times] of stageTimes) {
      const at = times.get(seq);
      if (at !== undefined) row[stage] = at - published;
    }
    const mail = arrivals.get(seq);
    if (mail !== undefined) row['mail accepted'] = mail + performance.timeOrigin - published;
    uplinks[seq] = row;
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `stages-1in${period}-${Date.now()}.json`), JSON.stringify(uplinks));
}

/** The PGlite worker thread of an embedded platform's database, when it has one. */
export function pgliteThread(db: Db): Record<string, () => EventLoopUtilization> {
  const worker = pgliteWorkerOf(db);
  return worker ? { PGlite: () => worker.performance.eventLoopUtilization() } : {};
}

/**
 * How busy the main thread and the side's other threads were from now until the returned function is
 * called (event loop utilization: time not idle in the loop): the share of the time, and the busy time
 * itself. A thread near 100 % is where a phase queues; the busy time is the work the phase's uplinks and
 * mails cost that thread, which compares across runs even when their backlogs differ.
 */
function threadBusy(side: Side): () => Record<string, { share: number; ms: number }> {
  const threads: Record<string, () => EventLoopUtilization> = {
    main: () => performance.eventLoopUtilization(),
    ...side.threads,
  };
  const start = Object.fromEntries(Object.entries(threads).map(([name, read]) => [name, read()]));
  return () =>
    Object.fromEntries(
      Object.entries(threads).map(([name, read]) => {
        const { utilization, active } = performance.eventLoopUtilization(read(), start[name]);
        return [name, { share: utilization, ms: active }];
      }),
    );
}

export async function throughputPhase(side: Side, seconds: number) {
  // Start from an idle path: everything published before has been evaluated.
  const idleBy = performance.now() + DRAIN_MS;
  let before = await side.evaluated();
  while (before < side.accepted() && performance.now() < idleBy) {
    await sleep(50);
    before = await side.evaluated();
  }
  let published = 0;
  let failed = 0;
  let evaluated = 0;
  const cpuFrom = process.cpuUsage();
  const childCpuFrom = side.processCpu?.() ?? {};
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    evaluated = (await side.evaluated()) - before;
    const room = side.window - (published - evaluated);
    for (let i = 0; i < room; i++) {
      published += 1;
      publishNext(side, sequence++, BELOW, (ok) => {
        if (!ok) failed += 1;
      });
    }
    await sleep(5);
  }
  // The phase ends with the last evaluation: uplinks lost on the way (a broker dropping them) must not
  // count the drain bound as working time.
  const end = performance.now();
  let lastProgress = end;
  while (
    evaluated < published - failed &&
    performance.now() - lastProgress < 3_000 &&
    performance.now() - end < DRAIN_MS
  ) {
    await sleep(5);
    const now = (await side.evaluated()) - before;
    if (now > evaluated) lastProgress = performance.now();
    evaluated = now;
  }
  const ms = (evaluated < published - failed ? lastProgress : performance.now()) - start;
  const cpu = process.cpuUsage(cpuFrom);
  const childCpu = Object.entries(side.processCpu?.() ?? {}).map(
    ([role, us]) => [role, (us - (childCpuFrom[role] ?? 0)) / Math.max(evaluated, 1)] as const,
  );
  return {
    /** Each child process's CPU per uplink evaluated (us), by role. */
    childCpuUsPerUplink: Object.fromEntries(childCpu),
    // This process's CPU (every thread: PGlite's worker too) per uplink evaluated: unlike the rate, it
    // moves little when other work shares the machine. Sides in child processes count only the bench's.
    cpuUsPerUplink: (cpu.user + cpu.system) / Math.max(evaluated, 1),
    published,
    failed,
    evaluated,
    uplinksPerSecond: (evaluated / ms) * 1000,
    evaluationsPerSecond: ((evaluated * CONDITIONS.length) / ms) * 1000,
  };
}
