/**
 * Lighthouse (the npm package, desktop preset) in Debian's Chromium against a running platform, signed in:
 * chrome-launcher starts /usr/bin/chromium with a debugging port, playwright-core signs in through the login
 * form over that port, and Lighthouse audits in the same browser profile, its storage kept, so the pages
 * open signed in (the session cookie and its marker, apps/api plugins/session.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LaunchedChrome, launch as launchChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH, DEMO_PASSWORD } from '../../support/browser.js';

export const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type LighthouseCategory = (typeof LIGHTHOUSE_CATEGORIES)[number];
export type LighthouseScores = Record<LighthouseCategory, number | null>;

/** The performance metrics behind the score (ms; CLS unitless). */
export const LIGHTHOUSE_METRICS = {
  'first-contentful-paint': 'FCP',
  'largest-contentful-paint': 'LCP',
  'total-blocking-time': 'TBT',
  'cumulative-layout-shift': 'CLS',
  'speed-index': 'SI',
} as const;
export type LighthouseMetric = (typeof LIGHTHOUSE_METRICS)[keyof typeof LIGHTHOUSE_METRICS];

export interface LighthouseAudit {
  scores: LighthouseScores;
  metrics: Record<LighthouseMetric, number | null>;
  /** audits that cost points outside performance (what to fix next) */
  failed: string[];
  /** performance opportunities and diagnostics below full marks, with their savings or value */
  slow: string[];
}

export interface LighthouseBrowser {
  /** One Lighthouse run on this page (path on the platform). */
  audit(path: string): Promise<LighthouseAudit>;
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
      // The whole report, to read which scripts block and what goes unused (BENCH_LIGHTHOUSE_REPORTS=<dir>).
      const reports = process.env.BENCH_LIGHTHOUSE_REPORTS;
      if (reports) {
        mkdirSync(reports, { recursive: true });
        const name = `${path.replace(/\W+/g, '-').replace(/^-/, '') || 'root'}-${Date.now()}.json`;
        writeFileSync(join(reports, name), JSON.stringify(lhr));
      }
      const scores = Object.fromEntries(
        LIGHTHOUSE_CATEGORIES.map((c) => {
          const score = lhr.categories[c]?.score;
          return [c, score === null || score === undefined ? null : Math.round(score * 100)];
        }),
      ) as LighthouseScores;
      const metrics = Object.fromEntries(
        Object.entries(LIGHTHOUSE_METRICS).map(([id, name]) => [name, lhr.audits[id]?.numericValue ?? null]),
      ) as LighthouseAudit['metrics'];
      const failed = LIGHTHOUSE_CATEGORIES.filter((c) => c !== 'performance').flatMap((c) =>
        (lhr.categories[c]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${c}: ${ref.id}`),
      );
      const slow = (lhr.categories.performance?.auditRefs ?? [])
        .filter((ref) => ref.weight === 0 && !ref.group?.startsWith('hidden'))
        .map((ref) => lhr.audits[ref.id])
        .filter((a) => a && a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
        .map((a) => `${a!.id}${a!.displayValue ? ` (${a!.displayValue})` : ''}`);
      return { scores, metrics, failed, slow };
    },
    async close() {
      chrome.kill();
    },
  };
}
