/**
 * The demo's alarm walkthrough as both profiles' end-to-end tests drive it: the seeded Demo Cold Room and
 * its cooling controller, a device token issued the way the API stores it, warm uplinks over the ingest
 * HTTP front door, and the rows every action leaves behind, counted.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '@iot/db';
import mqtt from 'mqtt';

export interface DemoDevice {
  id: number;
  uuid: string;
  company_id: number;
}

export interface ColdRoomDemo {
  coldRoom: DemoDevice;
  cooling: DemoDevice;
  ruleId: number;
}

/** The seeded cold room, its cooling controller and the rule "Kühlraum zu warm". */
export async function findColdRoom(db: Queryable): Promise<ColdRoomDemo> {
  const { rows } = await db.query<DemoDevice & { name: string }>(
    `SELECT id::int AS id, uuid::text AS uuid, company_id::int AS company_id, name FROM devices
      WHERE name IN ('Demo Cold Room', 'Demo Cold Room Cooling')`,
  );
  const coldRoom = rows.find((r) => r.name === 'Demo Cold Room');
  const cooling = rows.find((r) => r.name === 'Demo Cold Room Cooling');
  if (rows.length !== 2 || !coldRoom || !cooling) throw new Error('the demo cold room is not seeded');
  const rules = await db.query<{ id: number }>(
    `SELECT id::int AS id FROM rules WHERE device_id = $1 AND name = 'Kühlraum zu warm'`,
    [coldRoom.id],
  );
  const ruleId = rules.rows[0]?.id;
  if (ruleId === undefined) throw new Error('the cold room rule is not seeded');
  const strip = ({ id, uuid, company_id }: DemoDevice) => ({ id, uuid, company_id });
  return { coldRoom: strip(coldRoom), cooling: strip(cooling), ruleId };
}

/** A fresh device token, stored as the API's rotation stores it (sha-256 only). */
export async function issueDeviceToken(db: Queryable, deviceId: number): Promise<string> {
  const token = randomBytes(16).toString('hex');
  await db.query('UPDATE devices SET credentials_hash = $2 WHERE id = $1', [
    deviceId,
    createHash('sha256').update(token).digest('hex'),
  ]);
  return token;
}

/** Retries of a 503 at most, each after its Retry-After (5 s at most). */
const OVERLOAD_RETRIES = 3;

/**
 * Posts one JSON uplink to the HTTP front door (`ingestUrl` ends in /ingest/v1) as a device does; resolves
 * with the status. A 503 (the event log did not accept within its 2 s, as on a machine busy with other
 * suites) is sent again after its Retry-After, a few times at most: the tests using it are about what an
 * uplink causes, the front door's back-pressure has tests of its own.
 */
export async function postUplink(
  ingestUrl: string,
  deviceUuid: string,
  token: string,
  body: Record<string, unknown>,
): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${ingestUrl}/uplinks/${deviceUuid}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await response.body?.cancel();
    if (response.status !== 503 || attempt === OVERLOAD_RETRIES) return response.status;
    const seconds = Math.min(5, Number(response.headers.get('retry-after') ?? 1) || 1);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

/** Posts JSON uplinks of `device` to the HTTP front door (postUplink); each resolves with the status. */
export function uplinkPoster(ingestUrl: string, device: DemoDevice, token: string) {
  return (body: Record<string, unknown>): Promise<number> => postUplink(ingestUrl, device.uuid, token, body);
}

/** An MQTT subscriber to `topic` that keeps every message it receives. */
export async function subscribe(
  url: string,
  topic: string,
  options: mqtt.IClientOptions = {},
): Promise<{ received: Buffer[]; close: () => Promise<void> }> {
  const client = await mqtt.connectAsync(url, {
    clientId: `cold-room-test-${randomBytes(4).toString('hex')}`,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
    ...options,
  });
  const received: Buffer[] = [];
  client.on('message', (_topic, payload) => received.push(payload));
  await client.subscribeAsync(topic, { qos: 1 });
  return { received, close: () => client.endAsync() };
}

export interface ColdRoomCounts {
  alarms: number;
  fired: number;
  messages: number;
  mails: number;
  sms: number;
  downlinks: number;
}

/** What the rule left behind for the cold room: each must be 1 after one warm episode. */
export async function countColdRoomEffects(db: Queryable, demo: ColdRoomDemo): Promise<ColdRoomCounts> {
  const { rows } = await db.query<ColdRoomCounts>(
    `SELECT (SELECT count(*)::int FROM alarms WHERE device_id = $1) AS alarms,
            (SELECT count(*)::int FROM device_logs WHERE device_id = $1 AND payload->>'kind' = 'rule_fired') AS fired,
            (SELECT count(*)::int FROM messages WHERE device_id = $1) AS messages,
            (SELECT count(*)::int FROM outbox_emails WHERE 'alerts@demo.test' = ANY(recipients)) AS mails,
            (SELECT count(*)::int FROM outbox_phone_messages WHERE rule_id = $3 AND channel = 'sms') AS sms,
            (SELECT count(*)::int FROM downlinks WHERE device_id = $2 AND rule_id = $3) AS downlinks`,
    [demo.coldRoom.id, demo.cooling.id, demo.ruleId],
  );
  const counts = rows[0];
  if (!counts) throw new Error('no counts');
  return counts;
}

/** The notifier's log of the rule's actions: channel -> statuses, in action order. */
export async function notificationStatuses(db: Queryable, ruleId: number): Promise<Record<string, string[]>> {
  const { rows } = await db.query<{ channel: string; status: string }>(
    `SELECT l.channel, l.status FROM notification_log l JOIN rule_actions a ON a.id = l.rule_action_id
      WHERE l.rule_id = $1 ORDER BY a.position, l.id`,
    [ruleId],
  );
  const byChannel: Record<string, string[]> = {};
  for (const row of rows) byChannel[row.channel] = [...(byChannel[row.channel] ?? []), row.status];
  return byChannel;
}
