/**
 * axe-core (@axe-core/playwright) on every main screen of the console, in Debian's Chromium against the
 * whole platform with its demo data (issue #30): no violation of any impact. A failure lists each rule
 * with the elements it found, so the fix can start from the message.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT_MS, launchBrowser, signedIn } from '../support/browser.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

const CONSOLE_BUILD = fileURLToPath(new URL('../../apps/console/dist-test', import.meta.url));

let platform: TestPlatform;
let browser: Browser;
let main: { context: BrowserContext; page: Page };

beforeAll(async () => {
  if (!existsSync(`${CONSOLE_BUILD}/index.html`)) {
    throw new Error(
      `${CONSOLE_BUILD} is missing: run \`npm run build:test -w @iot/console\` (npm test does)`,
    );
  }
  platform = await startTestPlatform({ CONSOLE_DIR: CONSOLE_BUILD });
  browser = await launchBrowser({ webgl: true });
  main = await signedIn(browser, platform.url, 'main@demo.test', { viewport: { width: 1440, height: 900 } });
  // A busy two-core machine (other suites beside this one) can take minutes to start the platform.
}, 300_000);
afterAll(async () => {
  await main?.context.close();
  await browser?.close();
  await platform?.stop();
});

/** The violations on the page as "rule (impact): selectors", empty when there are none. */
async function violations(page: Page): Promise<string[]> {
  // Toasts come and go on their own timer; they are checked where they are the subject, not here.
  const result = await new AxeBuilder({ page }).exclude('[data-sonner-toaster]').analyze();
  return result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

/** Opens a screen of the signed-in main user and waits for its content. */
async function screen(path: string, ready: string): Promise<Page> {
  const { page } = main;
  await page.goto(path);
  await page.getByTestId(ready).waitFor();
  await page.waitForLoadState('networkidle');
  return page;
}

describe('accessibility of the main screens (axe-core)', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  it('login', async () => {
    const context = await browser.newContext({ baseURL: platform.url, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByTestId('login-email').waitFor();
    expect(await violations(page)).toEqual([]);
    await context.close();
  });

  it.each([
    ['/dashboard', 'dashboard-grid'],
    ['/devices', 'devices-table'],
    ['/alarms', 'alarms-page'],
    ['/groups', 'groups-page'],
    ['/users', 'users-page'],
    ['/farming/fields', 'farming-fields-page'],
    ['/parking', 'parking-page'],
    ['/water/devices', 'water-devices-page'],
  ])('%s', async (path, ready) => {
    const page = await screen(path, ready);
    expect(await violations(page)).toEqual([]);
  });

  it('the device data drawer', async () => {
    const page = await screen('/devices', 'devices-table');
    await page.locator('[data-testid^="device-row-"]').first().click();
    await page.getByTestId('device-drawer').getByTestId('device-action-data').click();
    const drawer = page.getByTestId('device-data-drawer');
    await drawer.waitFor();
    await page.waitForLoadState('networkidle');
    expect(await violations(page)).toEqual([]);
  });

  it('company settings and messages', async () => {
    const page = await screen('/dashboard', 'dashboard-grid');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-settings').click();
    await page.getByTestId('company-drawer').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await violations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('company-drawer').waitFor({ state: 'detached' });
    await page.getByTestId('messages-button').click();
    await page.getByTestId('messages-drawer').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await violations(page)).toEqual([]);
  });

  it('client management and the client edit dialog (super admin)', async () => {
    const admin = await signedIn(browser, platform.url, 'admin@demo.test', {
      viewport: { width: 1440, height: 900 },
    });
    const { page } = admin;
    await page.goto('/admin/clients');
    await page.locator('[data-testid^="client-row-"]').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await violations(page)).toEqual([]);
    // The edit dialog of a client, with its limits and their current use loaded.
    await page.locator('[data-testid^="client-edit-"]').first().click();
    await page.getByTestId('client-edit-dialog').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await violations(page)).toEqual([]);
    await admin.context.close();
  });
});
