/**
 * The ingest bench's load generator alone: CPU per QoS 1 publish of its publishers, on their own Mosquitto
 * (shipped configuration), to topics nobody subscribes to (the broker acknowledges and drops).
 *
 *   npx tsx tests/bench/publishers.bench.ts [seconds per variant=5] [rounds=2] [connections=8] [window=64]
 *
 * Variants, alternated round by round so that the machine's other load falls on each alike:
 * - raw: lib/publishers.ts's lean publisher (templated PUBLISH bytes, one socket write per turn), callback loop;
 * - mqttjs: mqtt.js `publish(..., { qos: 1 }, callback)` in the same callback loop;
 * - mqttjs-async: mqtt.js `publishAsync` with a Set of promises and `Promise.race` on a full window, the
 *   loop ingest.bench.ts had before the lean publisher;
 * - payload only: building the uplinks (buildUplink, JSON with message id and time) without publishing,
 *   the floor every variant pays.
 * Each publish carries the same JSON uplink as ingest.bench.ts, for 2000 devices spread over the connections.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { buildUplink, profileOf, type SimDevice } from '@iot/simulator';
import mqtt, { type MqttClient } from 'mqtt';
import { startCpu } from './lib/cpu.js';
import { startOwnMosquitto } from './lib/mosquitto.js';
import { openConnection, type PublishTemplate, type UplinkConnection } from './lib/publishers.js';
import { startRun } from './lib/results.js';

const SECONDS = Number(process.argv[2] ?? 5);
const ROUNDS = Number(process.argv[3] ?? 2);
const CONNECTIONS = Number(process.argv[4] ?? 8);
const WINDOW = Number(process.argv[5] ?? 64);
const DEVICES = 2000;

type Variant = 'raw' | 'mqttjs' | 'mqttjs-async' | 'payload only';
const VARIANTS: Variant[] = ['raw', 'mqttjs', 'mqttjs-async', 'payload only'];

const devices: SimDevice[] = Array.from({ length: DEVICES }, (_, i) => ({
  id: i + 1,
  uuid: randomUUID(),
  name: `bench ${i + 1}`,
  token: '',
  device_type: null,
  driver_id: null,
}));
const state = { clicks: 0, startedAt: Date.now(), rnd: Math.random };
const topicOf = (d: SimDevice) => `bench-void/${d.uuid}/up`;
const payloadOf = (d: SimDevice) => buildUplink(d, profileOf(d, d.id), state, Date.now()).body;
const mine = (c: number) => devices.filter((_d, i) => i % CONNECTIONS === c);

/** The callback loop of ingest.bench.ts: the next publish leaves as a PUBACK arrives. */
async function callbackLoop(conns: UplinkConnection[], endAt: number): Promise<number> {
  let acked = 0;
  await Promise.all(
    conns.map(
      (conn, c) =>
        new Promise<void>((resolve) => {
          const ds = mine(c);
          const templates: PublishTemplate[] = ds.map((d) => conn.template(topicOf(d)));
          let next = 0;
          let finished = false;
          let broken = false;
          const done = (error?: Error) => {
            if (error) broken = true;
            else acked += 1;
            pump();
          };
          const pump = () => {
            if (finished) return;
            let now = performance.now();
            while (!broken && conn.inflight < WINDOW && now < endAt) {
              const i = next++ % ds.length;
              conn.publish(templates[i] as PublishTemplate, payloadOf(ds[i] as SimDevice), done);
              now = performance.now();
            }
            if ((now >= endAt || broken) && conn.inflight === 0) {
              finished = true;
              resolve();
            }
          };
          pump();
        }),
    ),
  );
  return acked;
}

/** The loop ingest.bench.ts had before: publishAsync, a Set of promises, Promise.race on a full window. */
async function asyncLoop(clients: MqttClient[], endAt: number): Promise<number> {
  let acked = 0;
  await Promise.all(
    clients.map(async (client, c) => {
      const ds = mine(c);
      let next = 0;
      const inflight = new Set<Promise<unknown>>();
      while (performance.now() < endAt) {
        const d = ds[next++ % ds.length] as SimDevice;
        const body = Buffer.from(payloadOf(d));
        const sent = client.publishAsync(topicOf(d), body, { qos: 1 }).then(() => {
          acked += 1;
        });
        inflight.add(sent);
        void sent.finally(() => inflight.delete(sent));
        if (inflight.size >= WINDOW) await Promise.race(inflight);
      }
      await Promise.all(inflight);
    }),
  );
  return acked;
}

