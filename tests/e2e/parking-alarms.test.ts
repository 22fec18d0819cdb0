/**
 * Parking alarms through the platform's notifications (issue #25), the whole platform in this process
 * with an SMTP server and a Twilio stand-in started here: the demo main user gives a new car park alarm
 * actions (email, SMS, system message). An occupied uplink that fills the car park sends "Car park full";
 * a bay occupied longer than the maximum parking time sends the overstay at the rules worker's next
 * timer tick; each once, and freeing the bay clears both alarms without sending anything more.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readMail, startTestSmtp, type TestSmtp } from '@iot/delivery/testing/smtp';
import { startTwilioStandIn, type TwilioStandIn } from '@iot/delivery/testing/twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api-session.js';
import { DEMO_PASSWORD } from '../support/browser.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';
import { waitFor } from '../support/wait-for.js';

const TWILIO_SID = 'AC00000000000000000000000000000025';

let smtp: TestSmtp;
let twilio: TwilioStandIn;
let platform: TestPlatform;

beforeAll(async () => {
  smtp = await startTestSmtp();
  twilio = await startTwilioStandIn();
  platform = await startTestPlatform({
    SIMULATE_DEVICES: '0',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'IoT Platform <alarms@platform.test>',
    TWILIO_ACCOUNT_SID: TWILIO_SID,
    TWILIO_AUTH_TOKEN: 'parking-test-token',
    TWILIO_FROM: '+4930231250001',
    TWILIO_BASE_URL: twilio.url,
  });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await twilio?.close();
  await smtp?.close();
});

async function parkingSensor(companyId: number, name: string) {
  const token = randomBytes(16).toString('hex');
  const { rows } = await platform.db.query<{ id: number; uuid: string }>(
    `INSERT INTO devices (company_id, name, sensor_type, credentials_hash) VALUES ($1, $2, 8, $3)
     RETURNING id::int AS id, uuid::text AS uuid`,
    [companyId, name, createHash('sha256').update(token).digest('hex')],
  );
  const device = rows[0]!;
  return {
    ...device,
    post: async (body: Record<string, unknown>) => {
      const response = await fetch(`${platform.ingestUrl}/uplinks/${device.uuid}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await response.body?.cancel();
      expect(response.status).toBe(202);
    },
  };
}

describe('parking alarms', { timeout: 240_000 }, () => {
  it('mail, text and write a system message for full and overstay, once each', async () => {
    const { db } = platform;
    const { rows } = await db.query<{ company_id: number }>(
      `SELECT company_id::int AS company_id FROM users WHERE email = 'main@demo.test'`,
    );
    const companyId = rows[0]!.company_id;
    const bay1 = await parkingSensor(companyId, 'E2E Bucht 1');
    const bay2 = await parkingSensor(companyId, 'E2E Bucht 2');

    const session = new ApiSession(platform.url);
    expect((await session.login('main@demo.test', DEMO_PASSWORD)).status).toBe(200);
    const created = await session.call<{ id: number }>('POST', '/api/v1/parking/areas', {
      name: 'E2E Parkhaus',
      type: 'FIX',
      icon: 'PG',
      max_parking_time: 30,
      alert_free_below: 1,
      devices: [
        { device_id: bay1.id, label: 'B-1' },
        { device_id: bay2.id, label: 'B-2' },
      ],
      alarm_actions: [
        {
          channel: 'email',
          config: { recipient: 'parking@demo.test', subject: 'Parkalarm {device}', body: '{value}' },
        },
        { channel: 'sms', config: { phone: '+4915228817386', body: 'Parkalarm: {value}' } },
        { channel: 'system', config: { subject: 'Parkalarm', text: '{value}' } },
      ],
    });
    expect(created.status).toBe(200);
    const areaId = created.body.payload!.id;

    // B-1 has been occupied for two hours (the uplink's own time), B-2 just now: full.
    await bay1.post({
      occupied: true,
      time: new Date(Date.now() - 2 * 3_600_000).toISOString(),
      id: 'e2e-1',
    });
    await bay2.post({ occupied: true, id: 'e2e-2' });

    const full = await waitFor('the full mail', 60_000, async () =>
      smtp.received.map(readMail).find((m) => m.text.startsWith('Parkplatz voll: E2E Parkhaus')),
    );
    // parking@demo.test is no user: the company's language (its users' locale, German) words the alarm.
    expect(full.subject).toBe('Parkalarm E2E Bucht 1');
    expect(full.text).toBe('Parkplatz voll: E2E Parkhaus');

    // The overstay comes with the rules worker's timer (every minute).
    const overstay = await waitFor(
      'the overstay mail',
      90_000,
      async () =>
        smtp.received.map(readMail).find((m) => m.text.startsWith('Parkdauer überschritten: E2E Parkhaus')),
      500,
    );
    expect(overstay.text).toBe('Parkdauer überschritten: E2E Parkhaus B-1, länger als 30 Min.');
    expect(smtp.received.every((m) => m.to.join() === 'parking@demo.test')).toBe(true);
    // The demo's own car park alarms (its A-03 overstays) mail the same address: count this car park's.
    const ours = <T>(items: T[], text: (item: T) => string) =>
      items.filter((item) => text(item).includes('E2E Parkhaus'));
    const smsOf = () => ours(twilio.requests, (r) => String(r.form.Body));
    const texts = await waitFor('both SMS', 30_000, async () =>
      smsOf().length >= 2 ? smsOf().map((r) => r.form.Body) : undefined,
    );
    expect(texts.sort()).toEqual([
      'Parkalarm: Parkdauer überschritten: E2E Parkhaus B-1, länger als 30 Min.',
      'Parkalarm: Parkplatz voll: E2E Parkhaus',
    ]);
    const messages = await waitFor('both system messages', 30_000, async () => {
      const { rows: found } = await db.query<{ body: string }>(
        `SELECT body FROM messages WHERE company_id = $1 AND subject = 'Parkalarm' ORDER BY id`,
        [companyId],
      );
      return found.length >= 2 ? found : undefined;
    });
    expect(messages.map((m) => m.body.slice(0, 9)).sort()).toEqual(['Parkdauer', 'Parkplatz']);

    // Freeing B-1 clears both alarms and sends nothing more.
    await bay1.post({ occupied: false, id: 'e2e-3' });
    await waitFor('both alarms cleared', 30_000, async () => {
      const { rows: open } = await db.query(
        `SELECT 1 FROM alarms WHERE company_id = $1 AND state <> 'cleared' AND (details ->> 'area_id')::bigint = $2`,
        [companyId, areaId],
      );
      return open.length === 0 ? true : undefined;
    });
    const { rows: alarms } = await db.query<{ kind: string }>(
      `SELECT details ->> 'kind' AS kind FROM alarms WHERE (details ->> 'area_id')::bigint = $1 ORDER BY id`,
      [areaId],
    );
    expect(alarms.map((a) => a.kind)).toEqual(['parking_free_slots', 'parking_overstay']);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(ours(smtp.received.map(readMail), (m) => m.text)).toHaveLength(2);
    expect(smsOf()).toHaveLength(2);
  });
});
