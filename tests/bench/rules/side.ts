/** A side under test (ours, Node-RED, a floor) as the phases see it, and its publishers. */
import type { EventLoopUtilization } from 'node:perf_hooks';
import { metrics } from '@iot/runtime';
import mqtt, { type MqttClient } from 'mqtt';
import type { MailSink } from './mail-sink.js';
import { CONDITIONS, DEVICES } from './settings.js';
import { traceStage } from './stages.js';

// ------------------------------------------------------------------------------------------ the sides
export interface Publisher {
  client: MqttClient;
  topics: string[];
  next: number;
}

/**
 * Anonymous publishers for the bench's devices `<prefix>/dev<i>/up`, spread round robin over `connections`
 * MQTT connections to `url` (the floor and Node-RED; ours authenticates each device itself).
 */
export function connectPublishers(url: string, prefix: string, connections: number): Promise<Publisher[]> {
  return Promise.all(
    Array.from({ length: connections }, async (_, c) => ({
      client: await mqtt.connectAsync(url, { clientId: `${prefix}-pub-${c}`, reconnectPeriod: 0 }),
      topics: Array.from(
        { length: Math.ceil(DEVICES / connections) },
        (_d, i) => `${prefix}/dev${i * connections + c}/up`,
      ),
      next: 0,
    })),
  );
}

/** Counts the PUBACKs the broker sends to these publishers; answers the count so far. */
export function countPubacks(publishers: readonly Publisher[]): () => number {
  let pubacks = 0;
  for (const p of publishers)
    p.client.on('packetreceive', (packet) => {
      if (packet.cmd === 'puback') pubacks += 1;
    });
  return () => pubacks;
}

export interface Side {
  name: string;
  mail: MailSink;
  publishers: Publisher[];
  /** Uplinks whose ten conditions have been evaluated so far (since the side started). */
  evaluated: () => Promise<number>;
  /** Uplinks accepted so far (PUBACK). */
  accepted: () => number;
  window: number;
  /** Sides in child processes: each child's CPU time so far (us), by role. */
  processCpu?: () => Record<string, number>;
  /** Ours: backlogs sampled during a latency phase (consumer lags of the event log). */
  backlog?: () => Promise<Record<string, number>>;
  /** Ours: when the rules worker's transaction that logged each firing began (epoch ms, by sequence). */
  firedAt?: (fromSeq: number) => Promise<Map<number, number>>;
  /**
   * Ours: when each firing's job key was claimed (job_keys.created_at, epoch ms, by sequence): by the
   * notifier's attempt, or, when the rules worker claims it in its own transaction (the notifier runs
   * in the same process), that transaction's start (PostgreSQL now()).
   */
  claimedAt?: (fromSeq: number) => Promise<Map<number, number>>;
  /** Ours: how long each completed notify job took, claim to completion (job_keys), in ms. */
  jobDurations?: (fromSeq: number) => Promise<number[]>;
  /**
   * Distributed: more stages read back after a phase, epoch ms by sequence (BullMQ's own job fields:
   * `timestamp` when the rules worker added it, `processedOn` when a worker took it, `finishedOn`).
   */
  moreStages?: (fromSeq: number) => Promise<Record<string, Map<number, number>>>;
  /** Ours: why a rule of these uplinks did not notify (device_logs rule_suppressed), by sequence. */
  suppressed?: (seqs: readonly number[]) => Promise<Map<number, string>>;
  /** Ours: stages both profiles write to the database after the send (epoch ms by sequence). */
  dbStages?: (fromSeq: number) => Promise<Record<string, Map<number, number>>>;
  /** Threads besides the main one whose busy share is printed per phase (ours embedded: PGlite's). */
  threads?: Record<string, () => EventLoopUtilization>;
  close: () => Promise<void>;
}

/** One uplink per device in turn; `fire` decides above or below; the body carries the sequence number. */
export function publishNext(side: Side, seq: number, value: number, ack: (ok: boolean) => void): void {
  const p = side.publishers[seq % side.publishers.length] as Publisher;
  const topic = p.topics[p.next++ % p.topics.length] as string;
  const body = JSON.stringify({ message_id: `b${seq}`, ts: Date.now(), temperature: value });
  p.client.publishAsync(topic, body, { qos: 1 }).then(
    () => {
      traceStage('PUBACK received by the publisher', seq);
      ack(true);
    },
    () => ack(false),
  );
}

/**
 * Uplinks the rules workers of this process evaluated so far: their rule evaluation counter (the
 * platform's /metrics `rule_evaluations`) over the ten rules each bench uplink is evaluated against.
 */
export async function evaluatedInProcess(): Promise<number> {
  const { values } = await metrics.ruleEvaluations.get();
  return values.reduce((sum, v) => sum + v.value, 0) / CONDITIONS.length;
}