async function payloadOnly(endAt: number): Promise<number> {
  let n = 0;
  let sink = 0;
  while (performance.now() < endAt) {
    for (let i = 0; i < 1000; i++) sink += payloadOf(devices[n++ % DEVICES] as SimDevice).length;
    await new Promise((r) => setImmediate(r));
  }
  if (sink < 0) console.log(sink);
  return n;
}

const recorder = startRun('publishers', {
  seconds: SECONDS,
  rounds: ROUNDS,
  connections: CONNECTIONS,
  window: WINDOW,
});
/** Per variant over all rounds: publishes, wall ms and the publishers' CPU us. */
const totals = new Map<Variant, { n: number; wallMs: number; cpuUs: number }>();
const mosquitto = await startOwnMosquitto();
const clientId = () => `bench-pubs-${randomBytes(4).toString('hex')}`;
console.log(
  `publishers alone ${new Date().toISOString()} on ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ` +
    `own Mosquitto ${mosquitto.url}; ${CONNECTIONS} connections x ${WINDOW} QoS 1 publishes in flight, ${SECONDS} s per variant`,
);
const rows: Array<Record<string, string>> = [];
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const variant of VARIANTS) {
      const load = loadavg()[0]?.toFixed(2);
      let conns: UplinkConnection[] = [];
      let clients: MqttClient[] = [];
      if (variant === 'raw' || variant === 'mqttjs')
        conns = await Promise.all(
          Array.from({ length: CONNECTIONS }, () =>
            openConnection(variant, { url: mosquitto.url, clientId: clientId() }),
          ),
        );
      if (variant === 'mqttjs-async')
        clients = await Promise.all(
          Array.from({ length: CONNECTIONS }, () =>
            mqtt.connectAsync(mosquitto.url, { clientId: clientId(), reconnectPeriod: 0 }),
          ),
        );
      // A second of warm-up (JIT, buffers), then the measured phase.
      const run = (endAt: number) =>
        variant === 'payload only'
          ? payloadOnly(endAt)
          : variant === 'mqttjs-async'
            ? asyncLoop(clients, endAt)
            : callbackLoop(conns, endAt);
      await run(performance.now() + 1000);
      const cpu = startCpu({ mosquitto: [mosquitto.pid] });
      const n = await run(performance.now() + SECONDS * 1000);
      const r = cpu();
      await Promise.all([...conns.map((c) => c.end()), ...clients.map((c) => c.endAsync())]);
      const row = {
        round: String(round),
        variant,
        'per s': Math.round((n / r.wallMs) * 1000).toLocaleString('en'),
        'us CPU per publish, publishers': ((r.us.self ?? 0) / n).toFixed(1),
        'us CPU per publish, Mosquitto': ((r.us.mosquitto ?? 0) / n).toFixed(1),
        'cores busy, machine': r.machineCores.toFixed(2),
        'load 1 min': load ?? '-',
      };
      rows.push(row);
      const total = totals.get(variant) ?? { n: 0, wallMs: 0, cpuUs: 0 };
      totals.set(variant, {
        n: total.n + n,
        wallMs: total.wallMs + r.wallMs,
        cpuUs: total.cpuUs + (r.us.self ?? 0),
      });
      console.log(JSON.stringify(row));
    }
  }
} finally {
  await mosquitto.stop();
}
console.table(rows);
const cpuPerPublish = (variant: Variant) => {
  const t = totals.get(variant);
  return t ? t.cpuUs / t.n : Number.NaN;
};
for (const [variant, t] of totals) {
  recorder.add({ name: `${variant}: per second`, value: (t.n / t.wallMs) * 1000, unit: '/s' });
  // The lean publisher against mqtt.js in the same loop; the others against the payload floor.
  const baseline =
    variant === 'raw'
      ? cpuPerPublish('mqttjs')
      : variant === 'payload only'
        ? Number.NaN
        : cpuPerPublish('payload only');
  recorder.add({
    name: `${variant}: CPU per publish, publishers`,
    value: cpuPerPublish(variant),
    unit: 'us',
    baseline,
  });
}
recorder.save();
process.exit(0);
