/** Per-stage timestamps of the traced firing uplinks, from this process and from the apart side's children. */
import type { ChildProcess } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { STAGE_CHANNEL, type StageEvent } from '@iot/runtime';
import { ABOVE_BASE } from './settings.js';

// ------------------------------------------------------------------------------------------- stages
/**
 * What a process of the `distributed-apart` side runs (this file again with IOT_RULES_BENCH_CHILD set):
 * one app as its own `main.ts` starts it, with the bench's isolation (stream prefix, topic, queue
 * prefix, share group) in place of the defaults.
 */
export interface ApartChildOptions {
  role: 'ingest' | 'rules-worker' | 'notifier';
  env: Record<string, string>;
  streamPrefix: string;
  topic: string;
  queuePrefix: string;
  shareGroup: string;
}

/** A stage a child process saw for a traced sequence, sent to the bench every 5 ms: [stage, seq, epoch ms]. */
export type StageRecord = [string, number, number];
export const CHILD = process.env.IOT_RULES_BENCH_CHILD
  ? (JSON.parse(process.env.IOT_RULES_BENCH_CHILD) as ApartChildOptions)
  : undefined;
export const childOutbox: StageRecord[] = [];
/** The bench's child processes: told which sequences are traced (latencyPhase), they send their stages back. */
export const stageRelays = new Set<ChildProcess>();

export function traceSequence(seq: number): void {
  traced.add(seq);
  for (const child of stageRelays) child.send({ trace: seq });
}

export function clearTraced(): void {
  traced.clear();
  for (const child of stageRelays) child.send({ clear: true });
}

/**
 * Per-stage timestamps of the firing uplinks of the running latency phase (epoch ms with sub-ms
 * precision, by sequence number): the bench's own (publish, PUBACK), aedes and the event log (wrapped
 * by ourSide), nodemailer's (patched below, the same module the notifier loads) and whatever the code
 * under test publishes on the diagnostics channel iot:stage (@iot/runtime stageHook).
 */
export const traced = new Set<number>();
export const stageTimes = new Map<string, Map<number, number>>();
export const epochNow = () => performance.timeOrigin + performance.now();
export function traceStage(stage: string, seq: number, at = epochNow()): void {
  if (!traced.has(seq)) return;
  // A child process of the apart side records nothing itself: its stages go to the bench.
  if (CHILD) {
    childOutbox.push([stage, seq, at]);
    return;
  }
  let times = stageTimes.get(stage);
  if (!times) {
    times = new Map();
    stageTimes.set(stage, times);
  }
  if (!times.has(seq)) times.set(seq, at);
}
subscribe(STAGE_CHANNEL, (message) => {
  if (traced.size === 0) return;
  const { stage, messageIds } = message as StageEvent;
  const at = epochNow();
  for (const id of messageIds)
    if (id.charCodeAt(0) === 98 /* b */) traceStage(stage, Number(id.slice(1)), at);
});
/** The sequence number in a bench mail's subject (`bench <ABOVE_BASE + seq>`), or -1. */
function seqOfSubject(subject: unknown): number {
  const m = typeof subject === 'string' ? /^bench (\d+)/.exec(subject) : null;
  return m ? Number(m[1]) - ABOVE_BASE : -1;
}
{
  // nodemailer's steps: sendMail called, handed to the pool (message compiled), a pooled connection
  // assigned, the server's 250 read by the client. Same module instances as the notifier's (hoisted).
  const require = createRequire(import.meta.url);
  const wrap = (path: string, stage: string, after?: string) => {
    const proto = require(path).prototype as Record<string, (...args: unknown[]) => unknown>;
    const original = proto.send ?? proto.sendMail;
    const name = proto.send ? 'send' : 'sendMail';
    proto[name] = function (this: unknown, ...args: unknown[]) {
      // Mailer.sendMail(data): the message's data; the transports' send(mail): a compiled mail with .data.
      const mail = args[0] as { subject?: unknown; data?: { subject?: unknown } };
      const seq = seqOfSubject(mail?.data?.subject ?? mail?.subject);
      if (seq >= 0) {
        traceStage(stage, seq);
        // A pool resource not connected yet: this mail waits for a new connection (greeting, EHLO).
        if ((this as { _connected?: boolean })._connected === false)
          traceStage('smtp: (new connection)', seq);
        const callback = args[1];
        if (after && typeof callback === 'function')
          args[1] = (...result: unknown[]) => {
            traceStage(after, seq);
            return callback(...result);
          };
      }
      return original?.apply(this, args);
    };
  };
  wrap('nodemailer/lib/mailer/index.js', 'smtp: sendMail called');
  wrap('nodemailer/lib/smtp-pool/index.js', 'smtp: compiled, queued in the pool');
  wrap(
    'nodemailer/lib/smtp-pool/pool-resource.js',
    'smtp: connection assigned',
    'smtp: 250 read by the client',
  );
  wrap(
    'nodemailer/lib/smtp-transport/index.js',
    'smtp: compiled, new connection',
    'smtp: 250 read by the client',
  );
}

/** The q-th percentile (nearest rank) of ascending values; NaN for none. */
export function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Count, p50 and p99 of the values (sorted in place). */
export function spread(values: number[]): { n: number; p50: number; p99: number } {
  values.sort((a, b) => a - b);
  return { n: values.length, p50: percentile(values, 50), p99: percentile(values, 99) };
}

/** p50 / p99 of each stage from publish, in order of p50. */
export function stageSummary(
  publishedEpoch: ReadonlyMap<number, number>,
  arrivals: ReadonlyMap<number, number>,
) {
  const all = new Map(stageTimes);
  const accepted = new Map<number, number>();
  for (const [seq, at] of arrivals)
    if (publishedEpoch.has(seq)) accepted.set(seq, at + performance.timeOrigin);
  all.set('mail accepted by the SMTP server (end of DATA)', accepted);
  const rows: { stage: string; n: number; p50: number; p99: number }[] = [];
  for (const [stage, times] of all) {
    const ms = [...times].flatMap(([seq, at]) => {
      const t = publishedEpoch.get(seq);
      return t === undefined ? [] : [at - t];
    });
    if (ms.length > 0) rows.push({ stage, ...spread(ms) });
  }
  return rows.sort((a, b) => a.p50 - b.p50);
}
