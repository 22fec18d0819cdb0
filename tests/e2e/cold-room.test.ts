/**
 * The demo's alarm walkthrough through the whole platform in this process (PGlite, in-process event log
 * and job queue shared by ingest, the rules worker and the notifier; no SMTP, so mail lands in the
 * outbox): a 9 °C uplink of the Demo Cold Room over the ingest HTTP front door raises the rule's alarm,
 * writes the system message and queues the email to alerts@demo.test, each once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';
import { waitFor } from '../support/wait-for.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let platform: TestPlatform;

beforeAll(async () => {
  // No simulated fleet: this test alone decides what the cold room reports.
  platform = await startTestPlatform({ SIMULATE_DEVICES: '0' });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
});

describe('Demo Cold Room', () => {
  it('a 9 °C uplink raises the alarm, writes the system message and mails alerts@demo.test, once each', async () => {
    const { db } = platform;
    const { rows: devices } = await db.query<{ id: number; uuid: string; company_id: number }>(
      `SELECT id, uuid::text, company_id FROM devices WHERE name = 'Demo Cold Room'`,
    );
    expect(devices).toHaveLength(1);
    const device = devices[0]!;
    // The seeded history stays below the rule's limit of 8 °C: no alarm before the warm uplink.
    const { rows: history } = await db.query<{ max: number }>(
      `SELECT max((data->>'temperature')::float8) AS max FROM device_data WHERE device_id = $1`,
      [device.id],
    );
    expect(history[0]!.max).toBeLessThan(8);
    expect((await db.query('SELECT 1 FROM alarms WHERE device_id = $1', [device.id])).rows).toHaveLength(0);

    // A fresh device token, stored as the API's rotation stores it (sha-256 only).
    const token = randomBytes(16).toString('hex');
    await db.query('UPDATE devices SET credentials_hash = $2 WHERE id = $1', [
      device.id,
      createHash('sha256').update(token).digest('hex'),
    ]);
    const post = (body: unknown) =>
      fetch(`${platform.ingestUrl}/uplinks/${device.uuid}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const response = await post({ temperature: 9, humidity: 80, message_id: 'cold-room-warm-1' });
    expect(response.status).toBe(202);

    const alarm = await waitFor('the cold room alarm', 30_000, async () => {
      const { rows } = await db.query<{ state: string; value: number; rule_name: string }>(
        `SELECT a.state, a.value, r.name AS rule_name FROM alarms a JOIN rules r ON r.id = a.rule_id
          WHERE a.device_id = $1`,
        [device.id],
      );
      return rows[0];
    });
    expect(alarm).toEqual({ state: 'raised', value: 9, rule_name: 'Cold room too warm' });

    const message = await waitFor('the system message', 30_000, async () => {
      const { rows } = await db.query<{ subject: string; body: string; company_id: number }>(
        'SELECT subject, body, company_id FROM messages WHERE device_id = $1',
        [device.id],
      );
      return rows[0];
    });
    expect(message.company_id).toBe(device.company_id);
    expect(message.subject).toBe('Demo Cold Room: temperature 9 °C');
    expect(message.body).toMatch(/^Rule Cold room too warm fired at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} /);

    const mail = await waitFor('the alarm email in the outbox', 30_000, async () => {
      const { rows } = await db.query<{
        recipients: string[];
        subject: string;
        body: string;
        sent_at: Date | null;
      }>(
        `SELECT recipients, subject, body, sent_at FROM outbox_emails WHERE 'alerts@demo.test' = ANY(recipients)`,
      );
      return rows[0];
    });
    expect(mail.subject).toBe('Alarm: Demo Cold Room at 9 °C');
    expect(mail.body).toContain('Demo Cold Room reports temperature 9 °C at ');
    expect(mail.sent_at).toBeNull(); // no SMTP in the test platform: kept for the console

    // The same uplink again (a retry) and a still-warm one: the episode already fired, nothing new goes out.
    expect((await post({ temperature: 9, humidity: 80, message_id: 'cold-room-warm-1' })).status).toBe(202);
    expect((await post({ temperature: 9.4, humidity: 80, message_id: 'cold-room-warm-2' })).status).toBe(202);
    await waitFor('the second warm uplink evaluated', 30_000, async () => {
      const { rows } = await db.query(
        `SELECT 1 FROM device_logs WHERE device_id = $1 AND payload->>'messageId' = 'cold-room-warm-2'`,
        [device.id],
      );
      return rows[0];
    });
    await sleep(500);
    const counts = await db.query<{ alarms: number; messages: number; mails: number; fired: number }>(
      `SELECT (SELECT count(*) FROM alarms WHERE device_id = $1) AS alarms,
              (SELECT count(*) FROM messages WHERE device_id = $1) AS messages,
              (SELECT count(*) FROM outbox_emails WHERE 'alerts@demo.test' = ANY(recipients)) AS mails,
              (SELECT count(*) FROM device_logs WHERE device_id = $1 AND payload->>'kind' = 'rule_fired') AS fired`,
      [device.id],
    );
    expect(counts.rows[0]).toEqual({ alarms: 1, messages: 1, mails: 1, fired: 1 });

    // Back to 5 °C: the alarm clears.
    expect((await post({ temperature: 5, humidity: 80, message_id: 'cold-room-ok' })).status).toBe(202);
    await waitFor('the alarm cleared', 30_000, async () => {
      const { rows } = await db.query(`SELECT 1 FROM alarms WHERE device_id = $1 AND state = 'cleared'`, [
        device.id,
      ]);
      return rows[0];
    });
  }, 120_000);
});
