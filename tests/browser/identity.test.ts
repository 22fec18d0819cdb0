/**
 * Identity and the console shell in a real browser (Debian's Chromium via playwright-core) against the
 * whole platform with its demo data: sign-in, wrong password, forced password reset, EULA, guard redirects
 * with the stored redirectTo, impersonation and its way back, language switch, the mobile top bar.
 * Screenshots of the main screens are kept under test-results/screenshots.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT_MS, keepScreenshot, launchBrowser } from '../support/browser.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

const PASSWORD = 'DemoPass#2026';
let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  platform = await startTestPlatform();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

async function newPage(
  options: { width?: number; height?: number; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: platform.url,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    locale: options.locale ?? 'en-US',
  });
  const page = await context.newPage();
  return { context, page };
}

async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

async function setUserFlags(
  email: string,
  flags: { require_password_reset?: boolean; eula_accepted?: boolean },
) {
  const sets = Object.keys(flags).map((k, i) => `${k} = $${i + 2}`);
  await platform.db.query(`UPDATE users SET ${sets.join(', ')} WHERE email = $1`, [
    email,
    ...Object.values(flags),
  ]);
}

/** The signed-in user as the API reports it, fetched inside the page with its session cookie. */
function currentUser(page: Page): Promise<{ impersonated: boolean; company_id: number }> {
  return page.evaluate(async () => {
    const r = await fetch('/api/v1/core/user', { headers: { 'x-requested-with': 'XMLHttpRequest' } });
    return ((await r.json()) as { payload: { impersonated: boolean; company_id: number } }).payload;
  });
}

