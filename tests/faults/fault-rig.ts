/**
 * What the fault suite's cases share (issue #28): services of the test's own (PostgreSQL, Redis, NATS
 * JetStream, Mosquitto; each restartable without touching the suites beside it), a test SMTP server, a
 * fleet whose rule mails on every other uplink of a device, the apps of the distributed profile each in a
 * process of its own, a steady load of HTTP uplinks, and the accounting at the end: acknowledged uplinks
 * against stored ones, firings in the database against mails at the SMTP server.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UPLINKS_TOPIC } from '@iot/contracts/uplinks';
import { createTestDb, type TestDb } from '@iot/db/testing';
import { readMail, startTestSmtp, type TestSmtp } from '@iot/delivery/testing/smtp';
import { createNatsEventLog } from '@iot/event-log';
import { type AppProcess, startApp } from '../support/app-process.js';
import {
  freePort,
  type OwnService,
  startOwnMosquitto,
  startOwnNats,
  startOwnPostgres,
  startOwnRedis,
} from '../support/own-services.js';
import { waitFor } from '../support/wait-for.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The rule fires at or above this; an "above" uplink carries ABOVE_BASE + its sequence number. */
const THRESHOLD = 500_000;
const ABOVE_BASE = 1_000_000;
export type AppName = 'ingest' | 'rules-worker' | 'notifier';
export type ServiceName = 'postgres' | 'redis' | 'nats' | 'mosquitto';

export interface RigApp extends AppProcess {
  healthPort: number;
  /** Ingest only: its HTTP front door. */
  ingestUrl?: string;
  /** The process's Prometheus counter `name` summed over its labels (0 when absent). */
  counter: (name: string) => Promise<number>;
}

export interface FaultRig {
  services: Record<ServiceName, OwnService>;
  smtp: TestSmtp;
  db: TestDb;
  devices: { id: number; uuid: string; token: string }[];
  /** Starts an app and waits until it answers ready; `port`: ingest's HTTP port (to start it again on it). */
  start: (app: AppName, port?: number) => Promise<RigApp>;
  /** Consumer lag of a group on the uplinks stream (NaN while NATS cannot be asked). */
  lag: (group: 'storage-writer' | 'rules-worker') => Promise<number>;
  /** The end of each app's output (for a failure's message). */
  outputs: () => string;
  close: () => Promise<void>;
}

/** Services, SMTP server, database and fleet; no app runs yet. */
export async function startFaultRig(devices = 6): Promise<FaultRig> {
  const [postgres, redis, nats, mosquitto, smtp] = await Promise.all([
    startOwnPostgres(),
    startOwnRedis(),
    startOwnNats(),
    startOwnMosquitto(),
    startTestSmtp(),
  ]);
  const services = { postgres, redis, nats, mosquitto };
  const db = await createTestDb('postgres', { adminUrl: postgres.url });
  const fleet = await createFleet(db, devices);
  const eventLog = await createNatsEventLog({ servers: nats.url });
  const env = {
    PROFILE: 'distributed',
    DATABASE_URL: db.url ?? '',
    NATS_URL: nats.url,
    REDIS_URL: redis.url,
    MQTT_URL: mosquitto.url,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'faults@platform.test',
    HOST: '127.0.0.1',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
  };
  const apps: AppProcess[] = [];
  return {
    services,
    smtp,
    db,
    devices: fleet,
    start: async (app, port) => {
      const started = await startRigApp(app, env, port);
      apps.push(started);
      return started;
    },
    outputs: () => apps.map((app) => `--- ${app.name}:\n${app.output().slice(-3000)}`).join('\n'),
    lag: (group) => eventLog.lag(UPLINKS_TOPIC, group).catch(() => Number.NaN),
    close: async () => {
      // FAULT_OUTPUT_DIR keeps each app's whole output (a diagnosis beyond the failure message's tail).
      const keep = process.env.FAULT_OUTPUT_DIR;
      const run = Date.now();
      for (const [i, app] of keep ? apps.entries() : []) {
        writeFileSync(join(keep ?? '', `${run}-${i}-${app.name}.log`), app.output());
      }
      await Promise.all(apps.map((app) => app.stop().catch(() => null)));
      await eventLog.close().catch(() => {});
      await db.drop().catch(() => {});
      await smtp.close();
      for (const service of Object.values(services)) await service.stop().catch(() => {});
    },
  };
}

