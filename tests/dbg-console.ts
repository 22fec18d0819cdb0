import { fileURLToPath } from 'node:url';
import { launchBrowser, signedIn } from './support/browser.js';
import { startTestPlatform } from './support/test-platform.js';
const CONSOLE = fileURLToPath(new URL('../apps/console/dist-test', import.meta.url));
const platform = await startTestPlatform({ CONSOLE_DIR: CONSOLE });
const browser = await launchBrowser({ webgl: true });
try {
  const { context, page } = await signedIn(browser, platform.url, 'main@demo.test', { viewport: { width: 1440, height: 900 } });
  await page.waitForTimeout(6000);
  await page.screenshot({ path: '/tmp/console-dbg/dash-1440.png' });
  const info = await page.evaluate(() => {
    const c = document.querySelector('[data-testid$="-chart"] canvas') as HTMLCanvasElement | null;
    const leg = document.querySelector('[data-testid$="-chart"] .u-legend') as HTMLElement | null;
    return { canvas: c && [c.width, c.height, c.getBoundingClientRect().height], legend: leg?.getBoundingClientRect().height, series: document.querySelector('[data-testid$="-chart"]')?.getAttribute('data-series') };
  });
  console.log(JSON.stringify(info));
  await context.close();
  const phone = await signedIn(browser, platform.url, 'main@demo.test', { viewport: { width: 390, height: 844 } });
  await phone.page.waitForTimeout(4000);
  const wide = await phone.page.evaluate(() => [...document.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > 392).slice(0, 15).map((e) => `${e.tagName}.${(e.getAttribute('class') ?? '').slice(0, 60)} ${e.getAttribute('data-testid') ?? ''} ${Math.round(e.getBoundingClientRect().right)}`));
  console.log(wide.join('\n'));
  await phone.page.screenshot({ path: '/tmp/console-dbg/phone.png', fullPage: true });
  await phone.context.close();
} finally {
  await browser.close();
  await platform.stop();
}