describe('console identity and shell in Chromium', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  it('signs a main user in to the dashboard with the main user menu and shows the version', async () => {
    const { context, page } = await newPage();
    await page.goto('/login');
    await expect
      .poll(() => page.getByTestId('version-display').getAttribute('data-version'))
      .toMatch(/^\S{1,8}$/);
    await keepScreenshot(page, 'login');
    await signIn(page, 'main@demo.test');
    await page.waitForURL('**/dashboard');
    await page.getByTestId('menu').waitFor();
    for (const entry of ['dashboard', 'devices', 'groups', 'users', 'parking', 'farming-fields']) {
      expect(await page.getByTestId(`menu-${entry}`).count()).toBeGreaterThan(0);
    }
    expect(await page.getByTestId('menu-clients').count()).toBe(0);
    expect(await page.getByTestId('topbar').getAttribute('data-variant')).toBe('desktop');
    expect(await page.evaluate(() => sessionStorage.getItem('authenticated'))).toBe('true');
    await keepScreenshot(page, 'dashboard-main-user');
    await page.goto('/users');
    await page.getByTestId('users-table').waitFor();
    await keepScreenshot(page, 'users');
    await context.close();
  });

  it('gives a plain user no user management and sends /users back to the dashboard', async () => {
    const { context, page } = await newPage();
    await page.goto('/login');
    await signIn(page, 'user@demo.test');
    await page.waitForURL('**/dashboard');
    await page.getByTestId('menu').waitFor();
    expect(await page.getByTestId('menu-users').count()).toBe(0);
    await context.close();
  });

  it('rejects a wrong password with an error toast and stays on /login', async () => {
    const { context, page } = await newPage();
    await page.goto('/login');
    await signIn(page, 'main@demo.test', 'WrongPass#2026');
    const toast = page.locator('[data-sonner-toast]').first();
    await toast.waitFor();
    expect(await toast.innerText()).toContain('Error 401');
    expect(new URL(page.url()).pathname).toBe('/login');
    await keepScreenshot(page, 'login-failed');
    await context.close();
  });

  it('forces a password reset before anything else, then lets the user in', async () => {
    await setUserFlags('ops@demo.test', { require_password_reset: true });
    const { context, page } = await newPage();
    await page.goto('/login');
    await signIn(page, 'ops@demo.test');
    await page.waitForURL('**/login/require-reset-password');
    await keepScreenshot(page, 'require-reset-password');
    // Any shell page sends the user back here while the reset is required.
    await page.goto('/devices');
    await page.waitForURL('**/login/require-reset-password');
    await page.getByTestId('new-password').fill('NewSecret#2027');
    await page.getByTestId('new-password-confirmation').fill('NewSecret#2027');
    await page.getByTestId('require-reset-submit').click();
    await page.waitForURL('**/dashboard');
    const { rows } = await platform.db.query<{ require_password_reset: boolean }>(
      'SELECT require_password_reset FROM users WHERE email = $1',
      ['ops@demo.test'],
    );
    expect(rows[0]?.require_password_reset).toBe(false);
    await context.close();
  });

  it('shows the EULA to a user who has not accepted it and remembers the acceptance', async () => {
    await setUserFlags('main@water.test', { eula_accepted: false });
    const { context, page } = await newPage();
    await page.goto('/login');
    await signIn(page, 'main@water.test');
    await page.waitForURL('**/eula');
    await page.getByTestId('eula-text').waitFor();
    await keepScreenshot(page, 'eula');
    await page.goto('/groups');
    await page.waitForURL('**/eula');
    await page.getByTestId('eula-accept-checkbox').click();
    await page.getByTestId('eula-accept').click();
    await page.waitForURL('**/dashboard');
    const { rows } = await platform.db.query<{ eula_accepted: boolean }>(
      'SELECT eula_accepted FROM users WHERE email = $1',
      ['main@water.test'],
    );
    expect(rows[0]?.eula_accepted).toBe(true);
    await context.close();
  });

  it('sends an anonymous visitor to /login and, after sign-in, to the stored redirectTo', async () => {
    const { context, page } = await newPage();
    await page.goto('/groups');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => sessionStorage.getItem('redirectTo'))).toBe('/groups');
    await signIn(page, 'user@demo.test');
    await page.waitForURL('**/groups');
    // Signed in, /login and / lead away from the login page.
    await page.goto('/');
    await page.waitForURL('**/dashboard');
    await context.close();
  });

  it('lets the super admin act as a client behind a warning and go back', async () => {
    const { context, page } = await newPage();
    await page.goto('/login');
    await signIn(page, 'admin@demo.test');
    await page.waitForURL('**/dashboard');
    await page.getByTestId('menu-clients').click();
    await page.waitForURL('**/admin/clients');
    await page.getByTestId('clients-table').waitFor();
    await keepScreenshot(page, 'clients');
    await page.getByTestId('client-impersonate-2').click();
    await page.getByTestId('confirm-accept').click();
    await page.getByTestId('impersonation-banner').waitFor();
    expect(await page.getByTestId('impersonation-banner-text').innerText()).toContain('Demo Agrar GmbH');
    const acting = await currentUser(page);
    expect(acting.impersonated).toBe(true);
    expect(acting.company_id).toBe(2);
    await keepScreenshot(page, 'impersonating');
    await page.getByTestId('impersonation-leave').click();
    await page.getByTestId('impersonation-banner').waitFor({ state: 'detached' });
    const back = await currentUser(page);
    expect(back.impersonated).toBe(false);
    expect(back.company_id).toBe(1);
    const audit = await platform.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE action LIKE '%impersonat%' ORDER BY id`,
    );
    expect(audit.rows.length).toBeGreaterThanOrEqual(2);
    await context.close();
  });

  it('switches the login page to German', async () => {
    const { context, page } = await newPage();
    await page.goto('/login');
    const englishLabel = await page.getByTestId('login-submit').innerText();
    await page.getByTestId('language-switcher').click();
    await page.getByTestId('language-option-de').click();
    await expect.poll(() => page.getByTestId('login-submit').innerText()).not.toBe(englishLabel);
    expect(await page.getByTestId('login-submit').innerText()).toMatch(/Anmelden/i);
    await context.close();
  });

  it('uses the mobile top bar below 991 px: the menu opens from the toggle', async () => {
    const { context, page } = await newPage({ width: 800, height: 900 });
    await page.goto('/login');
    await signIn(page, 'main@demo.test');
    await page.waitForURL('**/dashboard');
    await page.getByTestId('topbar').waitFor();
    expect(await page.getByTestId('topbar').getAttribute('data-variant')).toBe('mobile');
    const sidebar = page.getByTestId('sidebar');
    expect(await sidebar.isVisible()).toBe(false);
    await page.getByTestId('menu-toggle').click();
    await sidebar.waitFor({ state: 'visible' });
    await keepScreenshot(page, 'mobile-menu');
    await context.close();
  });
});