/** One app as `node apps/<app>/dist/main.js`, ready on its health port. */
async function startRigApp(app: AppName, env: Record<string, string>, port?: number): Promise<RigApp> {
  const healthPort = await freePort();
  const ingestPort = app === 'ingest' ? (port ?? (await freePort())) : undefined;
  const started = startApp(app, [`apps/${app}/dist/main.js`], {
    ...env,
    HEALTH_PORT: String(healthPort),
    ...(ingestPort ? { INGEST_PORT: String(ingestPort) } : {}),
  });
  await waitFor(`${app} ready`, 120_000, async () => {
    if (started.child.exitCode !== null) throw new Error(`${app} exited:\n${started.output()}`);
    const res = await fetch(`http://127.0.0.1:${healthPort}/health/ready`).catch(() => undefined);
    return res?.status === 200 ? true : undefined;
  });
  return {
    ...started,
    healthPort,
    ...(ingestPort ? { ingestUrl: `http://127.0.0.1:${ingestPort}` } : {}),
    counter: async (name) => {
      const res = await fetch(`http://127.0.0.1:${healthPort}/metrics`);
      const lines = (await res.text())
        .split('\n')
        .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
      return lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    },
  };
}

/** A company, `n` devices, and per device a rule `temperature >= THRESHOLD` with an email action. */
async function createFleet(db: TestDb, n: number) {
  const { rows: company } = await db.query<{ id: number }>(
    "INSERT INTO companies (name) VALUES ('Fault suite') RETURNING id::int AS id",
  );
  const companyId = company[0]?.id;
  const tokens = Array.from({ length: n }, () => randomBytes(16).toString('hex'));
  const { rows: devices } = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO devices (company_id, name, uuid, credentials_hash)
     SELECT $1, 'fault ' || t.i, t.u::uuid, t.h FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(u, h, i)
     ORDER BY t.i RETURNING id::int AS id, uuid::text AS uuid`,
    [
      companyId,
      tokens.map(() => randomUUID()),
      tokens.map((t) => createHash('sha256').update(t).digest('hex')),
    ],
  );
  const { rows: rules } = await db.query<{ id: number }>(
    `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value)
     SELECT $1, d.id, 'too hot', 'data', 'temperature', 'gte', $3 FROM unnest($2::bigint[]) AS d(id)
     RETURNING id::int AS id`,
    [companyId, devices.map((d) => d.id), THRESHOLD],
  );
  await db.query(
    `INSERT INTO rule_actions (company_id, rule_id, position, type, recipients, subject, body)
     SELECT $1, r.id, 0, 'email', ARRAY['ops@example.test'], 'fault {value}', '{device}: {value} at {time}'
     FROM unnest($2::bigint[]) AS r(id)`,
    [companyId, rules.map((r) => r.id)],
  );
  return devices.map((d, i) => ({ ...d, token: tokens[i] ?? '' }));
}

export interface Load {
  /** Sequence numbers answered 202, with the time of the answer. */
  acknowledged: Map<number, number>;
  /** How many devices take turns (uplink seq goes to device seq % devices). */
  devices: number;
  /** Which front door acknowledged each (index into the targets). */
  door: Map<number, number>;
  sent: () => number;
  /** Time of the first 202 after `since` (undefined: none yet). */
  firstAckAfter: (since: number) => number | undefined;
  stop: () => Promise<void>;
}

/**
 * Posts uplinks at `rate` per second, round robin over the devices and over `targets()` (the ingest URLs
 * up now, as a load balancer would). Uplink `seq` goes to device `seq % devices`; a device's uplinks
 * alternate above and below the threshold, so each of its "above" uplinks starts a new episode and fires.
 */
export function startLoad(
  rig: FaultRig,
  targets: () => readonly string[],
  devices: readonly FaultRig['devices'][number][] = rig.devices,
  rate = 60,
): Load {
  const acknowledged = new Map<number, number>();
  const door = new Map<number, number>();
  const inFlight = new Set<Promise<void>>();
  let seq = 0;
  const n = devices.length;
  const timer = setInterval(() => {
    const urls = targets();
    if (urls.length === 0) return;
    for (let k = 0; k < rate / 20; k++) {
      const mine = seq++;
      const device = devices[mine % n];
      const target = mine % urls.length;
      if (!device) continue;
      const request = fetch(`${urls[target]}/ingest/v1/uplinks/${device.uuid}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${device.token}` },
        body: JSON.stringify({
          temperature: isAbove(mine, n) ? ABOVE_BASE + mine : 1,
          message_id: `s${mine}`,
        }),
        signal: AbortSignal.timeout(20_000),
      }).then(
        (res) => {
          if (res.status !== 202) return;
          acknowledged.set(mine, Date.now());
          door.set(mine, target);
        },
        () => undefined, // refused or died before it answered: not acknowledged
      );
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
    }
  }, 50);
  return {
    acknowledged,
    devices: n,
    door,
    sent: () => seq,
    firstAckAfter: (since) => {
      let first: number | undefined;
      for (const at of acknowledged.values())
        if (at > since && (first === undefined || at < first)) first = at;
      return first;
    },
    stop: async () => {
      clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}

const isAbove = (seq: number, devices: number) => Math.floor(seq / devices) % 2 === 0;

/** Waits until `count` more uplinks were acknowledged than now. */
export async function waitForAcks(load: Load, count: number, timeoutMs = 60_000): Promise<void> {
  const target = load.acknowledged.size + count;
  await waitFor(`${count} more acknowledged uplinks`, timeoutMs, async () =>
    load.acknowledged.size >= target ? true : undefined,
  );
}

/** The Message-IDs of the mails received so far, one per copy, by the uplink sequence number in the subject. */
function mailIds(smtp: TestSmtp): Map<number, string[]> {
  const ids = new Map<number, string[]>();
  for (const mail of smtp.received) {
    const match = /^fault (\d+)$/.exec(readMail(mail).subject);
    if (!match) continue;
    const seq = Number(match[1]) - ABOVE_BASE;
    const id = /^Message-ID:\s*(\S+)/im.exec(mail.data)?.[1] ?? '';
    ids.set(seq, [...(ids.get(seq) ?? []), id]);
  }
  return ids;
}

/** The sequence numbers of the mails received so far, by how often each came. */
export function mailCounts(smtp: TestSmtp): Map<number, number> {
  return new Map([...mailIds(smtp)].map(([seq, ids]) => [seq, ids.length]));
}

/** Device log entries of `kind` (rule_fired, rule_suppressed) by uplink sequence number, with how often. */
async function logCounts(db: TestDb, kinds: readonly string[]): Promise<Map<number, number>> {
  const { rows } = await db.query<{ seq: number; n: number }>(
    `SELECT substr(payload->>'messageId', 2)::int AS seq, count(*)::int AS n FROM device_logs
     WHERE payload->>'kind' = ANY($1::text[]) AND payload->>'messageId' ~ '^s[0-9]+$' GROUP BY 1`,
    [kinds],
  );
  return new Map(rows.map((r) => [Number(r.seq), Number(r.n)]));
}

const firingCounts = (db: TestDb) => logCounts(db, ['rule_fired']);

/**
 * The rig's stored uplinks with their sequence numbers: device_data keeps a message id only as its hash
 * (migration 0043), so the hashes of the ids sent (`s0` to `s<sent>`, `$1`) are joined to the stored ones.
 */
const RIG_DATA_SQL = `(SELECT g.seq, d.device_id, d.created_at, d.data
     FROM generate_series(0, $1::int) AS g(seq)
     JOIN device_data d ON d.message_hash = device_message_hash('s' || g.seq))`;

/** Stored uplinks above the threshold whose device's previous stored uplink (by time) was below. */
async function aboveAfterBelow(db: TestDb, sent: number): Promise<number[]> {
  const { rows } = await db.query<{ seq: number }>(
    `SELECT seq FROM (
       SELECT seq, (data->>'temperature')::float8 AS value,
              lag((data->>'temperature')::float8) OVER (PARTITION BY device_id ORDER BY created_at) AS previous
       FROM ${RIG_DATA_SQL} AS rig) AS t
     WHERE value >= $2 AND previous < $2`,
    [sent, THRESHOLD],
  );
  return rows.map((r) => Number(r.seq));
}

async function deviceLogs(db: TestDb, seqs: number[]): Promise<string[]> {
  if (seqs.length === 0) return [];
  const { rows } = await db.query<{ line: string }>(
    `SELECT device_id || ' ' || created_at::text || ' ' || message || ' ' || payload::text AS line FROM device_logs
     WHERE payload->>'messageId' = ANY($1::text[]) ORDER BY id`,
    [seqs.map((seq) => `s${seq}`)],
  );
  const { rows: data } = await db.query<{ line: string }>(
    `SELECT 'data ' || d.device_id || ' s' || g.seq || ' ' || d.created_at::text || ' ' || d.data::text AS line
       FROM unnest($1::int[]) AS g(seq) JOIN device_data d ON d.message_hash = device_message_hash('s' || g.seq)`,
    [seqs],
  );
  return [...rows, ...data].map((r) => r.line);
}

export interface Accounting {
  acknowledged: number;
  /** Acknowledged and not stored. */
  lostUplinks: number[];
  /** Stored more than once. */
  storedTwice: number[];
  /** Stored "above" uplinks without a firing or a suppression in the device log: not evaluated. */
  notEvaluated: number[];
  /** Fired or suppressed more than once: evaluated twice. */
  evaluatedTwice: number[];
  /**
   * Stored "above" uplinks after a "below" of their device (by time, to the second) that did not fire.
   * Not all lost: uplinks of one device that reach the log out of order during an outage are evaluated
   * in log order (apps/rules-worker README "Order"), and their device log says why they did not fire.
   */
  notFired: number[];
  /** What the device log says of the first of them and of their predecessors (a diagnosis). */
  notFiredLogs: string[];
  /** Logged as fired more than once (evaluated twice). */
  firedTwice: number[];
  firings: number;
  mails: number;
  /** Fired, no mail. */
  lostMails: number[];
  /** Mailed more than once. */
  mailedTwice: number[];
  /** Mailed more than once with different Message-IDs (a recipient's mail store cannot tell them apart). */
  mailedTwiceUnlike: number[];
  /** Mailed without a firing. */
  mailedUnfired: number[];
}

/**
 * Waits until the storage writer and the rules worker have caught up and the mails stopped coming (or
 * `timeoutMs`), then compares: acknowledged with stored uplinks, fired with acknowledged "above" uplinks,
 * mails with firings.
 */
export async function account(rig: FaultRig, load: Load, timeoutMs = 120_000): Promise<Accounting> {
  const until = Date.now() + timeoutMs;
  await waitFor('the log consumed', timeoutMs, async () =>
    (await rig.lag('storage-writer')) === 0 && (await rig.lag('rules-worker')) === 0 ? true : undefined,
  );
  let firings = await firingCounts(rig.db);
  // A killed notifier's jobs come back once their claims' lease ran out (twice the job's 30 s timeout).
  while (Date.now() < until) {
    const mails = mailCounts(rig.smtp);
    if ([...firings.keys()].every((seq) => mails.has(seq))) break;
    await sleep(1000);
    firings = await firingCounts(rig.db);
  }
  await sleep(2000); // a mail sent twice would come now
  const mails = mailCounts(rig.smtp);
  const sent = load.sent();
  const { rows } = await rig.db.query<{ seq: number; n: number }>(
    `SELECT seq, count(*)::int AS n FROM ${RIG_DATA_SQL} AS rig GROUP BY 1`,
    [sent],
  );
  const stored = new Map(rows.map((r) => [Number(r.seq), Number(r.n)]));
  const n = load.devices;
  const acked = [...load.acknowledged.keys()].sort((a, b) => a - b);
  const notFired = (await aboveAfterBelow(rig.db, sent)).filter((seq) => !firings.has(seq));
  const evaluated = await logCounts(rig.db, ['rule_fired', 'rule_suppressed']);
  const { rows: above } = await rig.db.query<{ seq: number }>(
    `SELECT seq FROM ${RIG_DATA_SQL} AS rig WHERE (data->>'temperature')::float8 >= $2`,
    [sent, THRESHOLD],
  );
  return {
    acknowledged: acked.length,
    lostUplinks: acked.filter((seq) => !stored.has(seq)),
    storedTwice: [...stored].filter(([, count]) => count > 1).map(([seq]) => seq),
    notEvaluated: above.map((r) => Number(r.seq)).filter((seq) => !evaluated.has(seq)),
    evaluatedTwice: [...evaluated].filter(([, count]) => count > 1).map(([seq]) => seq),
    notFired,
    notFiredLogs: await deviceLogs(rig.db, [
      ...notFired.slice(0, 5),
      ...notFired.slice(0, 5).map((s) => s - n),
    ]),
    firedTwice: [...firings].filter(([, count]) => count > 1).map(([seq]) => seq),
    firings: firings.size,
    mails: [...mails.values()].reduce((a, b) => a + b, 0),
    lostMails: [...firings.keys()].filter((seq) => !mails.has(seq)),
    mailedTwice: [...mails].filter(([, count]) => count > 1).map(([seq]) => seq),
    mailedTwiceUnlike: [...mailIds(rig.smtp)].filter(([, ids]) => new Set(ids).size > 1).map(([seq]) => seq),
    mailedUnfired: [...mails.keys()].filter((seq) => !firings.has(seq)),
  };
}

/**
 * What a passing case expects of its accounting: nothing lost, nothing twice; of the "above" uplinks
 * after a "below" at most 1 % (and 2) not fired, each evaluated (see Accounting.notFired).
 */
export function clean(result: Accounting, options: { resentAtMost?: number } = {}): Accounting {
  const tolerated = result.notFired.length <= Math.max(2, result.firings / 100);
  // A notifier killed after the SMTP server's 250 and before it recorded the send cannot know the mail
  // went out: the retry sends it again, with the same Message-ID (a recipient's mail store keeps one).
  const resent = result.mailedTwice.length <= (options.resentAtMost ?? 0);
  return {
    ...result,
    lostUplinks: [],
    storedTwice: [],
    notEvaluated: [],
    evaluatedTwice: [],
    ...(tolerated ? {} : { notFired: [], notFiredLogs: [] }),
    firedTwice: [],
    lostMails: [],
    ...(resent ? {} : { mailedTwice: [] }),
    mailedTwiceUnlike: [],
    mailedUnfired: [],
  };
}
