/**
 * Lighthouse on the console (issue #30): the npm package with its desktop preset, in Debian's Chromium,
 * three runs per page on /login (signed out) and /dashboard, /devices, /alarms (signed in as
 * main@demo.test), against the whole platform with its demo data in this process, serving the console's
 * production build (apps/console/dist). Records the median of each category beside its target:
 * performance >= 95 on each page, accessibility 100, best practices 100, SEO 100 on /login.
 *
 *   npm run bench:lighthouse            (BENCH_RUNS=n for another number of runs,
 *                                        BENCH_PAGES=/dashboard,/devices for some pages only)
 */
import { existsSync } from 'node:fs';
import { startTestPlatform } from '../support/test-platform.js';
import {
  LIGHTHOUSE_CATEGORIES,
  LIGHTHOUSE_METRICS,
  type LighthouseAudit,
  type LighthouseCategory,
  startLighthouseBrowser,
} from './console/lighthouse.js';
import { CONSOLE_BUILD } from './console/settings.js';
import { median } from './console/statistics.js';
import { startRun, type Target } from './lib/results.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PAGES = [
  { path: '/login', signedIn: false },
  { path: '/dashboard', signedIn: true },
  { path: '/devices', signedIn: true },
  { path: '/alarms', signedIn: true },
].filter((p) => !process.env.BENCH_PAGES || process.env.BENCH_PAGES.split(',').includes(p.path));

function target(path: string, category: LighthouseCategory): Target | undefined {
  if (category === 'performance') return { atLeast: 95 };
  if (category === 'seo') return path === '/login' ? { atLeast: 100 } : undefined;
  return { atLeast: 100 };
}

async function main(): Promise<void> {
  if (!existsSync(`${CONSOLE_BUILD}/index.html`)) {
    throw new Error(`${CONSOLE_BUILD} is missing: run \`npm run build -w @iot/console\``);
  }
  const platform = await startTestPlatform({ CONSOLE_DIR: CONSOLE_BUILD });
  const recorder = startRun('lighthouse', { runs: RUNS, preset: 'desktop', user: 'main@demo.test' });
  const signedOut = await startLighthouseBrowser(platform.url);
  const signedIn = await startLighthouseBrowser(platform.url, 'main@demo.test');
  try {
    for (const page of PAGES) {
      const browser = page.signedIn ? signedIn : signedOut;
      const runs: LighthouseAudit[] = [];
      const failed = new Set<string>();
      const slow = new Set<string>();
      for (let run = 0; run < RUNS; run++) {
        const result = await browser.audit(page.path);
        runs.push(result);
        for (const f of result.failed) failed.add(f);
        for (const s of result.slow) slow.add(s);
        console.log(
          `${page.path} run ${run + 1}: ${JSON.stringify(result.scores)} ${JSON.stringify(result.metrics)}`,
        );
      }
      // The metrics behind the performance score, so a drop can be traced to blocking time or paint.
      for (const metric of Object.values(LIGHTHOUSE_METRICS)) {
        const values = runs.map((r) => r.metrics[metric]).filter((v): v is number => v !== null);
        if (values.length === 0) continue;
        recorder.add({
          name: `${page.path}: ${metric}`,
          value: median(values),
          unit: metric === 'CLS' ? 'score' : 'ms',
        });
      }
      for (const category of LIGHTHOUSE_CATEGORIES) {
        const values = runs.map((r) => r.scores[category]).filter((v): v is number => v !== null);
        const value = values.length > 0 ? median(values) : Number.POSITIVE_INFINITY;
        const goal = target(page.path, category);
        recorder.add({
          name: `${page.path}: ${category}`,
          value,
          unit: 'score',
          ...(goal && { target: goal }),
        });
        console.log(
          `${page.path} ${category}: median ${value}${goal ? ` (target ≥ ${'atLeast' in goal ? goal.atLeast : ''})` : ''}`,
        );
      }
      if (failed.size > 0) console.log(`${page.path} audits below full marks: ${[...failed].join(', ')}`);
      if (slow.size > 0) console.log(`${page.path} performance findings: ${[...slow].join('; ')}`);
    }
  } finally {
    await signedIn.close();
    await signedOut.close();
    await platform.stop();
  }
  console.log(`results: ${recorder.save()}`);
}

await main();
