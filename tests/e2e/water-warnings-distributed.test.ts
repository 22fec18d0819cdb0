/**
 * Water usage warnings through the whole platform in the distributed profile (issue #26): PostgreSQL,
 * BullMQ on Redis, Mosquitto, an SMTP server started here and a Twilio stand-in. The demo's water
 * association has the demo client at 85 % of its yearly allowance. One rules-worker timer tick raises the
 * 80 % warning: a system message for the association and the member (an admin member too), a mail to each
 * of their main users and admins in their language, an SMS to the one with a phone number. With the
 * allowance cut below the use and "close valves at 100 %" on, the next check raises the 100 % warning and
 * closes the member's valve shared with control by the "switch solenoid valve" downlink. Each once.
 */
import { readMail, startTestSmtp, type TestSmtp } from '@iot/delivery/testing/smtp';
import { startTwilioStandIn, type TwilioStandIn } from '@iot/delivery/testing/twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribe } from '../support/cold-room.js';
import {
  type DistributedTestPlatform,
  MOSQUITTO_URL,
  startDistributedTestPlatform,
} from '../support/distributed-test-platform.js';
import { waitFor } from '../support/wait-for.js';

const TWILIO_SID = 'AC00000000000000000000000000000026';
const NWA = 4; // Wasserverband Dreisamtal (demo-accounts.ts)
const DEMO = 2; // Demo Agrar GmbH: admin member at 85 %

let smtp: TestSmtp;
let twilio: TwilioStandIn;
let platform: DistributedTestPlatform;

beforeAll(async () => {
  smtp = await startTestSmtp();
  twilio = await startTwilioStandIn();
  platform = await startDistributedTestPlatform({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'IoT Platform <alarms@platform.test>',
    TWILIO_ACCOUNT_SID: TWILIO_SID,
    TWILIO_AUTH_TOKEN: 'water-test-token',
    TWILIO_FROM: '+4930231250001',
    TWILIO_BASE_URL: twilio.url,
  });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  await twilio?.close();
  await smtp?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rulesWorker() {
  const worker = platform.services.find((s) => s.name === 'rules-worker') as unknown as {
    tick(): Promise<{ waterWarnings: number | null }>;
    checkWater(): Promise<number>;
  };
  return worker;
}

describe('water usage warnings, distributed profile', () => {
  it('mails, texts and messages the 80 % warning once, and closes the valve at 100 %', async () => {
    const { db } = platform;
    // Nothing is claimed before the first check.
    expect((await db.query('SELECT 1 FROM nwa_usage_warnings')).rows).toHaveLength(0);
    await db.query(
      `UPDATE users SET phone = '+4915228817399', locale = 'de' WHERE email = 'main@water.test'`,
    );
    await db.query(`UPDATE users SET locale = 'en' WHERE email = 'main@demo.test'`);

    expect((await rulesWorker().tick()).waterWarnings).toBe(1);
    const { rows: warnings } = await db.query<{ kind: string; company_id: number }>(
      'SELECT kind, company_id::int AS company_id FROM nwa_usage_warnings',
    );
    expect(warnings).toEqual([{ kind: 'year_80', company_id: DEMO }]);
    const { rows: messages } = await db.query<{ company_id: number }>(
      `SELECT company_id::int AS company_id FROM messages WHERE kind = 'water_year_80' ORDER BY company_id`,
    );
    expect(messages.map((m) => m.company_id)).toEqual([DEMO, NWA]);

    const { rows: managers } = await db.query<{ email: string }>(
      `SELECT email FROM users WHERE company_id = ANY($1::bigint[]) AND deleted_at IS NULL
          AND roles && ARRAY['ROLE_MAINUSER', 'ROLE_ADMIN'] ORDER BY email`,
      [[NWA, DEMO]],
    );
    expect(managers.map((m) => m.email)).toContain('main@water.test');
    await waitFor('a mail for every manager', 60_000, async () =>
      smtp.received.length >= managers.length ? true : undefined,
    );
    expect(smtp.received.flatMap((m) => m.to).sort()).toEqual(managers.map((m) => m.email));
    const german = readMail(smtp.received.find((m) => m.to.includes('main@water.test'))!);
    expect(german.subject).toBe('Wasserkontingent zu 80 % erreicht: Demo Agrar GmbH');
    expect(german.text).toMatch(
      /^Demo Agrar GmbH hat 8\d(,\d{1,2})? % seines Jahreskontingents verbraucht\./,
    );
    const english = readMail(smtp.received.find((m) => m.to.includes('main@demo.test'))!);
    expect(english.subject).toBe('Water allowance 80 % reached: Demo Agrar GmbH');
    const sms = await waitFor('the SMS at the Twilio endpoint', 60_000, async () => twilio.requests[0]);
    expect(sms.form).toMatchObject({
      To: '+4915228817399',
      Body: expect.stringMatching(/^Wasserverband Dreisamtal: Demo Agrar GmbH hat 8\d(,\d{1,2})? % /),
    });

    // Another tick within the water interval does not check; a check now claims nothing new.
    expect((await rulesWorker().tick()).waterWarnings).toBeNull();
    expect(await rulesWorker().checkWater()).toBe(0);

    // The demo client's valve, shared with control (as the demo seeds it), on MQTT with a driver that
    // switches solenoid valves.
    const { rows: valves } = await db.query<{ id: number; uuid: string }>(
      `SELECT d.id::int AS id, d.uuid FROM nwa_shared_devices s JOIN devices d ON d.id = s.device_id
        WHERE s.nwa_company_id = $1 AND s.company_id = $2 AND s.access = 'control' AND d.driver_id = 'nbiot_soil_sensor'`,
      [NWA, DEMO],
    );
    const valve = valves[0]!;
    await db.query('UPDATE nwa_settings SET close_valves_at_limit = true WHERE nwa_company_id = $1', [NWA]);
    await db.query(
      `UPDATE nwa_max_flow_rates SET max_per_year = max_per_year / 2 WHERE nwa_company_id = $1 AND company_id = $2`,
      [NWA, DEMO],
    );
    const device = await subscribe(MOSQUITTO_URL, `devices/${valve.uuid}/down`);
    try {
      const mailsBefore = smtp.received.length;
      // The platform checks every five minutes; the test runs the next check now.
      expect(await rulesWorker().checkWater()).toBe(1);
      await waitFor('the valve command on the broker', 60_000, async () => device.received[0]);
      // nbiot_soil_sensor: switch_solenoid_valve, valve 1, off.
      const { rows: downlinks } = await db.query<{ command: string; params: unknown; company_id: number }>(
        `SELECT command, payload AS params, company_id::int AS company_id FROM downlinks WHERE device_id = $1`,
        [valve.id],
      );
      expect(downlinks).toEqual([
        { command: 'switch_solenoid_valve', params: { valve: 1, on: false }, company_id: DEMO },
      ]);
      await waitFor('the 100 % mails', 60_000, async () =>
        smtp.received.length >= mailsBefore + managers.length ? true : undefined,
      );
      const used = readMail(
        smtp.received.find(
          (m) => m.to.includes('main@demo.test') && readMail(m).subject.includes('used up'),
        )!,
      );
      expect(used.text).toContain("The member's valves are being closed.");
      await sleep(1_000);
      expect(device.received).toHaveLength(1);
      expect(smtp.received).toHaveLength(mailsBefore + managers.length);
    } finally {
      await device.close();
    }
  }, 180_000);
});
