/**
 * The demo's alarm walkthrough in the distributed profile: the platform composition of `PROFILE=distributed
 * npm start` in this process against a fresh PostgreSQL database, the machine's NATS JetStream (event log),
 * Redis (BullMQ) and Mosquitto (MQTT), an SMTP server started here and a local endpoint answering like
 * Twilio's REST API, reached through the real twilio library. A 9 °C uplink of the Demo Cold Room raises the
 * alarm; the email reaches the SMTP server, the SMS the Twilio endpoint, the system message the messages
 * table and the relay-on downlink the cooling controller's topic on Mosquitto, each exactly once.
 */

import { readMail, startTestSmtp, type TestSmtp } from '@iot/delivery/testing/smtp';
import { startTwilioStandIn, type TwilioStandIn } from '@iot/delivery/testing/twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ColdRoomDemo,
  countColdRoomEffects,
  findColdRoom,
  issueDeviceToken,
  notificationStatuses,
  subscribe,
  uplinkPoster,
} from '../support/cold-room.js';
import {
  type DistributedTestPlatform,
  MOSQUITTO_URL,
  startDistributedTestPlatform,
} from '../support/distributed-test-platform.js';
import { waitFor } from '../support/wait-for.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TWILIO_SID = 'AC00000000000000000000000000000042';
const TWILIO_TOKEN = 'cold-room-test-token';
const TWILIO_FROM = '+4930231250001';

let smtp: TestSmtp;
let twilio: TwilioStandIn;
let platform: DistributedTestPlatform;
let demo: ColdRoomDemo;

beforeAll(async () => {
  smtp = await startTestSmtp();
  twilio = await startTwilioStandIn();
  platform = await startDistributedTestPlatform({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'IoT Platform <alarms@platform.test>',
    TWILIO_ACCOUNT_SID: TWILIO_SID,
    TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
    TWILIO_FROM,
    TWILIO_BASE_URL: twilio.url,
  });
  demo = await findColdRoom(platform.db);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  await twilio?.close();
  await smtp?.close();
});

describe('Demo Cold Room, distributed profile', () => {
  it('a 9 °C uplink raises the alarm; email, SMS, system message and downlink each arrive exactly once', async () => {
    const { db } = platform;
    const { coldRoom, cooling } = demo;
    // The cooling controller's command topic on the machine's Mosquitto (its uuid is this database's own).
    const controller = await subscribe(MOSQUITTO_URL, `devices/${cooling.uuid}/down`);
    try {
      const post = uplinkPoster(platform.ingestUrl, coldRoom, await issueDeviceToken(db, coldRoom.id));
      expect(await post({ temperature: 9, humidity: 80, message_id: 'cold-room-warm-1' })).toBe(202);

      const alarm = await waitFor('the cold room alarm', 60_000, async () => {
        const { rows } = await db.query<{ state: string; value: number }>(
          'SELECT state, value FROM alarms WHERE device_id = $1 AND rule_id = $2',
          [coldRoom.id, demo.ruleId],
        );
        return rows[0];
      });
      expect(alarm).toEqual({ state: 'raised', value: 9 });

      const mail = await waitFor('the email at the SMTP server', 60_000, async () => smtp.received[0]);
      expect(mail.from).toBe('alarms@platform.test');
      expect(mail.to).toEqual(['alerts@demo.test']);
      const { subject, text } = readMail(mail);
      expect(subject).toBe('Alarm: Demo Cold Room bei 9 °C');
      expect(text).toMatch(
        /^Demo Cold Room meldet Temperatur 9 °C um \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \S+ \(Regel Kühlraum zu warm, Grenze 8 °C\)\. Bitte den Kühlraum prüfen\.$/,
      );

      const sms = await waitFor('the SMS at the Twilio endpoint', 60_000, async () => twilio.requests[0]);
      expect(sms.method).toBe('POST');
      expect(sms.path).toBe(`/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`);
      expect(sms.authorization).toBe(
        `Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`,
      );
      expect(sms.form).toEqual({
        To: '+4915228817386',
        From: TWILIO_FROM,
        Body: expect.stringMatching(
          /^Alarm Demo Cold Room: Temperatur 9 °C um \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \S+\. Die Reservekühlung wird eingeschaltet\.$/,
        ),
      });

      const message = await waitFor('the system message', 60_000, async () => {
        const { rows } = await db.query<{ subject: string; company_id: number }>(
          'SELECT subject, company_id::int AS company_id FROM messages WHERE device_id = $1',
          [coldRoom.id],
        );
        return rows[0];
      });
      expect(message).toEqual({
        subject: 'Demo Cold Room: Temperatur 9 °C',
        company_id: coldRoom.company_id,
      });

      // switch_relay_output, relay 1, on, in the srd_gateway driver's frame: 01 04 01 01.
      await waitFor('the downlink on Mosquitto', 60_000, async () => controller.received[0]);
      expect(controller.received.map((b) => b.toString('hex'))).toEqual(['01040101']);
      const downlink = await waitFor('the downlink recorded as sent', 30_000, async () => {
        const { rows } = await db.query<{ command: string; state: string; rule_id: number }>(
          'SELECT command, state, rule_id::int AS rule_id FROM downlinks WHERE device_id = $1',
          [cooling.id],
        );
        return rows[0]?.state === 'sent' ? rows[0] : undefined;
      });
      expect(downlink).toEqual({ command: 'switch_relay_output', state: 'sent', rule_id: demo.ruleId });

      await waitFor('every action logged', 30_000, async () => {
        const statuses = await notificationStatuses(db, demo.ruleId);
        return Object.values(statuses).flat().length >= 4 ? statuses : undefined;
      });
      // Email and SMS were handed over this time (SMTP and Twilio configured): sent, with the SMS's SID.
      expect(await notificationStatuses(db, demo.ruleId)).toEqual({
        email: ['sent'],
        system: ['sent'],
        sms: ['sent'],
        remote_control: ['sent'],
      });
      const outbox = await db.query<{ reference: string; sent_at: Date | null }>(
        `SELECT reference, sent_at FROM outbox_phone_messages WHERE rule_id = $1`,
        [demo.ruleId],
      );
      expect(outbox.rows).toEqual([
        { reference: expect.stringMatching(/^SM\d{32}$/), sent_at: expect.any(Date) },
      ]);

      // The same uplink again and a still-warm one: the episode already fired, nothing more goes out.
      expect(await post({ temperature: 9, humidity: 80, message_id: 'cold-room-warm-1' })).toBe(202);
      expect(await post({ temperature: 9.4, humidity: 80, message_id: 'cold-room-warm-2' })).toBe(202);
      await waitFor('the second warm uplink evaluated', 60_000, async () => {
        const { rows } = await db.query(
          `SELECT 1 FROM device_logs WHERE device_id = $1 AND payload->>'messageId' = 'cold-room-warm-2'`,
          [coldRoom.id],
        );
        return rows[0];
      });
      await sleep(1_000);
      expect(smtp.received).toHaveLength(1);
      expect(twilio.requests).toHaveLength(1);
      expect(controller.received).toHaveLength(1);
      expect(await countColdRoomEffects(db, demo)).toEqual({
        alarms: 1,
        fired: 1,
        messages: 1,
        mails: 1,
        sms: 1,
        downlinks: 1,
      });
    } finally {
      await controller.close();
    }
  }, 180_000);
});
