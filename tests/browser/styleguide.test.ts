/**
 * The styleguide of spec section 2 in Chromium: every sub-path is its own page with its own components
 * (not one page for all), the menu's steps are pages of their own, and only the super admin sees them.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT_MS, keepScreenshot, launchBrowser, signedIn } from '../support/browser.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

const SUB_PATHS = [
  'formlayout',
  'input',
  'floatlabel',
  'button',
  'table',
  'list',
  'tree',
  'panel',
  'overlay',
  'menu',
  'menu/seat',
  'menu/payment',
  'menu/confirmation',
  'messages',
  'file',
  'chart',
  'map',
  'misc',
  'elements',
  'error',
  'display',
  'flexbox',
  'text',
  'icons',
  'grid',
  'spacing',
  'elevation',
  'typography',
  'crud',
  'page404',
  'empty',
  'api',
];

let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  platform = await startTestPlatform({ SIMULATE_DEVICES: '0' });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

describe('styleguide', () => {
  it(
    'shows each sub-path of spec section 2 as its own page, without console errors',
    async () => {
      const { context, page } = await signedIn(browser, platform.url, 'admin@demo.test');
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto('/styleguide');
        await page.getByTestId('styleguide-overview').waitFor();
        const headings = new Set<string>();
        for (const path of SUB_PATHS) {
          await page.goto(`/styleguide/${path}`);
          await page.getByTestId(`styleguide-section-${path.replace('/', '-')}`).waitFor();
          headings.add((await page.locator('h1').first().textContent()) ?? '');
        }
        // Every page is titled after its own category.
        expect(headings.size).toBe(SUB_PATHS.length);
        expect(errors).toEqual([]);
      } catch (error) {
        await keepScreenshot(page, 'styleguide-pages');
        throw error;
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT_MS * 2,
  );

  it(
    'walks the menu steps and runs the list with create, edit and delete',
    async () => {
      const { context, page } = await signedIn(browser, platform.url, 'admin@demo.test');
      try {
        await page.goto('/styleguide/menu');
        for (const step of ['seat', 'payment', 'confirmation']) {
          await page.getByTestId('styleguide-step-next').click();
          await page.waitForURL(`**/styleguide/menu/${step}`);
        }
        // The URL changes before the new step renders: wait for the marked step, not only the address.
        await expect.poll(() => page.locator('[aria-current="step"]').textContent()).toContain('4');

        await page.goto('/styleguide/crud');
        await page.getByTestId('styleguide-crud-add').click();
        const dialog = page.getByTestId('styleguide-crud-dialog');
        await dialog.locator('input[name="name"]').fill('Pumpe Süd');
        await dialog.locator('button[type="submit"]').click();
        await page.getByTestId('styleguide-crud').getByText('Pumpe Süd').waitFor();
        expect(await page.locator('[data-testid^="styleguide-crud-row-"]').count()).toBe(4);
      } catch (error) {
        await keepScreenshot(page, 'styleguide-steps');
        throw error;
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'sends everyone but the super admin to the dashboard',
    async () => {
      const { context, page } = await signedIn(browser, platform.url, 'main@demo.test');
      try {
        await page.goto('/styleguide/button');
        await page.waitForURL('**/dashboard');
        expect(await page.getByTestId('styleguide-page').count()).toBe(0);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
