/**
 * Fault suite (issue #28): ingest of the distributed profile, in its own process on PostgreSQL and NATS
 * JetStream, takes HTTP uplinks at 200/s, is killed with SIGKILL mid-stream and started again; every uplink
 * that got its 202 is stored (the 202 follows JetStream's acknowledgement, and the storage writer resumes
 * from the stream). The time until a new process answers uplinks again is printed.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createTestDb, type TestDb } from '@iot/db/testing';
import { createNatsEventLog } from '@iot/event-log';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AppProcess, type AppProcessOptions, startAppProcess } from './app-process.js';

const RATE_PER_SECOND = 200;
const run = randomBytes(4).toString('hex');
let database: TestDb;
let eventLog: Awaited<ReturnType<typeof createNatsEventLog>>;
let options: AppProcessOptions;
const apps: AppProcess[] = [];

beforeAll(async () => {
  database = await createTestDb('postgres');
  options = {
    role: 'ingest',
    env: {
      PROFILE: 'distributed',
      DATABASE_URL: database.url ?? '',
      NATS_URL: 'nats://127.0.0.1:4222',
      REDIS_URL: 'redis://127.0.0.1:6379',
      MQTT_URL: 'mqtt://127.0.0.1:1883',
      LOG_LEVEL: 'warn',
    },
    streamPrefix: `fault_${run}_`,
    topic: `uplinks_fault_${run}`,
    queuePrefix: `fault-${run}`,
    shareGroup: `fault-${run}`,
  };
  eventLog = await createNatsEventLog({
    servers: 'nats://127.0.0.1:4222',
    streamPrefix: options.streamPrefix,
  });
});

afterAll(async () => {
  for (const app of apps) await app.stop().catch(() => {});
  await eventLog?.deleteTopic(options.topic).catch(() => {});
  await eventLog?.close();
  await database?.drop();
});

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

  let current: AppProcess | undefined = await startAppProcess(options);
  apps.push(current);
  const stream = streamUplinks(() => current?.httpUrl && `${current.httpUrl}/uplinks/${uuid}`, token);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const killed = current;
  stream.markKill();
  current = undefined;
  await killed.kill9();
  const before = stream.acknowledged.size;
  current = await startAppProcess(options);
  apps.push(current);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  stream.stop();
  // Answers in flight arrive.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  console.log(
    `ingest kill -9: ${before} acknowledged before, ${stream.acknowledged.size} in all; a new process answered ${stream.recovery()} ms after the kill`,
  );
  expect(before).toBeGreaterThan(50);
  expect(stream.acknowledged.size).toBeGreaterThan(before);

  const deadline = Date.now() + 60_000;
  while ((await eventLog.lag(options.topic, 'storage-writer')) > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 200));
  const { rows } = await database.query<{ message_id: string }>(
    'SELECT message_id FROM device_data WHERE device_id = $1',
    [id],
  );
  const stored = new Set(rows.map((row) => row.message_id));
  const lost = [...stream.acknowledged].filter((seq) => !stored.has(`s${seq}`));
  expect({ acknowledged: stream.acknowledged.size, lost }).toEqual({
    acknowledged: stream.acknowledged.size,
    lost: [],
  });
  // Stored once each, though the killed process may have published some that it never answered.
  expect(rows.length).toBe(stored.size);
});
