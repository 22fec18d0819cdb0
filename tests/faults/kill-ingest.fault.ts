/**
 * Fault suite (issue #28): ingest of the distributed profile, started as the README says
 * (`node apps/ingest/dist/main.js`) on PostgreSQL and a NATS JetStream of the test's own, takes HTTP uplinks
 * at 200/s, is killed with SIGKILL mid-stream and started again; every uplink that got its 202 is stored (the
 * 202 follows JetStream's acknowledgement, and the storage writer resumes from the stream). The time until a
 * new process answers uplinks again is printed.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { UPLINKS_TOPIC } from '@iot/contracts/uplinks';
import { createTestDb, type TestDb } from '@iot/db/testing';
import { createNatsEventLog } from '@iot/event-log';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, startOwnMosquitto } from '../bench/lib/mosquitto.js';
import { type AppProcess, startApp } from '../support/app-process.js';
import { startOwnNats } from '../support/own-services.js';
import { waitFor } from '../support/wait-for.js';

const RATE_PER_SECOND = 200;
let database: TestDb;
let services: { stop: () => Promise<void> | void }[] = [];
let eventLog: Awaited<ReturnType<typeof createNatsEventLog>>;
let env: Record<string, string>;
let ingestPort: number;
const apps: AppProcess[] = [];

beforeAll(async () => {
  database = await createTestDb('postgres');
  // Services of its own: the apps use their default stream and share-group names.
  const [nats, mosquitto] = await Promise.all([startOwnNats(), startOwnMosquitto()]);
  services = [nats, mosquitto];
  ingestPort = await freePort();
  env = {
    PROFILE: 'distributed',
    DATABASE_URL: database.url ?? '',
    NATS_URL: nats.url,
    MQTT_URL: mosquitto.url,
    HOST: '127.0.0.1',
    INGEST_PORT: String(ingestPort),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
  };
  eventLog = await createNatsEventLog({ servers: nats.url });
});

afterAll(async () => {
  for (const app of apps) await app.stop().catch(() => {});
  await eventLog?.close();
  for (const service of services) await service.stop();
  await database?.drop();
});

/** Starts ingest and waits until it is ready on its health port. */
async function startIngest(): Promise<AppProcess> {
  const healthPort = await freePort();
  const app = startApp('ingest', ['apps/ingest/dist/main.js'], { ...env, HEALTH_PORT: String(healthPort) });
  apps.push(app);
  await waitFor('ingest ready', 120_000, async () => {
    if (app.child.exitCode !== null) throw new Error(`ingest exited:\n${app.output()}`);
    const res = await fetch(`http://127.0.0.1:${healthPort}/health/ready`).catch(() => undefined);
    return res?.status === 200 ? true : undefined;
  });
  return app;
}

/** Posts {temperature: i / 10, message_id} at RATE_PER_SECOND to whichever URL `target()` names. */
function streamUplinks(target: () => string | undefined, token: string) {
  const acknowledged = new Set<number>();
  let seq = 0;
  let firstAfter: { since: number; at?: number } | undefined;
  const timer = setInterval(() => {
    const url = target();
    if (url === undefined) return;
    for (let k = 0; k < RATE_PER_SECOND / 50; k++) {
      const mine = seq++;
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ temperature: mine / 10, message_id: `s${mine}` }),
      }).then(
        (res) => {
          if (res.status !== 202) return;
          acknowledged.add(mine);
          if (firstAfter && firstAfter.at === undefined && url === target()) firstAfter.at = Date.now();
        },
        () => undefined, // the process died before it answered: not acknowledged
      );
    }
  }, 20);
  return {
    acknowledged,
    /** From now, the time of the first 202 from a new process. */
    markKill: () => {
      firstAfter = { since: Date.now() };
    },
    recovery: () => (firstAfter?.at === undefined ? undefined : firstAfter.at - firstAfter.since),
    stop: () => clearInterval(timer),
  };
}

it('loses no acknowledged uplink when ingest is killed with SIGKILL and started again', async () => {
  const company = await database.query<{ id: number }>(
    "INSERT INTO companies (name) VALUES ('Fault test') RETURNING id::int AS id",
  );
  const token = randomBytes(16).toString('hex');
  const device = await database.query<{ id: number; uuid: string }>(
    `INSERT INTO devices (company_id, name, uuid, credentials_hash) VALUES ($1, 'fault sensor', $2, $3)
     RETURNING id::int AS id, uuid`,
    [company.rows[0]!.id, randomUUID(), createHash('sha256').update(token).digest('hex')],
  );
  const { id, uuid } = device.rows[0]!;

  const url = `http://127.0.0.1:${ingestPort}/ingest/v1/uplinks/${uuid}`;
  let current: AppProcess | undefined = await startIngest();
  const stream = streamUplinks(() => current && url, token);
  // Killed mid-stream, once a good number of uplinks went through (a count, not a time: load varies).
  await waitFor('100 acknowledged uplinks', 60_000, async () => stream.acknowledged.size >= 100 || undefined);
  const killed = current;
  stream.markKill();
  current = undefined;
  killed.child.kill('SIGKILL');
  await killed.exited;
  const before = stream.acknowledged.size;
  current = await startIngest();
  await waitFor('50 uplinks acknowledged by the new process', 60_000, async () =>
    stream.acknowledged.size >= before + 50 ? true : undefined,
  );
  stream.stop();
  // Answers in flight arrive.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  console.log(
    `ingest kill -9: ${before} acknowledged before, ${stream.acknowledged.size} in all; a new process answered ${stream.recovery()} ms after the kill`,
  );

  const deadline = Date.now() + 60_000;
  while ((await eventLog.lag(UPLINKS_TOPIC, 'storage-writer')) > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 200));
  // device_data keeps a message id only as its hash (migration 0043): the acknowledged ids are hashed alike.
  const { rows } = await database.query<{ seq: number }>(
    `SELECT g.seq FROM unnest($2::int[]) AS g(seq)
      WHERE NOT EXISTS (SELECT 1 FROM device_data d
                         WHERE d.device_id = $1 AND d.message_hash = device_message_hash('s' || g.seq))`,
    [id, [...stream.acknowledged]],
  );
  const lost = rows.map((row) => Number(row.seq));
  expect({ acknowledged: stream.acknowledged.size, lost }).toEqual({
    acknowledged: stream.acknowledged.size,
    lost: [],
  });
  // Stored once each, though the killed process may have published some that it never answered.
  const { rows: counts } = await database.query<{ n: number; ids: number }>(
    'SELECT count(*)::int AS n, count(DISTINCT message_hash)::int AS ids FROM device_data WHERE device_id = $1',
    [id],
  );
  expect(counts[0]?.n).toBe(counts[0]?.ids);
});
