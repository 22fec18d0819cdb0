/**
 * Ingest throughput on this machine: the storage writer alone, and end to end (front door -> in-process
 * log -> writer -> database) through the embedded MQTT broker and the HTTP front door.
 *
 *   npx tsx apps/ingest/bench/ingest.bench.ts [pglite|postgres] [uplinks=20000]
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '@iot/config';
import { type Db, migrate, openPglite, openPostgres } from '@iot/db';
import { createInProcessEventLog } from '@iot/event-log';
import mqtt from 'mqtt';
import pg from 'pg';
import { pino } from 'pino';
import { startIngest, type UplinkEnvelope, writeUplinkBatch } from '../src/index.js';
import { createCompany, createDevice, type SeededDevice } from '../src/test-support/seed.js';

const kind = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const total = Number(process.argv[3] ?? 20_000);
const DEVICES = 1000;

async function openBenchDb(): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openPglite();
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const db = openPostgres({ url: `postgres://postgres@127.0.0.1:5432/${name}`, max: 5 });
  await migrate(db);
  return {
    db,
    drop: async () => {
      await db.close();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

const rate = (n: number, ms: number) => `${Math.round((n / ms) * 1000).toLocaleString('en')}/s`;

const { db, drop } = await openBenchDb();
const company = await createCompany(db);
const devices: SeededDevice[] = [];
for (let i = 0; i < DEVICES; i++) devices.push(await createDevice(db, company));

// 1. Storage writer alone: batches of 1000 envelopes.
{
  const start = performance.now();
  const base = Date.now() - 3_600_000;
  for (let done = 0; done < total; done += 1000) {
    const batch: UplinkEnvelope[] = [];
    for (let i = done; i < Math.min(total, done + 1000); i++) {
      const device = devices[i % DEVICES]!;
      const at = new Date(base + i).toISOString();
      batch.push({
        v: 1,
        kind: 'uplink',
        deviceId: device.id,
        companyId: company,
        source: 'mqtt',
        receivedAt: at,
        measuredAt: at,
        messageId: `w${i}`,
        data: { temperature: 20 + (i % 10), humidity: 50, battery_level: 90 },
        rssi: -80,
      });
    }
    await writeUplinkBatch(db, batch);
  }
  console.log(
    `${kind} writer alone: ${total} uplinks in ${Math.round(performance.now() - start)} ms = ${rate(total, performance.now() - start)}`,
  );
}

const eventLog = createInProcessEventLog({ capacity: 100_000 });
const config = loadConfig({ PORT: '0', MQTT_PORT: '0', HOST: '127.0.0.1' });
const ingest = await startIngest({ config, db, log: pino({ level: 'warn' }), eventLog, mqtt: 'embedded' });
const drained = async () => {
  while ((await eventLog.lag('uplinks', 'storage-writer')) > 0) await new Promise((r) => setTimeout(r, 5));
};

// 2. Embedded MQTT, QoS 1, 20 devices publishing at once (each keeps up to 100 in flight).
{
  const senders = devices.slice(0, 20);
  const clients = await Promise.all(
    senders.map((d) =>
      mqtt.connectAsync(`mqtt://127.0.0.1:${ingest.mqttPort}`, {
        username: d.uuid,
        password: d.token,
        reconnectPeriod: 0,
      }),
    ),
  );
  const per = Math.floor(total / senders.length);
  const start = performance.now();
  await Promise.all(
    clients.map(async (client, c) => {
      const topic = `devices/${senders[c]!.uuid}/up`;
      const inflight = new Set<Promise<unknown>>();
      for (let i = 0; i < per; i++) {
        const p = client.publishAsync(
          topic,
          JSON.stringify({ id: `m${c}-${i}`, temperature: 21, humidity: 40 }),
          { qos: 1 },
        );
        inflight.add(p);
        p.finally(() => inflight.delete(p));
        if (inflight.size >= 100) await Promise.race(inflight);
      }
      await Promise.all(inflight);
    }),
  );
  const acked = performance.now() - start;
  await drained();
  const stored = performance.now() - start;
  console.log(
    `${kind} MQTT embedded end to end: ${per * senders.length} uplinks, all PUBACKed in ${Math.round(acked)} ms, stored in ${Math.round(stored)} ms = ${rate(per * senders.length, stored)}`,
  );
  await Promise.all(clients.map((c) => c.endAsync()));
}

// 3. HTTP device uplinks, 64 requests in flight.
{
  const n = Math.floor(total / 2);
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < n) {
        const i = next++;
        const device = devices[i % DEVICES]!;
        const res = await fetch(`${ingest.httpUrl}/uplinks/${device.uuid}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${device.token}` },
          body: JSON.stringify({ id: `h${i}`, temperature: 22 }),
        });
        if (res.status !== 202) throw new Error(`HTTP ${res.status}`);
        await res.arrayBuffer();
      }
    }),
  );
  await drained();
  console.log(
    `${kind} HTTP end to end: ${n} uplinks stored in ${Math.round(performance.now() - start)} ms = ${rate(n, performance.now() - start)}`,
  );
}

await ingest.stop();
await eventLog.close();
await drop();
