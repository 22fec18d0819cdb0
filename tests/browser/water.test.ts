/**
 * Water associations in Chromium against the whole platform with its demo data (issue #26):
 * - the association's main user accepts the open membership request and the menu badge drops;
 * - the demo client's main user shares a water meter with the association from its water devices, and
 *   the association's dashboard lists it beside the demo meters, with the demo client at 85 %, and draws
 *   the shared devices on its map;
 * - the association closes a valve the demo client shares with control (a downlink in the owner's name);
 * - a member company without the water module of its own still opens the water dashboard.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_TEST_TIMEOUT_MS,
  keepScreenshot,
  launchBrowser,
  signedIn as signIn,
} from '../support/browser.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  platform = await startTestPlatform({ SIMULATE_DEVICES: '0' });
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

const NWA_ID = 4;
const OTHER_COMPANY_ID = 3;
const DEMO_COMPANY_ID = 2;

describe('water association', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  it('accepts a membership request and the menu badge drops', async () => {
    const { context, page } = await signIn(browser, platform.url, 'main@water.test');
    try {
      const badge = page.getByTestId('menu-water-members-badge');
      await expect.poll(() => badge.textContent()).toBe('1');
      await page.getByTestId('menu-water-members').click();
      await page.getByTestId(`water-request-accept-${OTHER_COMPANY_ID}`).click();
      await page.getByTestId(`water-request-${OTHER_COMPANY_ID}`).waitFor({ state: 'detached' });
      await badge.waitFor({ state: 'detached' });
      await page.getByTestId(`water-member-${OTHER_COMPANY_ID}`).waitFor();
      await keepScreenshot(page, 'water-members-accepted');
    } finally {
      await context.close();
    }
  });

  it('shows the demo client at 85 %, then a meter it shares on the association’s dashboard', async () => {
    const { rows } = await platform.db.query<{ id: number }>(
      `SELECT id::int AS id FROM devices WHERE company_id = $1 AND name = 'Wasserzähler Hof'`,
      [DEMO_COMPANY_ID],
    );
    const meter = rows[0]!.id;
    const nwa = await signIn(browser, platform.url, 'main@water.test');
    try {
      await nwa.page.goto(`/water/${NWA_ID}`);
      const percent = nwa.page.getByTestId(`water-percent-${DEMO_COMPANY_ID}`);
      await expect.poll(() => percent.textContent()).toMatch(/^8[45](,\d)? %$/);
      expect(await nwa.page.getByTestId(`water-dashboard-device-${meter}`).count()).toBe(0);
      const demo = await signIn(browser, platform.url, 'main@demo.test');
      try {
        await demo.page.goto('/water/devices');
        await demo.page.getByTestId(`water-device-share-${meter}`).click();
        await demo.page.getByTestId(`water-share-read-${NWA_ID}`).click();
        await demo.page.getByTestId(`water-unshare-${NWA_ID}`).waitFor();
      } finally {
        await demo.context.close();
      }
      await nwa.page.reload();
      await nwa.page.getByTestId(`water-dashboard-device-${meter}`).waitFor();
      await nwa.page.getByTestId('water-map').waitFor();
      await keepScreenshot(nwa.page, 'water-dashboard');
    } finally {
      await nwa.context.close();
    }
  });

  it('closes a valve the demo client shares with control', async () => {
    // The demo seeds it: an irrigation valve on MQTT whose driver switches solenoid valves.
    const { rows } = await platform.db.query<{ id: number }>(
      `SELECT s.device_id::int AS id FROM nwa_shared_devices s
        WHERE s.nwa_company_id = $1 AND s.company_id = $2 AND s.access = 'control'`,
      [NWA_ID, DEMO_COMPANY_ID],
    );
    const valve = rows[0]!.id;
    const { context, page } = await signIn(browser, platform.url, 'main@water.test');
    try {
      await page.goto(`/water/shareddevices/${NWA_ID}`);
      await page.getByTestId(`water-valve-close-${valve}`).click();
      await expect
        .poll(async () => {
          const { rows: downlinks } = await platform.db.query<{ command: string; company_id: number }>(
            'SELECT command, company_id::int AS company_id FROM downlinks WHERE device_id = $1',
            [valve],
          );
          return downlinks;
        })
        .toEqual([{ command: 'switch_solenoid_valve', company_id: DEMO_COMPANY_ID }]);
    } finally {
      await context.close();
    }
  });

  it('opens the water dashboard for a member without the module of its own', async () => {
    await platform.db.query(
      `UPDATE companies SET modules = array_remove(modules, 'water_association') WHERE id = $1`,
      [DEMO_COMPANY_ID],
    );
    const { context, page } = await signIn(browser, platform.url, 'main@demo.test');
    try {
      await page.goto(`/water/${NWA_ID}`);
      await page.getByTestId('water-dashboard-page').waitFor();
      expect(new URL(page.url()).pathname).toBe(`/water/${NWA_ID}`);
      await page.getByTestId('water-map').waitFor();
    } finally {
      await context.close();
    }
  });
});
