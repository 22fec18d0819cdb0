/**
 * Alarms, messages and rules in Chromium against the whole platform with its demo data: a 9 °C uplink of
 * the Demo Cold Room (rule "temperature gte 8" -> alarm, email, system message) shows up on /alarms
 * with the next poll and is acknowledged; the top bar's unread badge drops when the message is read;
 * the cold room's rules drawer shows the rule, editable for the main user and read-only for a plain user.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_TEST_TIMEOUT_MS,
  keepScreenshot,
  launchBrowser,
  signedIn as signIn,
  toastsGone,
} from '../support/browser.js';
import { postUplink } from '../support/cold-room.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

/** The console polls the alarm list every 30 s (features/alarms/api/get-alarms.ts); one poll plus slack. */
const POLL_WAIT_MS = 45_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

let platform: TestPlatform;
let browser: Browser;
let ingestPort: number;
let coldRoom: { id: number; uuid: string };

beforeAll(async () => {
  ingestPort = await freePort();
  // No simulated fleet: only this test's uplink can raise an alarm.
  platform = await startTestPlatform({ INGEST_PORT: String(ingestPort), SIMULATE_DEVICES: '0' });
  browser = await launchBrowser();
  const { rows } = await platform.db.query<{ id: number; uuid: string }>(
    `SELECT id, uuid::text FROM devices WHERE name = 'Demo Cold Room'`,
  );
  coldRoom = rows[0]!;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

function signedIn(email: string) {
  return signIn(browser, platform.url, email);
}

/** A warm uplink over the ingest HTTP front door with a fresh device token (sha-256 stored, as rotated). */
async function pushWarmUplink(): Promise<void> {
  const token = randomBytes(16).toString('hex');
  await platform.db.query('UPDATE devices SET credentials_hash = $2 WHERE id = $1', [
    coldRoom.id,
    createHash('sha256').update(token).digest('hex'),
  ]);
  const ingestUrl = `http://127.0.0.1:${ingestPort}/ingest/v1`;
  const body = { temperature: 9, humidity: 80, message_id: 'browser-cold-room-warm' };
  expect(await postUplink(ingestUrl, coldRoom.uuid, token, body)).toBe(202);
}

async function unreadBadge(page: Page): Promise<number> {
  return Number(await page.getByTestId('messages-button').getAttribute('data-unread'));
}

describe('alarms, messages and rules in Chromium', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  it('the main user sees the cold room alarm after a poll, acknowledges it and reads the message', async () => {
    const { context, page } = await signedIn('main@demo.test');
    await page.goto('/alarms');
    await expect.poll(() => page.getByTestId('alarms-table').count()).toBe(1);
    // The demo's own timers (parking, water) may raise alarms of other devices meanwhile: only the cold
    // room's row is this test's.
    const row = page.locator('[data-testid^="alarm-row-"]').filter({ hasText: 'Demo Cold Room' });
    expect(await row.count()).toBe(0);
    const unreadBefore = await unreadBadge(page);

    await pushWarmUplink();
    await expect.poll(() => row.count(), { timeout: POLL_WAIT_MS, interval: 1000 }).toBe(1);
    expect(await row.getAttribute('data-state')).toBe('raised');
    await expect.poll(() => row.textContent()).toContain('Kühlraum zu warm');
    expect(await row.getByTestId('alarm-state').getAttribute('data-state')).toBe('raised');
    await keepScreenshot(page, 'alarms-page');

    const alarmId = Number((await row.getAttribute('data-testid'))!.replace('alarm-row-', ''));
    await page.getByTestId(`alarm-ack-${alarmId}`).click();
    await expect.poll(() => row.getAttribute('data-state')).toBe('acknowledged');
    expect(await page.getByTestId(`alarm-ack-${alarmId}`).count()).toBe(0);
    const { rows: stored } = await platform.db.query<{ state: string; acknowledged_at: Date | null }>(
      'SELECT state, acknowledged_at FROM alarms WHERE id = $1',
      [alarmId],
    );
    expect(stored[0]?.state).toBe('acknowledged');
    expect(stored[0]?.acknowledged_at).not.toBeNull();
    // The filter is in the URL: "all" keeps the acknowledged alarm listed too. The acknowledgement's toast
    // covers the filter (both top right) until it closes.
    await toastsGone(page);
    await page.getByTestId('alarms-filter-all').click();
    await page.waitForURL('**/alarms?show=all');
    await expect.poll(() => row.count()).toBe(1);

    // The rule's system message: the badge counts it (it refreshes every minute; a reload is quicker).
    await page.reload();
    await expect.poll(() => unreadBadge(page), { timeout: 20_000 }).toBeGreaterThan(unreadBefore);
    const unreadWithIt = await unreadBadge(page);
    await page.getByTestId('messages-button').click();
    const drawer = page.getByTestId('messages-drawer');
    const message = drawer.locator('[data-testid^="message-"][data-read="false"]').filter({
      hasText: 'Demo Cold Room: Temperatur 9 °C',
    });
    await expect.poll(() => message.count()).toBe(1);
    const messageId = (await message.getAttribute('data-testid'))!.replace('message-', '');
    await drawer.getByTestId(`message-read-${messageId}`).click();
    await expect.poll(() => unreadBadge(page)).toBe(unreadWithIt - 1);
    // Read ones are hidden until the toggle shows them, then listed as read.
    await expect.poll(() => drawer.getByTestId(`message-${messageId}`).count()).toBe(0);
    await drawer.getByTestId('messages-show-read').click();
    await expect
      .poll(() => drawer.getByTestId(`message-${messageId}`).getAttribute('data-read'))
      .toBe('true');
    await context.close();
  }, 120_000);

  it('the rules drawer of the cold room shows the rule: editable for the main user', async () => {
    const { context, page } = await signedIn('main@demo.test');
    await page.goto('/alarms?show=all');
    const row = page.locator('[data-testid^="alarm-row-"]').filter({ hasText: 'Demo Cold Room' });
    await expect.poll(() => row.count()).toBe(1);
    await row.click();
    await page.getByTestId('device-drawer').getByTestId('device-action-rules').click();
    const rules = page.getByTestId('device-rules-drawer');
    const rule = rules.locator('[data-testid^="rule-"]').filter({ hasText: 'Kühlraum zu warm' }).first();
    await expect.poll(() => rule.count()).toBe(1);
    // The demo users read German: the field by its label (and stored name), the operator with its sign.
    expect(await rule.getByTestId('rule-condition').textContent()).toMatch(
      /^Temperatur \(temperature\) .*\(≥\) 8$/,
    );
    expect(await rules.getByTestId('rule-add').count()).toBe(1);
    const ruleId = (await rule.getAttribute('data-testid'))!.replace('rule-', '');
    await rules.getByTestId(`rule-edit-${ruleId}`).click();
    const form = rules.getByTestId('rule-form');
    await expect.poll(() => form.getByTestId('rule-operator').inputValue()).toBe('gte');
    expect(await form.getByTestId('rule-data_field').inputValue()).toBe('temperature');
    expect(await form.getByTestId('rule-value').inputValue()).toBe('8');
    expect(await form.getByTestId('rule-fieldset').getAttribute('disabled')).toBeNull();
    expect(await form.getByTestId('rule-value').isEditable()).toBe(true);
    // The email action lists its placeholders; a broken recipient blocks saving.
    const email = form.locator('[data-channel="email"]').first();
    expect(await email.textContent()).toContain('{device} {field} {value} {unit} {time} {rule}');
    expect(await form.getByTestId('rule-submit').isEnabled()).toBe(true);
    const recipient = email.locator('[data-testid$="-recipient"]');
    const original = await recipient.inputValue();
    await recipient.fill('not-an-address');
    await expect.poll(() => form.getByTestId('rule-submit').isEnabled()).toBe(false);
    await recipient.fill(original);
    await expect.poll(() => form.getByTestId('rule-submit').isEnabled()).toBe(true);
    await keepScreenshot(page, 'rules-editor');
    // Saved unchanged, the rule goes back through PUT /core/devices/{id} and the API's checks as it was.
    await form.getByTestId('rule-submit').click();
    await expect.poll(() => rules.getByTestId('rule-form').count()).toBe(0);
    const { rows: saved } = await platform.db.query<{ operator: string; value: number; channels: string[] }>(
      `SELECT r.operator, r.value::float8 AS value,
              (SELECT array_agg(a.type::text ORDER BY a.type) FROM rule_actions a WHERE a.rule_id = r.id) AS channels
         FROM rules r WHERE r.id = $1`,
      [Number(ruleId)],
    );
    expect(saved[0]).toMatchObject({ operator: 'gte', value: 8 });
    expect(saved[0]?.channels).toContain('email');
    // The command dialog is there for the main user.
    expect(await page.getByTestId('device-drawer').getByTestId('device-action-downlink').count()).toBe(1);
    await context.close();
  });

  it('a plain user sees the rules read-only and no command button', async () => {
    const { context, page } = await signedIn('user@demo.test');
    await page.goto('/alarms?show=all');
    const row = page.locator('[data-testid^="alarm-row-"]').filter({ hasText: 'Demo Cold Room' });
    await expect.poll(() => row.count()).toBe(1);
    await row.click();
    const device = page.getByTestId('device-drawer');
    await device.getByTestId('device-action-rules').click();
    expect(await device.getByTestId('device-action-downlink').count()).toBe(0);
    const rules = page.getByTestId('device-rules-drawer');
    await expect.poll(() => rules.getByTestId('rules-read-only').count()).toBe(1);
    expect(await rules.getByTestId('rule-add').count()).toBe(0);
    const rule = rules.locator('[data-testid^="rule-"]').filter({ hasText: 'Kühlraum zu warm' }).first();
    await expect.poll(() => rule.count()).toBe(1);
    const ruleId = (await rule.getAttribute('data-testid'))!.replace('rule-', '');
    expect(await rules.getByTestId(`rule-delete-${ruleId}`).count()).toBe(0);
    await rules.getByTestId(`rule-edit-${ruleId}`).click();
    const form = rules.getByTestId('rule-form');
    await expect.poll(() => form.getByTestId('rule-fieldset').getAttribute('disabled')).toBe('');
    expect(await form.getByTestId('rule-value').isDisabled()).toBe(true);
    expect(await form.getByTestId('rule-submit').count()).toBe(0);
    await context.close();
  });

  it('virtual field preview on the latest values, sensor check bounds and the command dialog', async () => {
    const { context, page } = await signedIn('main@demo.test');
    await page.goto('/alarms?show=all');
    const row = page.locator('[data-testid^="alarm-row-"]').filter({ hasText: 'Demo Cold Room' });
    await expect.poll(() => row.count()).toBe(1);
    await row.click();
    const device = page.getByTestId('device-drawer');

    // Virtual field: the preview computes on the cold room's latest temperature (9 °C, pushed above).
    await device.getByTestId('device-action-virtual-fields').click();
    const virtual = page.getByTestId('device-virtual-fields-drawer');
    await virtual.getByTestId('virtual-add').click();
    await virtual.getByTestId('virtual-name').fill('double_temp');
    await virtual.getByTestId('virtual-formula').fill('temperature * 2');
    await expect
      .poll(() => virtual.getByTestId('virtual-preview-value').count(), { timeout: 10_000 })
      .toBe(1);
    expect(await virtual.getByTestId('virtual-preview-value').textContent()).toBe('18');
    // A broken formula is the API's 89, shown translated.
    await virtual.getByTestId('virtual-formula').fill('temperature *');
    await expect
      .poll(() => virtual.getByTestId('virtual-preview-error').getAttribute('data-code'), { timeout: 10_000 })
      .toBe('89');
    await virtual.getByTestId('virtual-formula').fill('temperature * 2');
    await virtual.getByTestId('virtual-submit').click();
    await expect.poll(() => virtual.locator('[data-testid^="virtual-edit-"]').count()).toBe(1);
    const { rows: fields } = await platform.db.query<{ formula: string }>(
      'SELECT formula FROM virtual_data_fields WHERE device_id = $1',
      [coldRoom.id],
    );
    expect(fields).toEqual([{ formula: 'temperature * 2' }]);

    await virtual.getByTestId('drawer-close').click();
    await expect.poll(() => virtual.count()).toBe(0);

    // Sensor check: an implausible temperature comes with the spec's bounds -20 to 100.
    await device.getByTestId('device-action-sensor-checks').click();
    const checks = page.getByTestId('device-sensor-checks-drawer');
    await checks.getByTestId('check-add').click();
    await checks.getByTestId('check-kind').selectOption('implausible_value');
    await checks.getByTestId('check-data_field').selectOption('temperature');
    expect(await checks.getByTestId('check-min').inputValue()).toBe('-20');
    expect(await checks.getByTestId('check-max').inputValue()).toBe('100');
    await checks.getByTestId('check-submit').click();
    await expect.poll(() => checks.locator('[data-testid^="check-edit-"]').count()).toBe(1);

    await checks.getByTestId('drawer-close').click();
    await expect.poll(() => checks.count()).toBe(0);

    // Command dialog: the catalogue's nine commands; an interval beyond a week cannot be sent. The demo's
    // cold room is a LoRaWAN device, which takes commands only through a network server: the company gets
    // one (nothing is sent here), and the dialog says where a command would go.
    await platform.db.query(
      `INSERT INTO network_servers (company_id, kind, api_url, api_token)
       SELECT company_id, 'chirpstack', 'https://chirpstack.example.test', 'token' FROM devices WHERE id = $1
       ON CONFLICT (company_id) DO NOTHING`,
      [coldRoom.id],
    );
    await device.getByTestId('device-action-downlink').click();
    const dialog = page.getByTestId('device-downlink-dialog');
    await expect.poll(() => dialog.getByTestId('downlink-via').getAttribute('data-via')).toBe('chirpstack');
    await expect.poll(() => dialog.getByTestId('downlink-command').locator('option').count()).toBe(9);
    await dialog.getByTestId('downlink-command').selectOption('set_reporting_interval');
    await dialog.getByTestId('downlink-param-minutes').fill('20000');
    await expect.poll(() => dialog.getByTestId('downlink-send').isEnabled()).toBe(false);
    await dialog.getByTestId('downlink-param-minutes').fill('15');
    await expect.poll(() => dialog.getByTestId('downlink-send').isEnabled()).toBe(true);
    await context.close();
  });
});
