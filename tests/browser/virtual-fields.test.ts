/**
 * Virtual data fields in the console (issue 23): a stored virtual field on the demo cold room, computed by
 * the rules worker from a real uplink through the ingest front door, appears in the device drawer's latest
 * values and as a chart and a table column of the data drawer, each time under
 * its given name, not its key `virtual.<uuid>.<name>`.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT_MS, keepScreenshot, launchBrowser, signedIn } from '../support/browser.js';
import { findColdRoom, issueDeviceToken, uplinkPoster } from '../support/cold-room.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  // No simulated fleet: the cold room reports only this test's uplink.
  platform = await startTestPlatform({ SIMULATE_DEVICES: '0' });
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

describe('virtual data fields', { timeout: 3 * BROWSER_TEST_TIMEOUT_MS }, () => {
  it('shows a stored virtual field by its name in the info and data drawers and the rule picker', async () => {
    const { coldRoom } = await findColdRoom(platform.db);
    const { rows } = await platform.db.query<{ uuid: string }>(
      `INSERT INTO virtual_data_fields (company_id, device_id, name, unit, formula, store)
       VALUES ($1, $2, 'Fahrenheit', '°F', 'temperature * 1.8 + 32', true) RETURNING uuid::text AS uuid`,
      [coldRoom.company_id, coldRoom.id],
    );
    const key = `virtual.${rows[0]!.uuid}.Fahrenheit`;
    const post = uplinkPoster(platform.ingestUrl, coldRoom, await issueDeviceToken(platform.db, coldRoom.id));
    expect(await post({ temperature: 5, humidity: 70, message_id: 'browser-virtual-field' })).toBe(202);
    await expect
      .poll(
        async () => {
          const current = await platform.db.query<{ data: Record<string, unknown> }>(
            'SELECT data FROM device_current WHERE device_id = $1',
            [coldRoom.id],
          );
          return current.rows[0]?.data[key];
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(41);

    const { context, page } = await signedIn(browser, platform.url, 'main@demo.test');
    try {
      await page.goto(`/devices?q=${encodeURIComponent('Demo Cold Room')}`);
      await page.getByTestId(`device-row-${coldRoom.id}`).click();
      const drawer = page.getByTestId('device-drawer');
      const latest = drawer.getByTestId(`latest-${key}`);
      await latest.waitFor();
      expect(await latest.textContent()).toContain('Fahrenheit');
      expect(await latest.textContent()).not.toContain('virtual.');

      await drawer.getByTestId('device-action-data').click();
      const data = page.getByTestId('device-data-drawer');
      const chart = data.locator(`[data-testid="data-chart"][data-field="${key}"]`);
      await chart.locator('.uplot canvas').waitFor();
      expect(await chart.locator('h3').textContent()).toBe('Fahrenheit');
      await keepScreenshot(page, 'virtual-field-data-drawer');
      await data.getByTestId('data-view-table').click();
      await expect.poll(() => data.locator('thead th').allTextContents()).toContain('Fahrenheit');
    } finally {
      await context.close();
    }
  });
});
