/**
 * Lighthouse (the npm package, desktop preset) in Debian's Chromium against a running platform, signed in:
 * chrome-launcher starts /usr/bin/chromium with a debugging port, playwright-core signs in through the login
 * form over that port, and Lighthouse audits in the same browser profile, its storage kept, so the pages
 * open signed in (the session cookie and its marker, apps/api plugins/session.ts).
 */
import { type LaunchedChrome, launch as launchChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH, DEMO_PASSWORD } from '../../support/browser.js';

export const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type LighthouseCategory = (typeof LIGHTHOUSE_CATEGORIES)[number];
export type LighthouseScores = Record<LighthouseCategory, number | null>;

export interface LighthouseBrowser {
  /** Scores 0 to 100 of one Lighthouse run on this page (path on the platform). */
  audit(path: string): Promise<{ scores: LighthouseScores; failed: string[] }>;
  close(): Promise<void>;
}

/** Chromium for Lighthouse, signed in as `email` (or signed out without one) on `baseUrl`. */
export async function startLighthouseBrowser(baseUrl: string, email?: string): Promise<LighthouseBrowser> {
  const chrome: LaunchedChrome = await launchChrome({
    chromePath: CHROMIUM_PATH,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
    ],
  });
  try {
    if (email) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const context = browser.contexts()[0]!;
      const page = await context.newPage();
      await page.goto(`${baseUrl}/login`);
      await page.getByTestId('login-email').fill(email);
      await page.getByTestId('login-password').fill(DEMO_PASSWORD);
      await page.getByTestId('login-submit').click();
      await page.waitForURL('**/dashboard');
      await page.close();
      // Leaves the browser running: only playwright's connection ends.
      await browser.close();
    }
  } catch (error) {
    chrome.kill();
    throw error;
  }
  return {
    async audit(path) {
      const result = await lighthouse(
        `${baseUrl}${path}`,
        { port: chrome.port, output: 'json', logLevel: 'error', disableStorageReset: true },
        desktopConfig,
      );
      if (!result) throw new Error(`lighthouse gave no result for ${path}`);
      const { lhr } = result;
      const scores = Object.fromEntries(
        LIGHTHOUSE_CATEGORIES.map((c) => {
          const score = lhr.categories[c]?.score;
          return [c, score === null || score === undefined ? null : Math.round(score * 100)];
        }),
      ) as LighthouseScores;
      // The audits that cost points outside performance (what to fix next).
      const failed = LIGHTHOUSE_CATEGORIES.filter((c) => c !== 'performance').flatMap((c) =>
        (lhr.categories[c]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${c}: ${ref.id}`),
      );
      return { scores, failed };
    },
    async close() {
      chrome.kill();
    },
  };
}
