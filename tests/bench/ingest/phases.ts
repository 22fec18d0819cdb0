/** The bench's phases: sustained closed loop, open loop at a rate, and each part alone. */
import { randomBytes } from 'node:crypto';
import type { EventLog } from '@iot/event-log';
import mqtt from 'mqtt';
import { startCpu } from '../lib/cpu.js';
import { sleep, waitUntil } from '../lib/wait.js';
import { RssSampler } from './memory.js';
import { closedLoop, noop, type Publisher, publishNext } from './publishers.js';
import { MAX_UNSTORED, OPEN_LOOP_WINDOW, WINDOW } from './settings.js';
import { countSince, cpuGroups, nextSecond, percentile, StoredTracker, type Target } from './target.js';

/** Closed loop: every connection keeps WINDOW QoS 1 publishes in flight for `seconds`. */
export async function sustained(t: Target, publishers: Publisher[], seconds: number) {
  const since = await nextSecond();
  const tracker = new StoredTracker(t.stored, t.stored());
  const rss = new RssSampler(t.servers);
  const platformRss = new RssSampler(t.ingestPids);
  rss.start();
  platformRss.start();
  tracker.start();
  const start = performance.now();
  const end = start + seconds * 1000;
  let accepted = 0;
  const writesBefore = t.writes();
  const gcBefore = t.gcMs();
  const cpu = startCpu(cpuGroups(t));
  const failed = await closedLoop(
    publishers,
    'up',
    end,
    WINDOW,
    () => tracker.publishedAt.length - tracker.count < MAX_UNSTORED,
    () => tracker.publishedAt.push(performance.now()),
    () => {
      accepted += 1;
    },
  );
  const published = tracker.publishedAt.length;
  await waitUntil(() => tracker.count >= accepted, 20_000);
  const cpuReport = cpu();
  await sleep(20);
  tracker.stop();
  rss.stop();
  platformRss.stop();
  const storedSql = await countSince(t.db, t.companyId, since);
  const writes = t.writes() - writesBefore;
  const gcMs = t.gcMs() - gcBefore;
  const duration = (tracker.lastStoredAt - start) / 1000;
  const sorted = [...tracker.latencies].sort((a, b) => a - b);
  return {
    published,
    accepted,
    failed,
    cpu: cpuReport,
    writes,
    gcMs,
    stored: tracker.count,
    storedSql,
    perSecond: tracker.count / duration,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    peakSelf: rss.peakSelf,
    peakServers: rss.peakServers,
    peakIngest: platformRss.peakServers,
  };
}

/**
 * Open loop at `rate` uplinks/s for `seconds`, in-flight unbounded: the platform's back-pressure is all that
 * holds it. Also gives the publish -> stored latency at that rate.
 */
export async function openLoop(t: Target, publishers: Publisher[], rate: number, seconds: number) {
  const since = await nextSecond();
  const base = t.stored();
  const tracker = new StoredTracker(t.stored, base);
  tracker.start();
  let maxPending = 0;
  const rss = new RssSampler(t.servers);
  const platformRss = new RssSampler(t.ingestPids);
  rss.start();
  platformRss.start();
  let maxDepth = 0;
  let maxLag = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      maxDepth = Math.max(maxDepth, await t.eventLog.depth(t.topic));
      maxLag = Math.max(maxLag, await t.eventLog.lag(t.topic, 'storage-writer'));
      // Once a second: lag() on NATS reads the headers of every pending message (packs count as their records).
      await sleep(1000);
    }
  })();
  let published = 0;
  let accepted = 0;
  let failed = 0;
  let pending = 0;
  const before = () => tracker.publishedAt.push(performance.now());
  const acked = (error?: Error) => {
    pending -= 1;
    if (error) failed += 1;
    else accepted += 1;
  };
  const start = performance.now();
  let cursor = 0;
  let slots = 0;
  let heldBack = 0;
  while (performance.now() - start < seconds * 1000) {
    const due = Math.floor(((performance.now() - start) * rate) / 1000) - slots;
    for (let i = 0; i < due; i++) {
      slots += 1;
      const p = publishers[cursor++ % publishers.length] as Publisher;
      if (p.conn.inflight >= OPEN_LOOP_WINDOW) {
        heldBack += 1; // the device's window is full: the platform's back-pressure holds it back
        continue;
      }
      published += 1;
      pending += 1;
      publishNext(p, 'up', before, acked);
    }
    maxPending = Math.max(maxPending, pending);
    await sleep(5);
  }
  const sendSeconds = (performance.now() - start) / 1000;
  const publishEnd = performance.now();
  // Acknowledgements and drain share one 20 s bound, so the phase stays bounded in time.
  const deadline = publishEnd + 20_000;
  await waitUntil(() => pending === 0, deadline - performance.now());
  const ackedAt = performance.now();
  const drained = await waitUntil(async () => t.stored() - base >= accepted, deadline - performance.now());
  const drainMs = performance.now() - publishEnd;
  sampling = false;
  await sampler;
  rss.stop();
  platformRss.stop();
  await sleep(50);
  tracker.stop();
  const sorted = [...tracker.latencies].sort((a, b) => a - b);
  const storedSql = await countSince(t.db, t.companyId, since);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    maxPending,
    rate,
    offeredPerSecond: slots / sendSeconds,
    publishedPerSecond: published / sendSeconds,
    heldBack,
    published,
    accepted,
    failed,
    stored: t.stored() - base,
    storedSql,
    maxDepth,
    maxLag,
    ackWaitMs: ackedAt - publishEnd,
    drainMs,
    drained,
    peakSelf: rss.peakSelf,
    peakServers: rss.peakServers,
    peakIngest: platformRss.peakServers,
  };
}

