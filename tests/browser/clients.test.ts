/**
 * Client administration in Chromium (issue #27) against the embedded platform with the demo data and
 * an SMTP stand-in: the super admin creates a client whose main user is invited by mail, edits one
 * (modules, logo shown in the shell, limits, block), deletes it after the purge preview and restores it
 * from the deleted list; a main user grants support access; a client without a module sees the module's
 * menu entry, SMS and voice actions and map widgets locked, with the hint.
 */
import { readMail, startTestSmtp, type TestSmtp } from '@iot/delivery/testing/smtp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api-session.js';
import {
  BROWSER_TEST_TIMEOUT_MS,
  DEMO_PASSWORD,
  keepScreenshot,
  launchBrowser,
  signedIn,
  toastsGone,
} from '../support/browser.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

let platform: TestPlatform;
let smtp: TestSmtp;
let browser: Browser;

// A 1×1 PNG: the smallest logo the API accepts.
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  smtp = await startTestSmtp();
  platform = await startTestPlatform({ SIMULATE_DEVICES: '0', SMTP_URL: smtp.url });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await smtp?.close();
});

async function adminSession(): Promise<ApiSession> {
  const session = new ApiSession(platform.url);
  expect((await session.login('admin@demo.test', DEMO_PASSWORD)).status).toBe(200);
  return session;
}

/** A client made through the API for a test of its own; answers its id. */
async function apiClient(name: string): Promise<number> {
  const admin = await adminSession();
  const created = await admin.call<{ id: number }>('POST', '/api/v1/admin/clients', {
    name,
    modules: [],
    main_user: { email: `${name.toLowerCase().replace(/\W+/g, '.')}@example.test`, name: 'Main' },
  });
  expect(created.status).toBe(200);
  return created.body.payload!.id;
}

async function demoCompanyId(): Promise<number> {
  const { rows } = await platform.db.query<{ company_id: number }>(
    `SELECT company_id FROM users WHERE email = 'main@demo.test'`,
  );
  return rows[0]!.company_id;
}

/** Runs `body` on a signed-in page, keeping a screenshot named `shot` when it fails. */
async function asUser(email: string, shot: string, body: (page: Page) => Promise<void>): Promise<void> {
  const { context, page } = await signedIn(browser, platform.url, email);
  try {
    await body(page);
  } catch (error) {
    await keepScreenshot(page, shot);
    throw error;
  } finally {
    await context.close();
  }
}

