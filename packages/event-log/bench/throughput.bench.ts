/**
 * Publish + consume throughput of the event log adapters beside a plain in-process array.
 *
 *   npx tsx packages/event-log/bench/throughput.bench.ts [records=200000] [natsRecords=50000]
 *
 * Each run publishes uplink-shaped records (10 000 devices, key = device id) in calls of 1000 while
 * one consumer group takes batches of up to 1000; the clock runs from the first publish until the
 * consumer has seen every record. NATS needs the machine's nats-server at 127.0.0.1:4222; its
 * stream is created for the run and deleted afterwards.
 */
import { randomUUID } from 'node:crypto';
import { createInProcessEventLog } from '../src/in-process/in-process-event-log';
import { createNatsEventLog } from '../src/nats/nats-event-log';
import type { EventLog, PublishRecord } from '../src/types';

const total = Number(process.argv[2] ?? 200_000);
const natsTotal = Number(process.argv[3] ?? 50_000);
const CALL = 1000;
const BATCH = 1000;

function uplinks(count: number): PublishRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const device = `dev-${i % 10_000}`;
    return {
      key: device,
      value: {
        deviceId: device,
        receivedAt: 1_763_700_000_000 + i,
        fields: {
          temperature: 20 + (i % 50) / 10,
          humidity: 40 + (i % 30),
          battery: 3.6,
          rssi: -97,
          snr: 7.5,
        },
      },
    };
  });
}

interface Result {
  name: string;
  records: number;
  ms: number;
}

/** The floor: records pushed into an array and read back in batches, nothing else. */
async function plainArray(records: PublishRecord[], json: boolean): Promise<Result> {
  const start = performance.now();
  const queue: unknown[] = [];
  let seen = 0;
  let head = 0;
  for (let i = 0; i < records.length; i += CALL) {
    for (const record of records.slice(i, i + CALL)) queue.push(json ? JSON.stringify(record.value) : record);
    while (queue.length - head > 0) {
      const batch = queue.slice(head, head + BATCH).map((item) => (json ? JSON.parse(item as string) : item));
      head += batch.length;
      seen += batch.length;
    }
    await Promise.resolve();
  }
  if (seen !== records.length) throw new Error('plain array lost records');
  return {
    name: json ? 'plain array + JSON round trip' : 'plain array',
    records: seen,
    ms: performance.now() - start,
  };
}

async function throughLog(
  name: string,
  log: EventLog,
  topic: string,
  records: PublishRecord[],
): Promise<Result> {
  let seen = 0;
  const ids = new Set<number>();
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });
  const subscription = await log.subscribe(
    topic,
    'bench',
    async (batch) => {
      seen += batch.length;
      for (const record of batch) ids.add((record.value as { receivedAt: number }).receivedAt);
      if (ids.size >= records.length) resolveDone();
    },
    {
      maxBatch: BATCH,
      maxWaitMs: 5,
      onError: (error, info) => console.log(`  ${name}: partition ${info.partition}: ${String(error)}`),
    },
  );
  const start = performance.now();
  for (let i = 0; i < records.length; i += CALL) await log.publish(topic, records.slice(i, i + CALL));
  const published = performance.now() - start;
  await done;
  const ms = performance.now() - start;
  await subscription.stop();
  console.log(
    `  ${name}: publish calls done after ${published.toFixed(0)} ms, all consumed after ${ms.toFixed(0)} ms` +
      `, ${seen - ids.size} redelivered`,
  );
  return { name, records: ids.size, ms };
}

function print(results: Result[]): void {
  console.log(
    `\n${'path'.padEnd(34)} ${'records'.padStart(8)} ${'ms'.padStart(8)} ${'records/s'.padStart(11)}`,
  );
  for (const r of results) {
    const rate = Math.round((r.records / r.ms) * 1000);
    console.log(
      `${r.name.padEnd(34)} ${String(r.records).padStart(8)} ${r.ms.toFixed(0).padStart(8)} ${rate.toLocaleString('en').padStart(11)}`,
    );
  }
}

const results: Result[] = [];
const records = uplinks(total);
results.push(await plainArray(records, false));
results.push(await plainArray(records, true));

const inProcess = createInProcessEventLog({ partitions: 16, capacity: 100_000 });
results.push(await throughLog('in-process (16 partitions)', inProcess, 'uplinks', records));
await inProcess.close();

const nats = await createNatsEventLog({ servers: '127.0.0.1:4222', partitions: 16 });
const topic = `bench_${randomUUID().replaceAll('-', '')}`;
try {
  results.push(await throughLog('NATS JetStream (16 partitions)', nats, topic, uplinks(natsTotal)));
} finally {
  await nats.deleteTopic(topic);
  await nats.close();
}
print(results);
