/**
 * Client administration in Chromium (issue #27) against the embedded platform with the demo data: the
 * super admin creates a client whose main user is invited by mail, and a client without a module sees
 * the module's menu entry locked, with the hint, instead of a link.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT_MS, keepScreenshot, launchBrowser, signedIn } from '../support/browser.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

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

describe('client administration', () => {
  it(
    'creates a client with its main user, who is invited by mail',
    async () => {
      const { context, page } = await signedIn(browser, platform.url, 'admin@demo.test');
      try {
        await page.goto('/admin/clients');
        await page.getByTestId('client-create-open').click();
        const dialog = page.getByTestId('client-create-dialog');
        await dialog.getByTestId('client-name').fill('Browser Stadtwerke');
        await dialog.getByTestId('client-city').fill('Freiburg');
        await dialog.getByTestId('client-module-parking').check();
        await dialog.getByTestId('client-mainName').fill('Erika Browser');
        await dialog.getByTestId('client-mainEmail').fill('erika.browser@example.test');
        await dialog.getByTestId('client-create-submit').click();
        await page.getByTestId('clients-table').getByText('Browser Stadtwerke').waitFor();
        const { rows } = await platform.db.query<{ body: string }>(
          `SELECT body FROM outbox_emails WHERE 'erika.browser@example.test' = ANY(recipients)`,
        );
        expect(rows).toHaveLength(1);
        expect(rows[0]!.body).toContain('/login/reset-password/');
        const company = await platform.db.query<{ modules: string[] }>(
          `SELECT modules FROM companies WHERE name = 'Browser Stadtwerke'`,
        );
        expect(company.rows[0]!.modules).toEqual(['parking']);
      } catch (error) {
        await keepScreenshot(page, 'clients-create');
        throw error;
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'shows an unlicensed module locked in the menu, with the hint, and opens no page for it',
    async () => {
      await platform.db.query(
        `UPDATE companies SET modules = array_remove(modules, 'farming')
          WHERE id = (SELECT company_id FROM users WHERE email = 'main@demo.test')`,
      );
      const { context, page } = await signedIn(browser, platform.url, 'main@demo.test');
      try {
        await page.goto('/dashboard');
        const locked = page.getByTestId('menu-farming-fields');
        await locked.waitFor();
        expect(await locked.getAttribute('data-locked')).toBe('true');
        expect(await page.getByTestId('menu-parking').getAttribute('href')).toBe('/parking');
        await locked.hover();
        const hint = page.getByTestId('menu-farming-fields-locked-hint');
        await hint.waitFor();
        // main@demo.test reads the console in German.
        expect(await hint.textContent()).toContain('nicht lizenziert');
        // No link to follow: the entry is a disabled button, and a forced click leaves the page as it is.
        expect(await locked.getAttribute('href')).toBeNull();
        expect(await locked.getAttribute('aria-disabled')).toBe('true');
        await locked.click({ force: true });
        expect(new URL(page.url()).pathname).toBe('/dashboard');
      } catch (error) {
        await keepScreenshot(page, 'clients-locked-module');
        throw error;
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'caps the data retention in the client dialog, and the main user sets it in the company settings',
    async () => {
      const { rows } = await platform.db.query<{ id: number }>(
        `SELECT company_id::int AS id FROM users WHERE email = 'main@demo.test'`,
      );
      const companyId = rows[0]!.id;
      const admin = await signedIn(browser, platform.url, 'admin@demo.test');
      try {
        await admin.page.goto('/admin/clients');
        await admin.page.getByTestId(`client-edit-${companyId}`).click();
        const dialog = admin.page.getByTestId('client-edit-dialog');
        await dialog.getByTestId('client-limit-max_data_retention_days').fill('365');
        // The demo's super admin reads the console in German: the client keeps its data for ever so far.
        expect(await dialog.getByTestId('client-retention-own').textContent()).toContain('unbegrenzt');
        await dialog.getByTestId('client-edit-submit').click();
        await dialog.waitFor({ state: 'detached' });
      } catch (error) {
        await keepScreenshot(admin.page, 'clients-retention-cap');
        throw error;
      } finally {
        await admin.context.close();
      }
      const { context, page } = await signedIn(browser, platform.url, 'main@demo.test');
      try {
        await page.goto('/dashboard');
        await page.getByTestId('user-menu').click();
        await page.getByTestId('user-menu-settings').click();
        const retention = page.getByTestId('company-retention');
        // main@demo.test reads the console in German; the cap is shown beside the fields.
        await retention.getByText('höchstens 365 Tage').waitFor();
        await retention.getByTestId('company-retention-data').fill('90');
        await retention.getByTestId('company-retention-rollups').fill('730');
        await page.getByTestId('company-submit').click();
        await page.getByTestId('company-form').waitFor({ state: 'detached' });
        const company = await platform.db.query(
          `SELECT data_retention_days, rollup_retention_days, limits->'max_data_retention_days' AS cap
             FROM companies WHERE id = $1`,
          [companyId],
        );
        expect(company.rows[0]).toEqual({ data_retention_days: 90, rollup_retention_days: 730, cap: 365 });
      } catch (error) {
        await keepScreenshot(page, 'clients-retention-settings');
        throw error;
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