describe('client administration', () => {
  it(
    'creates a client with its address and main user, whose invitation arrives by mail',
    async () => {
      await asUser('admin@demo.test', 'clients-create', async (page) => {
        await page.goto('/admin/clients');
        await page.getByTestId('client-create-open').click();
        const dialog = page.getByTestId('client-create-dialog');
        await dialog.getByTestId('client-name').fill('Browser Stadtwerke');
        await dialog.getByTestId('client-street').fill('Rathausplatz');
        await dialog.getByTestId('client-street_number').fill('2');
        await dialog.getByTestId('client-zip').fill('79098');
        await dialog.getByTestId('client-city').fill('Freiburg');
        await dialog.getByTestId('client-country').selectOption({ label: 'Deutschland' });
        await dialog.getByTestId('client-phone').fill('+49 7641 123456');
        await dialog.getByTestId('client-module-parking').check();
        await dialog.getByTestId('client-mainName').fill('Erika Browser');
        await dialog.getByTestId('client-mainEmail').fill('erika.browser@example.test');
        await dialog.getByTestId('client-create-submit').click();
        await page.getByTestId('clients-table').getByText('Browser Stadtwerke').waitFor();
        const company = await platform.db.query<{
          modules: string[];
          street: string;
          zip: string;
          code: string;
        }>(
          `SELECT c.modules, c.street, c.zip, co.code FROM companies c JOIN countries co ON co.id = c.country_id
            WHERE c.name = 'Browser Stadtwerke'`,
        );
        expect(company.rows[0]).toEqual({
          modules: ['parking'],
          street: 'Rathausplatz',
          zip: '79098',
          code: 'DE',
        });
        await expect
          .poll(() => smtp.received.filter((m) => m.to.includes('erika.browser@example.test')).length, {
            timeout: 20_000,
          })
          .toBe(1);
        const mail = readMail(smtp.received.find((m) => m.to.includes('erika.browser@example.test'))!);
        expect(mail.text).toMatch(/\/login\/reset-password\/\S+/);
      });
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'a client with many modules stays one line: three badges, the rest behind +N',
    async () => {
      await asUser('admin@demo.test', 'clients-modules', async (page) => {
        const { rows } = await platform.db.query<{ id: number; modules: string[] }>(
          `SELECT id, modules FROM companies WHERE cardinality(modules) > 3 AND deleted_at IS NULL
            ORDER BY cardinality(modules) DESC LIMIT 1`,
        );
        const client = rows[0]!;
        await page.goto('/admin/clients');
        const cell = page.getByTestId(`client-modules-${client.id}`);
        await cell.waitFor();
        expect(Number(await cell.getAttribute('data-count'))).toBe(client.modules.length);
        expect(await cell.locator(':scope > [data-slot="badge"]').count()).toBe(3);
        const more = cell.getByTestId(`client-modules-${client.id}-more`);
        expect(await more.textContent()).toBe(`+${client.modules.length - 3}`);
        // The folded names are told to screen readers and shown in a tooltip.
        expect((await more.getAttribute('aria-label'))?.split(', ')).toHaveLength(client.modules.length - 3);
        await more.hover();
        const hint = page.getByTestId(`client-modules-${client.id}-more-hint`);
        await hint.waitFor();
        expect((await hint.textContent())?.split(', ')).toHaveLength(client.modules.length - 3);
        // One line of badges: the row is as tall as a row with one badge (about 40 px).
        const height = await page.getByTestId(`client-row-${client.id}`).evaluate((r) => r.clientHeight);
        expect(height).toBeLessThan(60);
      });
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'edits modules, logo, limits and customer number; the logo shows in the shell while acting as it',
    async () => {
      const id = await apiClient('Logo Werke');
      await asUser('admin@demo.test', 'clients-edit', async (page) => {
        await page.goto('/admin/clients');
        await page.getByTestId(`client-edit-${id}`).click();
        const dialog = page.getByTestId('client-edit-dialog');
        await dialog.getByTestId('client-edit-module-map_view').check();
        await dialog.getByTestId('client-edit-logo-file').setInputFiles({
          name: 'logo.png',
          mimeType: 'image/png',
          buffer: PNG_1X1,
        });
        await dialog.getByTestId('client-edit-logo-preview').waitFor();
        await dialog.getByTestId('client-limit-max_devices').fill('5');
        await dialog.getByTestId('client-edit-customer-number').fill('K-77');
        await dialog.getByTestId('client-edit-submit').click();
        await dialog.waitFor({ state: 'detached' });
        const { rows } = await platform.db.query<{
          modules: string[];
          logo: string | null;
          customer_number: string;
        }>('SELECT modules, logo, customer_number FROM companies WHERE id = $1', [id]);
        expect(rows[0]!.modules).toEqual(['map_view']);
        expect(rows[0]!.customer_number).toBe('K-77');
        expect(rows[0]!.logo).toMatch(/^data:image\/png;base64,/);
        const limits = await (await adminSession()).call<{ key: string; limit: number | null }[]>(
          'GET',
          `/api/v1/admin/clients/${id}/limits`,
        );
        expect(limits.body.payload!.find((l) => l.key === 'max_devices')?.limit).toBe(5);

        await toastsGone(page);
        await page.getByTestId(`client-impersonate-${id}`).click();
        await page.getByTestId('impersonate-confirm').getByTestId('confirm-accept').click();
        await page.waitForURL('**/dashboard');
        await page.getByTestId('impersonation-banner').waitFor();
        expect(await page.getByTestId('company-logo').getAttribute('src')).toBe(rows[0]!.logo);
        await page.getByTestId('impersonation-leave').click();
        await page.waitForURL('**/admin/clients');
        // The super admin's record of who acted as the client: a start and an end.
        await page.getByTestId(`client-edit-${id}`).click();
        const record = page.getByTestId('client-access-record');
        await record.getByTestId('client-access-record-start').waitFor();
        await record.getByTestId('client-access-record-end').waitFor();
      });
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'edits base data, blocks a client, deletes it after the purge preview, restores it',
    async () => {
      const id = await apiClient('Kurzzeit AG');
      const { rows: countries } = await platform.db.query<{ id: number }>(
        `SELECT id FROM countries WHERE code = 'AT'`,
      );
      await asUser('admin@demo.test', 'clients-delete', async (page) => {
        await page.goto('/admin/clients');
        // Base data of spec section 3, in the form companies use for themselves.
        await page.getByTestId(`client-edit-${id}`).click();
        let dialog = page.getByTestId('client-edit-dialog');
        await dialog.getByTestId('client-edit-tab-base').click();
        const base = dialog.getByTestId('client-base-data');
        await base.getByTestId('company-street').fill('Hauptplatz');
        await base.getByTestId('company-zip').fill('8010');
        await base.getByTestId('company-city').fill('Graz');
        await base.getByTestId('company-country').click();
        await page.getByTestId(`company-country-option-${countries[0]!.id}`).click();
        await base.getByTestId('company-submit').click();
        await dialog.waitFor({ state: 'detached' });
        const saved = await platform.db.query<{ street: string; city: string; country_id: number }>(
          'SELECT street, city, country_id FROM companies WHERE id = $1',
          [id],
        );
        expect(saved.rows[0]).toEqual({ street: 'Hauptplatz', city: 'Graz', country_id: countries[0]!.id });

        await page.getByTestId(`client-edit-${id}`).click();
        dialog = page.getByTestId('client-edit-dialog');
        await dialog.getByTestId('client-edit-blocked').check();
        await dialog.getByTestId('client-edit-submit').click();
        await page.getByTestId(`client-blocked-${id}`).waitFor();

        await page.getByTestId(`client-edit-${id}`).click();
        dialog = page.getByTestId('client-edit-dialog');
        await dialog.getByTestId('client-delete').click();
        const confirm = page.getByTestId('client-delete-confirm');
        // The preview: the purge period (CLIENT_PURGE_DAYS, 30 by default) and what goes with the client.
        expect(await confirm.textContent()).toMatch(/30 Tage|30 days/);
        await confirm.getByTestId('confirm-accept').click();
        await page.getByTestId(`client-row-${id}`).waitFor({ state: 'detached' });

        // admin@demo.test reads German: the deleted list says how many days are left before the purge.
        const row = page.getByTestId(`deleted-client-${id}`);
        await row.waitFor();
        expect(await row.getByTestId(`deleted-client-${id}-days`).textContent()).toMatch(/^in 30 Tagen \(/);
        await row.getByTestId(`deleted-client-${id}-restore`).click();
        await page.getByTestId(`client-row-${id}`).waitFor();
        await row.waitFor({ state: 'detached' });
        const { rows } = await platform.db.query<{ deleted_at: Date | null }>(
          'SELECT deleted_at FROM companies WHERE id = $1',
          [id],
        );
        expect(rows[0]!.deleted_at).toBeNull();
      });
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'a main user sees support ask for access and grants it for a limited time',
    async () => {
      const companyId = await demoCompanyId();
      const admin = await adminSession();
      expect(
        (await admin.call('POST', `/api/v1/admin/clients/${companyId}/support-access-request`)).status,
      ).toBe(200);
      await asUser('main@demo.test', 'clients-support-access', async (page) => {
        await page.getByTestId('user-menu').click();
        await page.getByTestId('user-menu-settings').click();
        await page.getByTestId('settings-tab-api').click();
        const panel = page.getByTestId('support-access');
        await panel.getByTestId('support-access-requested').waitFor();
        // The box follows the saved setting: it turns on once the server took the change.
        const consent = panel.getByTestId('support-access-consent');
        await consent.click();
        await expect.poll(() => consent.isChecked()).toBe(true);
        await expect
          .poll(() => panel.getByTestId('support-access-state').textContent())
          .toContain('Kein Zugriff');
        await panel.getByTestId('support-access-grant-2').click();
        await expect
          .poll(() => panel.getByTestId('support-access-state').textContent())
          .toContain('Zugriff freigegeben bis');
        const granted = await platform.db.query<{ support_access: string; until: Date | null }>(
          'SELECT support_access, support_access_until AS until FROM companies WHERE id = $1',
          [companyId],
        );
        expect(granted.rows[0]!.support_access).toBe('consent');
        const hours = (granted.rows[0]!.until!.getTime() - Date.now()) / 3_600_000;
        expect(hours).toBeGreaterThan(1.9);
        expect(hours).toBeLessThanOrEqual(2);
        await panel.getByTestId('support-access-end').click();
        await panel.getByTestId('support-access-end').waitFor({ state: 'detached' });
        await consent.click();
        await expect.poll(() => consent.isChecked()).toBe(false);
      });
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'shows unlicensed modules locked, with the hint: menu, SMS and voice actions, map widgets',
    async () => {
      await platform.db.query(
        `UPDATE companies SET modules = ARRAY['parking', 'water_association']::text[] WHERE id = $1`,
        [await demoCompanyId()],
      );
      await asUser('main@demo.test', 'clients-locked-module', async (page) => {
        await page.goto('/dashboard');
        const locked = page.getByTestId('menu-farming-fields');
        await locked.waitFor();
        expect(await locked.getAttribute('data-locked')).toBe('true');
        expect(await page.getByTestId('menu-map').getAttribute('data-locked')).toBe('true');
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

        // Map widgets: offered locked in the dashboard editor.
        await page.getByTestId('dashboard-edit').click();
        const addMap = page.getByTestId('widget-add-map');
        expect(await addMap.getAttribute('data-locked')).toBe('true');
        expect(await addMap.isDisabled()).toBe(true);
        expect(await addMap.getAttribute('title')).toContain('Kartenansicht');

        // SMS and voice: offered locked in a rule's channel list.
        await page.goto('/devices');
        await page.locator('[data-testid^="device-row-"]').first().click();
        await page.getByTestId('device-drawer').getByTestId('device-action-rules').click();
        const rules = page.getByTestId('device-rules-drawer');
        await rules.getByTestId('rule-add').click();
        const form = rules.getByTestId('rule-form');
        await form.getByTestId('rule-add-action').click();
        const channel = form.getByTestId('rule-action-0-channel');
        for (const value of ['sms', 'voice_message']) {
          const option = channel.locator(`option[value="${value}"]`);
          expect(await option.isDisabled()).toBe(true);
          expect(await option.getAttribute('title')).toContain('Kostenpflichtige Nachrichten');
        }
        expect(await channel.locator('option[value="email"]').isDisabled()).toBe(false);
      });
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
