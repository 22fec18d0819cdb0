/**
 * The company's integrations in Chromium (Settings -> Integrations, ROLE_ADMIN and ROLE_MAINUSER) against
 * the whole embedded platform: a ChirpStack webhook token created in the console is shown once and lets
 * a ChirpStack uplink in; the LoRaWAN network server set there takes the command the console sends to a
 * LoRaWAN relay board. ChirpStack is a local stand-in serving its own gRPC service definition
 * (@iot/delivery/testing/chirpstack): ChirpStack itself is not installed here.
 */
import { randomUUID } from 'node:crypto';
import { type ChirpstackStandIn, startChirpstackStandIn } from '@iot/delivery/testing/chirpstack';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_TEST_TIMEOUT_MS,
  keepScreenshot,
  launchBrowser,
  signedIn as signIn,
} from '../support/browser.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';
import { waitFor } from '../support/wait-for.js';

const LNS_TOKEN = 'chirpstack-api-token-of-the-demo';
/** The demo's srd_gateway relay board, made a LoRaWAN device for this test. */
const RELAY_BOARD = 'Demo Cold Room Cooling';
const DEV_EUI = 'a1b2c3d4e5f60708';

let platform: TestPlatform;
let browser: Browser;
let chirpstack: ChirpstackStandIn;
let relayBoardId: number;
/** The ChirpStack webhook token the first test creates in the console; the second reports an ack with it. */
let chirpstackToken: string;

beforeAll(async () => {
  // The ChirpStack stand-in listens on 127.0.0.1, which the notifier may call only with this setting.
  platform = await startTestPlatform({ SIMULATE_DEVICES: '0', HTTP_ACTIONS_ALLOW_PRIVATE: 'true' });
  browser = await launchBrowser();
  chirpstack = await startChirpstackStandIn({ apiToken: LNS_TOKEN, devEuis: [DEV_EUI] });
  const { rows } = await platform.db.query<{ id: number }>(
    'UPDATE devices SET dev_eui = $2 WHERE name = $1 RETURNING id::int AS id',
    [RELAY_BOARD, DEV_EUI],
  );
  relayBoardId = rows[0]!.id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await chirpstack?.close();
  await platform?.stop();
});

function signedIn(email: string) {
  return signIn(browser, platform.url, email);
}

async function openIntegrations(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-menu-settings').click();
  await page.getByTestId('settings-tab-integrations').click();
  const panel = page.getByTestId('integrations');
  await panel.waitFor();
  return panel;
}