/**
 * The MQTT path alone, the ceiling of what ingest can receive here: the same publishers, the same closed
 * loop (64 QoS 1 publishes in flight per connection) and as many subscriber connections as ingest has in
 * a share group, whose mqtt.js clients acknowledge at once and store nothing. Topics `bench-mqtt-alone/...`,
 * which ingest does not subscribe to.
 */
export async function mqttAlone(t: Target, publishers: Publisher[], subscribers: number, seconds: number) {
  const url = t.mqttUrl;
  const group = `bench_alone_${randomBytes(3).toString('hex')}`;
  let received = 0;
  const subs = await Promise.all(
    Array.from({ length: subscribers }, async () => {
      const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, protocolVersion: 5 });
      client.on('message', () => {
        received += 1;
      });
      await client.subscribeAsync(`$share/${group}/bench-mqtt-alone/+/up`, { qos: 1 });
      return client;
    }),
  );
  const start = performance.now();
  let published = 0;
  const cpu = startCpu(cpuGroups(t));
  await closedLoop(
    publishers,
    'alone',
    start + seconds * 1000,
    WINDOW,
    () => published - received < MAX_UNSTORED,
    () => {
      published += 1;
    },
    noop,
  );
  await waitUntil(() => received >= published, 10_000);
  const cpuReport = cpu();
  const perSecond = (received / (performance.now() - start)) * 1000;
  await Promise.all(subs.map((c) => c.endAsync()));
  return { perSecond, published, received, cpu: cpuReport };
}

/**
 * The publishers alone: the same closed loop to topics nobody subscribes to, so the broker acknowledges
 * and drops; this process's CPU per uplink is the load generator's own cost.
 */
export async function publishersAlone(t: Target, publishers: Publisher[], seconds: number) {
  const start = performance.now();
  let acknowledged = 0;
  const cpu = startCpu(cpuGroups(t));
  await closedLoop(
    publishers,
    'void',
    start + seconds * 1000,
    WINDOW,
    () => true,
    noop,
    () => {
      acknowledged += 1;
    },
  );
  const cpuReport = cpu();
  return { perSecond: (acknowledged / cpuReport.wallMs) * 1000, acknowledged, cpu: cpuReport };
}

/** The event log alone: records/s through publish (16 publishes of 100 records in flight), no consumer. */
export async function logAlone(eventLog: EventLog, topic: string, seconds: number) {
  const start = performance.now();
  let records = 0;
  const record = { key: '1', value: { v: 1, kind: 'uplink', data: { temperature: 21.5, humidity: 40 } } };
  await Promise.all(
    Array.from({ length: 16 }, async (_, w) => {
      while (performance.now() - start < seconds * 1000) {
        await eventLog.publish(
          topic,
          Array.from({ length: 100 }, (_r, i) => ({ ...record, key: String(w * 100 + i) })),
        );
        records += 100;
      }
    }),
  );
  return (records / (performance.now() - start)) * 1000;
}
