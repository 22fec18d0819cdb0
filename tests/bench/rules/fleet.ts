/** Ours: the fleet with its rules and actions, and the stages read back from the database and BullMQ. */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '@iot/db';
import { readBullmqJobTimes } from '@iot/jobs';
import mqtt from 'mqtt';
import { settleStatistics } from '../lib/statistics.js';
import { CONDITIONS, MOSQUITTO_CONNECTIONS, SUBJECT } from './settings.js';
import type { Publisher } from './side.js';

// ------------------------------------------------------------------------------------------------ ours
export async function createBenchFleet(db: Db, n: number) {
  const { rows: c } = await db.query<{ id: number }>(
    "INSERT INTO companies (name) VALUES ('Bench rules ' || md5(random()::text)) RETURNING id::int AS id",
  );
  const companyId = c[0]?.id;
  if (companyId === undefined) throw new Error('no company');
  const uuids = Array.from({ length: n }, (): string => randomUUID());
  const tokens = uuids.map(() => randomBytes(16).toString('hex'));
  const hashes = tokens.map((t) => createHash('sha256').update(t).digest('hex'));
  const { rows: devices } = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO devices (company_id, name, uuid, credentials_hash)
     SELECT $1, 'bench ' || t.i, t.u::uuid, t.h FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(u, h, i)
     RETURNING id::int AS id, uuid::text AS uuid`,
    [companyId, uuids, hashes],
  );
  const conditions = JSON.stringify(CONDITIONS.map((k, i) => ({ ...k, position: i })));
  const { rows: firing } = await db.query<{ id: number; fires: boolean }>(
    `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value, range_min, range_max)
     SELECT $1, d.id, 'bench ' || c.position, 'data', 'temperature', c.operator, c.value, c."rangeMin", c."rangeMax"
     FROM unnest($2::bigint[]) AS d(id)
     CROSS JOIN jsonb_to_recordset($3::jsonb) AS c(position int, operator text, value float8, "rangeMin" float8,
                                                   "rangeMax" float8, fires boolean)
     RETURNING id::int AS id, (name = 'bench ' || $4::text) AS fires`,
    [companyId, devices.map((d) => d.id), conditions, CONDITIONS.length - 1],
  );
  const firingIds = firing.filter((r) => r.fires).map((r) => r.id);
  await db.query(
    `INSERT INTO rule_actions (company_id, rule_id, position, type, recipients, subject, body)
     SELECT $1, r.id, 0, 'email', ARRAY['bench@example.test'], $3, '{device}: {field} {value} at {time}'
     FROM unnest($2::bigint[]) AS r(id)`,
    [companyId, firingIds, SUBJECT],
  );
  // Without statistics the firing transaction's read of its actions took 80 ms for 150 jobs instead of 5.
  await settleStatistics(db);
  const token = new Map(uuids.map((u, i) => [u, tokens[i] ?? '']));
  return {
    companyId,
    rules: firing.length,
    firingRules: firingIds.length,
    devices: devices.map((d) => ({ ...d, token: token.get(d.uuid) ?? '' })),
  };
}

/** The stages ours reads back from its database (the same SQL on PGlite and PostgreSQL). */
export function stageReaders(db: Db, companyId: number) {
  return {
    firedAt: async (fromSeq: number) => {
      const { rows } = await db.query<{ seq: number; at: number }>(
        `SELECT substr(payload->>'messageId', 2)::int AS seq, (extract(epoch FROM created_at) * 1000)::float8 AS at
         FROM device_logs WHERE company_id = $1 AND payload->>'kind' = 'rule_fired'
           AND substr(payload->>'messageId', 2)::int >= $2`,
        [companyId, fromSeq],
      );
      return new Map(rows.map((r) => [Number(r.seq), Number(r.at)]));
    },
    claimedAt: async (fromSeq: number) => {
      // Job key <rule id>:b<sequence>:<action id>.
      const { rows } = await db.query<{ seq: number; at: number }>(
        `SELECT substr(split_part(key, ':', 2), 2)::int AS seq, (extract(epoch FROM created_at) * 1000)::float8 AS at
         FROM job_keys WHERE split_part(key, ':', 2) LIKE 'b%' AND substr(split_part(key, ':', 2), 2)::int >= $1`,
        [fromSeq],
      );
      return new Map(rows.map((r) => [Number(r.seq), Number(r.at)]));
    },
    suppressed: async (seqs: readonly number[]) => {
      if (seqs.length === 0) return new Map<number, string>();
      const { rows } = await db.query<{ seq: number; reason: string }>(
        `SELECT substr(payload->>'messageId', 2)::int AS seq, payload->>'reason' AS reason
         FROM device_logs WHERE company_id = $1 AND payload->>'kind' = 'rule_suppressed'
           AND payload->>'messageId' = ANY($2::text[])`,
        [companyId, seqs.map((q) => `b${q}`)],
      );
      return new Map(rows.map((r) => [Number(r.seq), r.reason]));
    },
    // After the send: its notification_log row (coalesced write), then the key marked done.
    dbStages: async (fromSeq: number) => {
      const { rows } = await db.query<{ seq: number; logged: number; completed: number | null }>(
        `SELECT substr(split_part(n.idempotency_key, ':', 2), 2)::int AS seq,
                (extract(epoch FROM n.created_at) * 1000)::float8 AS logged,
                (extract(epoch FROM k.completed_at) * 1000)::float8 AS completed
         FROM notification_log n LEFT JOIN job_keys k ON k.key = n.idempotency_key
         WHERE n.company_id = $1 AND n.status = 'sent' AND split_part(n.idempotency_key, ':', 2) LIKE 'b%'
           AND substr(split_part(n.idempotency_key, ':', 2), 2)::int >= $2`,
        [companyId, fromSeq],
      );
      const logged = new Map<number, number>();
      const completed = new Map<number, number>();
      for (const r of rows) {
        logged.set(Number(r.seq), Number(r.logged));
        if (r.completed !== null) completed.set(Number(r.seq), Number(r.completed));
      }
      return {
        'sent logged (notification_log.created_at)': logged,
        'key completed (job_keys.completed_at)': completed,
      };
    },
    jobDurations: async (fromSeq: number) => {
      const { rows } = await db.query<{ ms: number }>(
        `SELECT (extract(epoch FROM completed_at - created_at) * 1000)::float8 AS ms FROM job_keys
         WHERE completed_at IS NOT NULL AND split_part(key, ':', 2) LIKE 'b%'
           AND substr(split_part(key, ':', 2), 2)::int >= $1`,
        [fromSeq],
      );
      return rows.map((r) => Number(r.ms));
    },
  };
}

/**
 * Anonymous publishers to a Mosquitto (in this profile the broker authenticates devices): a few
 * connections carry all devices' topics, as Node-RED's publishers do.
 */
export function connectDevicePublishers(
  url: string,
  prefix: string,
  devices: readonly { uuid: string }[],
): Promise<Publisher[]> {
  return Promise.all(
    Array.from({ length: MOSQUITTO_CONNECTIONS }, async (_, c) => ({
      client: await mqtt.connectAsync(url, { clientId: `${prefix}-pub-${c}`, reconnectPeriod: 0 }),
      topics: devices.filter((_d, i) => i % MOSQUITTO_CONNECTIONS === c).map((d) => `devices/${d.uuid}/up`),
      next: 0,
    })),
  );
}

/** BullMQ's own times of the notify jobs (epoch ms by sequence), read back after a phase. */
export function bullmqStages(redisUrl: string, queuePrefix: string) {
  return async (fromSeq: number) => {
    const added = new Map<number, number>();
    const taken = new Map<number, number>();
    const finished = new Map<number, number>();
    for (const job of await readBullmqJobTimes(redisUrl, queuePrefix, 'notify.action')) {
      // Job key <rule id>:b<sequence>:<action id>.
      const m = /^\d+:b(\d+):/.exec(job.idempotencyKey);
      const seq = m ? Number(m[1]) : -1;
      if (seq < fromSeq) continue;
      added.set(seq, job.addedAt);
      if (job.processedAt !== null) taken.set(seq, job.processedAt);
      if (job.finishedAt !== null) finished.set(seq, job.finishedAt);
    }
    return {
      'job added to BullMQ (timestamp)': added,
      'job taken by a worker (processedOn)': taken,
      'job finished (finishedOn)': finished,
    };
  };
}