/** ChirpStack's ack event for the relay board, as its HTTP integration posts it, with the test's token. */
async function reportAck(event: { queueItemId: string; acknowledged?: true; fCntDown: number }) {
  const res = await fetch(`${platform.ingestUrl}/chirpstack?event=ack`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${chirpstackToken}` },
    body: JSON.stringify({
      time: new Date().toISOString(),
      deviceInfo: { devEui: DEV_EUI, deviceName: RELAY_BOARD },
      ...event,
    }),
  });
  expect(res.status).toBe(200);
}

/** The relay board's command dialog, from the device list. */
async function openCommandDialog(page: Page) {
  await page.goto(`/devices?q=${encodeURIComponent(RELAY_BOARD)}`);
  await page.getByTestId(`device-row-${relayBoardId}`).click();
  await page.getByTestId('device-drawer').getByTestId('device-action-downlink').click();
  const dialog = page.getByTestId('device-downlink-dialog');
  await dialog.waitFor();
  return dialog;
}

describe('integrations in Chromium', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  it('a main user creates a ChirpStack webhook token that lets uplinks in, shown only once', async () => {
    const { context, page } = await signedIn('main@demo.test');
    const panel = await openIntegrations(page);
    await panel.getByTestId('integration-token-kind').selectOption('chirpstack');
    await panel.getByTestId('integration-token-name').fill('Farm LNS');
    await panel.getByTestId('integration-token-create').click();
    const shown = panel.getByTestId('integration-token-value');
    await shown.waitFor();
    const token = (await shown.textContent())!.trim();
    expect(token.length).toBeGreaterThan(20);
    chirpstackToken = token;
    const row = panel.locator('[data-testid^="integration-token-"][data-revoked="false"]').filter({
      hasText: 'Farm LNS',
    });
    await expect.poll(() => row.count()).toBe(1);

    // ChirpStack's HTTP integration, authenticated with the token from the console.
    const response = await fetch(`${platform.ingestUrl}/chirpstack?event=up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        deduplicationId: randomUUID(),
        time: new Date().toISOString(),
        deviceInfo: { devEui: DEV_EUI, deviceName: RELAY_BOARD },
        fCnt: 1,
        fPort: 1,
        object: { relay_1: 1 },
      }),
    });
    expect(response.status).toBeLessThan(300);
    await waitFor('the uplink stored', 30_000, async () => {
      const { rows } = await platform.db.query(
        `SELECT 1 FROM device_data WHERE device_id = $1 AND data ? 'relay_1'`,
        [relayBoardId],
      );
      return rows[0];
    });

    // Closed and opened again, the token is not shown any more: only its name and use.
    await page.getByTestId('drawer-close').click();
    const again = await openIntegrations(page);
    await expect.poll(() => again.getByTestId('integration-tokens-list').textContent()).toContain('Farm LNS');
    expect(await again.getByTestId('integration-token-value').count()).toBe(0);
    expect(await page.content()).not.toContain(token);
    await context.close();
  });

  it('a main user sets the network server, and a command to a LoRaWAN relay board is queued there', async () => {
    const { context, page } = await signedIn('main@demo.test');
    // Before: the command dialog says the LoRaWAN board cannot take commands, and offers no send.
    const dialog = await openCommandDialog(page);
    await expect.poll(() => dialog.getByTestId('downlink-via').getAttribute('data-via')).toBe('none');
    expect(await dialog.getByTestId('downlink-send').isEnabled()).toBe(false);
    await page.keyboard.press('Escape');
    await page.goto('/dashboard');

    const panel = await openIntegrations(page);
    const server = panel.getByTestId('network-server');
    expect(await server.getAttribute('data-state')).toBe('unset');
    await server.getByTestId('network-server-url').fill('chirpstack:8080');
    await expect.poll(() => server.getByTestId('network-server-url-error').count()).toBe(1);
    expect(await server.getByTestId('network-server-save').isEnabled()).toBe(false);
    await server.getByTestId('network-server-url').fill(chirpstack.url);
    await server.getByTestId('network-server-token').fill(LNS_TOKEN);
    await server.getByTestId('network-server-save').click();
    await expect.poll(() => server.getAttribute('data-state')).toBe('set');
    expect(await server.getByTestId('network-server-token').inputValue()).toBe('');
    await keepScreenshot(page, 'settings-integrations');

    // After a reload the address is there and the token is kept, not shown.
    await page.reload();
    const reopened = (await openIntegrations(page)).getByTestId('network-server');
    await expect.poll(() => reopened.getByTestId('network-server-url').inputValue()).toBe(chirpstack.url);
    expect(await reopened.getByTestId('network-server-token').inputValue()).toBe('');
    expect(await page.content()).not.toContain(LNS_TOKEN);
    await page.getByTestId('drawer-close').click();

    // The console's command dialog on the LoRaWAN relay board: queued at ChirpStack, listed as sent.
    const commands = await openCommandDialog(page);
    await expect.poll(() => commands.getByTestId('downlink-via').getAttribute('data-via')).toBe('chirpstack');
    await commands.getByTestId('downlink-command').selectOption('switch_relay_output');
    await commands.getByTestId('downlink-param-output').fill('1');
    await commands.getByTestId('downlink-param-on').selectOption('true');
    await commands.getByTestId('downlink-send').click();
    await expect.poll(() => chirpstack.queued.length, { timeout: 15_000 }).toBe(1);
    // srd_gateway: 01 (version) 04 (switch_relay_output) 01 (relay 1) 01 (on), port 10.
    expect(chirpstack.queued[0]).toMatchObject({
      devEui: DEV_EUI,
      fPort: 10,
      data: '01040101',
      authorization: `Bearer ${LNS_TOKEN}`,
    });
    const latest = commands.getByTestId('downlink-history').locator('[data-testid^="downlink-"]').first();
    await expect.poll(() => latest.getByTestId('downlink-state').getAttribute('data-state')).toBe('sent');
    const { rows } = await platform.db.query<{ state: string; reference: string }>(
      'SELECT state, reference FROM downlinks WHERE device_id = $1 ORDER BY id DESC LIMIT 1',
      [relayBoardId],
    );
    expect(rows[0]).toEqual({ state: 'sent', reference: chirpstack.queued[0]!.id });
    expect(await latest.getByTestId('downlink-awaiting').textContent()).toBe(
      'beim Netzwerkserver eingereiht, wartet auf das Gerät',
    );

    // The board acknowledges the confirmed command; ChirpStack's ack event names the queue item. The open
    // dialog follows the history and shows it acknowledged, with when.
    expect(chirpstack.queued[0]!.confirmed).toBe(true);
    await reportAck({ queueItemId: chirpstack.queued[0]!.id, acknowledged: true, fCntDown: 1 });
    await expect
      .poll(() => latest.getByTestId('downlink-state').getAttribute('data-state'), { timeout: 20_000 })
      .toBe('acknowledged');
    // The demo's users read German: the time as 22.11.2026, 13:11.
    expect(await latest.getByTestId('downlink-awaiting').count()).toBe(0);
    expect(await latest.getByTestId('downlink-acknowledged').textContent()).toMatch(
      /^vom Gerät bestätigt \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/,
    );
    await context.close();
  });

  it('a command the device never acknowledged reaches every user as a message in their language', async () => {
    // Runs after the test above: the network server is set. The main user sends another relay command…
    const { context, page } = await signedIn('main@demo.test');
    const commands = await openCommandDialog(page);
    await expect.poll(() => commands.getByTestId('downlink-via').getAttribute('data-via')).toBe('chirpstack');
    const before = chirpstack.queued.length;
    await commands.getByTestId('downlink-command').selectOption('reboot');
    await commands.getByTestId('downlink-send').click();
    await expect.poll(() => chirpstack.queued.length, { timeout: 15_000 }).toBe(before + 1);
    await context.close();

    // …that the board never acknowledges: ChirpStack's ack event then leaves out `acknowledged`.
    await reportAck({ queueItemId: chirpstack.queued[before]!.id, fCntDown: 2 });

    // The storage writer fails the command and the trigger writes the company's message…
    await expect
      .poll(
        async () =>
          (
            await platform.db.query(
              `SELECT 1 FROM messages WHERE kind = 'downlink_failed' AND device_id = $1`,
              [relayBoardId],
            )
          ).rows.length,
        { timeout: 30_000 },
      )
      .toBe(1);
    // …which a plain user, who never saw the dialog, reads in the messages drawer, worded in German.
    const reader = await signedIn('user@demo.test');
    await expect
      .poll(
        async () => Number(await reader.page.getByTestId('messages-button').getAttribute('data-unread')),
        {
          timeout: 20_000,
        },
      )
      .toBeGreaterThan(0);
    await reader.page.getByTestId('messages-button').click();
    const message = reader.page
      .getByTestId('messages-drawer')
      .locator('[data-kind="downlink_failed"]')
      .filter({ hasText: RELAY_BOARD });
    await message.waitFor();
    // The subject follows the badge "Neu" of an unread message.
    expect(await message.getByTestId('message-subject').textContent()).toBe(
      `NeuBefehl nicht zugestellt: ${RELAY_BOARD}`,
    );
    expect(await message.getByTestId('message-body').textContent()).toMatch(
      /^„Gerät neu starten“, gesendet \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}, hat das Gerät nicht erreicht: vom Gerät nicht bestätigt\. /,
    );
    await keepScreenshot(reader.page, 'messages-downlink-failed');
    // The message opens the device's drawer on the device list, found by id; the link leaves the URL.
    await message.getByTestId('message-device-link').click();
    const drawer = reader.page.getByTestId('device-drawer');
    await drawer.waitFor();
    expect(await drawer.textContent()).toContain(RELAY_BOARD);
    await expect.poll(() => new URL(reader.page.url()).search).toBe('');
    await reader.page.getByTestId(`device-row-${relayBoardId}`).waitFor();
    // A link to a device the reader cannot see (deleted, or another company's) says so.
    await reader.page.goto('/devices?device=999999999');
    await reader.page.getByTestId('toast-info').waitFor();
    expect(await reader.page.getByTestId('toast-info').textContent()).toContain(
      'nicht mehr in Ihrer Geräteliste',
    );
    expect(await reader.page.getByTestId('device-drawer').count()).toBe(0);
    await reader.context.close();

    // The main user's command history shows it failed, with the reason in German too, and, as for a
    // rule's command that the network server took only on a retry (one row, migration 0026), its attempts.
    await platform.db.query(
      'UPDATE downlinks SET attempts = 3 WHERE id = (SELECT max(id) FROM downlinks WHERE device_id = $1)',
      [relayBoardId],
    );
    const manager = await signedIn('main@demo.test');
    const history = (await openCommandDialog(manager.page)).getByTestId('downlink-history');
    const latest = history.locator('[data-testid^="downlink-"]').first();
    await expect.poll(() => latest.getByTestId('downlink-state').getAttribute('data-state')).toBe('failed');
    expect(await latest.getByTestId('downlink-error').textContent()).toBe('vom Gerät nicht bestätigt');
    expect(await latest.getByTestId('downlink-attempts').textContent()).toBe(' · 3 Versuche');
    await manager.context.close();
  });

  it('a plain user’s settings have no integrations tab', async () => {
    const { context, page } = await signedIn('user@demo.test');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-settings').click();
    await page.getByTestId('company-form').waitFor();
    expect(await page.getByTestId('settings-tab-integrations').count()).toBe(0);
    expect(await page.getByTestId('integrations').count()).toBe(0);
    await context.close();
  });
});
