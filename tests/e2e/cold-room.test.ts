/**
 * The demo's alarm walkthrough through the whole platform in this process, the embedded profile (PGlite,
 * in-process event log and job queue shared by ingest, the rules worker and the notifier, the embedded
 * MQTT broker; no SMTP and no Twilio, so mail and SMS land in the outboxes the console shows): a 9 °C
 * uplink of the Demo Cold Room over the ingest HTTP front door raises the rule's alarm, writes the system
 * message, queues the email to alerts@demo.test and the SMS to the demo phone, and switches relay 1 of the
 * cooling controller on by a downlink the controller receives on the embedded broker, each once.
 * tests/e2e/cold-room-distributed.test.ts runs the same walkthrough in the distributed profile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countColdRoomEffects,
  findColdRoom,
  issueDeviceToken,
  notificationStatuses,
  subscribe,
  uplinkPoster,
} from '../support/cold-room.js';
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
  it('a 9 °C uplink raises the alarm, writes the system message, mails, texts and switches the cooling on, once each', async () => {
    const { db } = platform;
    const demo = await findColdRoom(db);
    const { coldRoom, cooling } = demo;
    // The seeded history stays below the rule's limit of 8 °C: no alarm before the warm uplink.
    const { rows: history } = await db.query<{ max: number }>(
      `SELECT max((data->>'temperature')::float8) AS max FROM device_data WHERE device_id = $1`,
      [coldRoom.id],
    );
    expect(history[0]!.max).toBeLessThan(8);
    expect((await db.query('SELECT 1 FROM alarms WHERE device_id = $1', [coldRoom.id])).rows).toHaveLength(0);

    // The cooling controller listens for its commands on the embedded broker, signed in with its own token.
    const controller = await subscribe(
      `mqtt://127.0.0.1:${platform.mqttPort}`,
      `devices/${cooling.uuid}/down`,
      {
        username: cooling.uuid,
        password: await issueDeviceToken(db, cooling.id),
      },
    );
    try {
      const post = uplinkPoster(platform.ingestUrl, coldRoom, await issueDeviceToken(db, coldRoom.id));
      expect(await post({ temperature: 9, humidity: 80, message_id: 'cold-room-warm-1' })).toBe(202);

      const alarm = await waitFor('the cold room alarm', 30_000, async () => {
        const { rows } = await db.query<{ state: string; value: number; rule_name: string }>(
          `SELECT a.state, a.value, r.name AS rule_name FROM alarms a JOIN rules r ON r.id = a.rule_id
            WHERE a.device_id = $1`,
          [coldRoom.id],
        );
        return rows[0];
      });
      expect(alarm).toEqual({ state: 'raised', value: 9, rule_name: 'Kühlraum zu warm' });

      const message = await waitFor('the system message', 30_000, async () => {
        const { rows } = await db.query<{ subject: string; body: string; company_id: number }>(
          'SELECT subject, body, company_id FROM messages WHERE device_id = $1',
          [coldRoom.id],
        );
        return rows[0];
      });
      expect(message.company_id).toBe(coldRoom.company_id);
      // {field} is the field's label in the company's language (no recipient is a user; demo users are German).
      expect(message.subject).toBe('Demo Cold Room: Temperatur 9 °C');
      expect(message.body).toMatch(/^Regel Kühlraum zu warm hat um \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} /);

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
      expect(mail.subject).toBe('Alarm: Demo Cold Room bei 9 °C');
      expect(mail.body).toContain('Demo Cold Room meldet Temperatur 9 °C um ');
      expect(mail.sent_at).toBeNull(); // no SMTP in the test platform: kept for the console

      const sms = await waitFor('the alarm SMS in the phone outbox', 30_000, async () => {
        const { rows } = await db.query<Record<string, unknown>>(
          `SELECT company_id::int AS company_id, channel, recipient, body, device_id::int AS device_id,
                  reference, sent_at, error
             FROM outbox_phone_messages WHERE rule_id = $1`,
          [demo.ruleId],
        );
        return rows[0];
      });
      expect(sms).toEqual({
        company_id: coldRoom.company_id,
        channel: 'sms',
        recipient: '+4915228817386',
        body: expect.stringMatching(
          /^Alarm Demo Cold Room: Temperatur 9 °C um \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \S+\. Die Reservekühlung wird eingeschaltet\.$/,
        ),
        device_id: coldRoom.id,
        reference: null,
        sent_at: null, // no Twilio in the test platform: kept for the console, not failed
        error: null,
      });

      // The srd_gateway driver's relay command: 01 (version) 04 (switch_relay_output) 01 (relay 1) 01 (on).
      await waitFor('the downlink at the cooling controller', 30_000, async () =>
        controller.received.length > 0 ? true : undefined,
      );
      expect(controller.received.map((b) => b.toString('hex'))).toEqual(['01040101']);
      const downlink = await waitFor('the downlink recorded as sent', 30_000, async () => {
        const { rows } = await db.query<Record<string, unknown>>(
          `SELECT command, payload, encode(encoded, 'hex') AS encoded, fport, state, error, rule_id::int AS rule_id
             FROM downlinks WHERE device_id = $1`,
          [cooling.id],
        );
        return rows[0]?.state === 'sent' ? rows[0] : undefined;
      });
      expect(downlink).toEqual({
        command: 'switch_relay_output',
        payload: { output: 1, on: true },
        encoded: '01040101',
        fport: 10,
        state: 'sent',
        error: null,
        rule_id: demo.ruleId,
      });

      // Nothing failed or went to the dead-letter list: mail and SMS queued for the console, the rest sent.
      await waitFor('every action logged', 30_000, async () => {
        const statuses = await notificationStatuses(db, demo.ruleId);
        return Object.values(statuses).flat().length >= 4 ? statuses : undefined;
      });
      expect(await notificationStatuses(db, demo.ruleId)).toEqual({
        email: ['queued'],
        system: ['sent'],
        sms: ['queued'],
        remote_control: ['sent'],
      });

      // The same uplink again (a retry) and a still-warm one: the episode already fired, nothing new goes out.
      expect(await post({ temperature: 9, humidity: 80, message_id: 'cold-room-warm-1' })).toBe(202);
      expect(await post({ temperature: 9.4, humidity: 80, message_id: 'cold-room-warm-2' })).toBe(202);
      await waitFor('the second warm uplink evaluated', 30_000, async () => {
        const { rows } = await db.query(
          `SELECT 1 FROM device_logs WHERE device_id = $1 AND payload->>'messageId' = 'cold-room-warm-2'`,
          [coldRoom.id],
        );
        return rows[0];
      });
      await sleep(500);
      expect(await countColdRoomEffects(db, demo)).toEqual({
        alarms: 1,
        fired: 1,
        messages: 1,
        mails: 1,
        sms: 1,
        downlinks: 1,
      });
      expect(controller.received).toHaveLength(1);

      // Back to 5 °C: the alarm clears.
      expect(await post({ temperature: 5, humidity: 80, message_id: 'cold-room-ok' })).toBe(202);
      await waitFor('the alarm cleared', 30_000, async () => {
        const { rows } = await db.query(`SELECT 1 FROM alarms WHERE device_id = $1 AND state = 'cleared'`, [
          coldRoom.id,
        ]);
        return rows[0];
      });
    } finally {
      await controller.close();
    }
  }, 120_000);
});
