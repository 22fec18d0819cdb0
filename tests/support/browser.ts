/**
 * Headless Chromium from Debian's `chromium` package, driven by playwright-core. No browser is ever
 * downloaded: a missing package is a clear failure that names the fix.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

export interface LaunchOptions {
  /** WebGL through SwiftShader (maps and deck.gl layers) */
  webgl?: boolean;
  /** more Chromium flags after these (say, a benchmark's second set-up) */
  extraArgs?: readonly string[];
}

/** The Chromium flags launchBrowser uses for these options (printed by benchmarks beside their figures). */
export function browserArgs(options: LaunchOptions = {}): string[] {
  const args = ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage'];
  // Maps and deck.gl layers need WebGL: SwiftShader renders it in software.
  if (options.webgl) args.push('--use-angle=swiftshader', '--enable-unsafe-swiftshader');
  args.push(...(options.extraArgs ?? []));
  return args;
}

/** The password of every demo user (packages/demo-data). */
export const DEMO_PASSWORD = 'DemoPass#2026';

export interface SignInOptions {
  /** Browser locale (default en-US; the demo users read German whatever the browser says). */
  locale?: string;
  viewport?: { width: number; height: number };
  password?: string;
  /** Further context options (say, acceptDownloads). */
  context?: BrowserContextOptions;
  /** Runs in every page before the console loads (say, window.__IOT_TEST__ hooks). */
  initScript?: () => void;
}

/**
 * A new browser context on `baseURL` with `email` signed in through the login form, its page on the
 * dashboard. Close the context when done.
 */
export async function signedIn(
  browser: Browser,
  baseURL: string,
  email: string,
  options: SignInOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport: options.viewport ?? { width: 1400, height: 900 },
    locale: options.locale ?? 'en-US',
    ...options.context,
  });
  if (options.initScript) await context.addInitScript(options.initScript);
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(options.password ?? DEMO_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.waitForURL('**/dashboard');
  return { context, page };
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: install Debian's chromium package (apt-get install chromium)`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: browserArgs(options) });
}

/**
 * The time a browser test may take (its describe's `timeout`). In CI the browser tests run beside the rest of
 * the suite on two cores, where page loads, lazy chunks and clicks take several times their quiet duration:
 * a 30 s default timed out there for a test that takes 8 s alone.
 */
export const BROWSER_TEST_TIMEOUT_MS = 90_000;

/**
 * Waits until no toast is shown, with the mouse moved off them: a toast (top right, spec section 7) covers
 * the page header's actions, and one under the mouse pauses its own timer, so a click aimed at a header
 * action behind it would wait for as long as the test lets it.
 */
export async function toastsGone(page: Page): Promise<void> {
  await page.mouse.move(1, 1);
  await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 20_000 });
}

/** Keeps a screenshot of the page as a test artefact under test-results/screenshots. */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: true });
}
