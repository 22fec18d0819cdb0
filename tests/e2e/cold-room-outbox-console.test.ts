/**
 * The outbox in Chromium (built console, embedded platform without SMTP and Twilio): after a 9 °C uplink
 * of the Demo Cold Room, the main user reaches /outbox from the messages drawer and finds the alarm mail
 * to alerts@demo.test and the SMS to the demo phone there, both "not sent" (kept, not failed); a plain
 * user is told the page is for managers, and finds in the cold room's notification log what its rule
 * sent, to whom and how it went, as the notifier logged it.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepScreenshot, launchBrowser, signedIn as signIn } from '../support/browser.js';
import { findColdRoom, issueDeviceToken, notificationStatuses, uplinkPoster } from '../support/cold-room.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';
import { waitFor } from '../support/wait-for.js';

let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  platform = await startTestPlatform({ SIMULATE_DEVICES: '0' });
  browser = await launchBrowser();
  const demo = await findColdRoom(platform.db);
  const post = uplinkPoster(
    platform.ingestUrl,
    demo.coldRoom,
    await issueDeviceToken(platform.db, demo.coldRoom.id),
  );
  expect(await post({ temperature: 9, humidity: 80, message_id: 'outbox-console-warm' })).toBe(202);
  // The rule's mail and SMS are both in the outboxes before the page is opened (it polls every 30 s only).
  await waitFor('the mail and the SMS in the outboxes', 30_000, async () => {
    const { rows } = await platform.db.query<{ mails: number; sms: number }>(
      `SELECT (SELECT count(*)::int FROM outbox_emails WHERE 'alerts@demo.test' = ANY(recipients)) AS mails,
              (SELECT count(*)::int FROM outbox_phone_messages WHERE rule_id = $1) AS sms`,
      [demo.ruleId],
    );
    return rows[0]?.mails === 1 && rows[0].sms === 1 ? true : undefined;
  });
  // And the notifier has logged all four actions: mail, system message, SMS and the cooling's downlink.
  await waitFor('every action logged', 30_000, async () => {
    const statuses = await notificationStatuses(platform.db, demo.ruleId);
    return Object.values(statuses).flat().length >= 4 ? true : undefined;
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

function signedIn(email: string, locale: string) {
  return signIn(browser, platform.url, email, { locale });
}

describe('the outbox page', () => {
  it('shows the main user the cold room’s mail and SMS, kept unsent, reached from the messages drawer', async () => {
    const { context, page } = await signedIn('main@demo.test', 'en-US');
    await page.getByTestId('messages-button').click();
    await page.getByTestId('messages-outbox-link').click();
    await page.waitForURL('**/outbox');
    await expect.poll(() => page.getByTestId('messages-drawer').count()).toBe(0);

    const mail = page.locator('[data-testid^="outbox-email-row-"]').filter({ hasText: 'alerts@demo.test' });
    await expect.poll(() => mail.count()).toBe(1);
    expect(await mail.textContent()).toContain('Alarm: Demo Cold Room bei 9 °C');
    expect(await mail.getAttribute('data-state')).toBe('unsent');
    // The demo users read German (users.locale), whatever the browser's language.
    expect(await mail.getByTestId('outbox-state').textContent()).toBe('Nicht gesendet');

    await page.getByTestId('outbox-tab-phone').click();
    const sms = page.locator('[data-testid^="outbox-phone-row-"]').filter({ hasText: '+4915228817386' });
    await expect.poll(() => sms.count()).toBe(1);
    expect(await sms.getAttribute('data-channel')).toBe('sms');
    expect(await sms.getAttribute('data-state')).toBe('unsent');
    const text = await sms.textContent();
    expect(text).toContain('Demo Cold Room');
    expect(text).toContain('Kühlraum zu warm');
    expect(text).toContain('Alarm Demo Cold Room: Temperatur 9 °C um ');
    await keepScreenshot(page, 'outbox-page');
    await context.close();
  }, 60_000);

  it('tells a plain user that the outbox is for managers, and offers no link to it', async () => {
    const { context, page } = await signedIn('user@demo.test', 'en-US');
    await page.getByTestId('messages-button').click();
    await expect.poll(() => page.getByTestId('messages').count()).toBe(1);
    expect(await page.getByTestId('messages-outbox-link').count()).toBe(0);
    await page.goto('/outbox');
    await expect.poll(() => page.getByTestId('outbox-no-permission').count()).toBe(1);
    expect(await page.locator('[data-testid^="outbox-email-row-"]').count()).toBe(0);
    await context.close();
  }, 60_000);

  it("shows a plain user the cold room's notification log: each action's channel, recipient and status", async () => {
    const { context, page } = await signedIn('user@demo.test', 'en-US');
    await page.goto('/alarms?show=all');
    const row = page.locator('[data-testid^="alarm-row-"]').filter({ hasText: 'Demo Cold Room' });
    await expect.poll(() => row.count()).toBe(1);
    await row.click();
    await page.getByTestId('device-drawer').getByTestId('device-action-notifications').click();
    const log = page.getByTestId('device-notifications');
    const entries = log.getByTestId('notification-entry');
    await expect.poll(() => entries.count()).toBe(4);
    const entry = async (channel: string) => {
      const item = log.locator(`[data-testid="notification-entry"][data-channel="${channel}"]`);
      return {
        status: await item.getAttribute('data-status'),
        label: await item.getByTestId('notification-status').textContent(),
        recipient: await item.getByTestId('notification-recipient').textContent(),
        rule: await item.getByTestId('notification-rule').textContent(),
      };
    };
    // German, the demo users' language: kept in the outbox without a provider, or sent.
    expect(await entry('email')).toMatchObject({
      status: 'queued',
      label: 'Im Postausgang',
      recipient: 'alerts@demo.test',
      rule: expect.stringContaining('Regel: Kühlraum zu warm'),
    });
    expect(await entry('sms')).toMatchObject({ status: 'queued', recipient: '+4915228817386' });
    expect(await entry('system')).toMatchObject({
      status: 'sent',
      label: 'Gesendet',
      recipient: 'Systemnachrichten der Firma',
    });
    // The downlink names the device it switched, by the name the console knows it under.
    expect(await entry('remote_control')).toMatchObject({
      status: 'sent',
      recipient: 'Demo Cold Room Cooling',
    });

    // The status filter asks the API for one status.
    await log.getByTestId('notifications-status-filter').click();
    await page.getByTestId('notifications-status-sent').click();
    await expect.poll(() => entries.count()).toBe(2);
    expect(await log.locator('[data-testid="notification-entry"][data-status="queued"]').count()).toBe(0);
    await keepScreenshot(page, 'device-notifications');
    await context.close();
  }, 60_000);
});
