/**
 * The console as a new user meets it (issue #30), in Chromium (software WebGL) against the whole platform
 * with its demo data, served from the console's test build: the seeded dashboard's chart and map as drawn,
 * the phone layout, a new rule, the impersonate button, the device token, and the calls a start makes.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_TEST_TIMEOUT_MS,
  keepScreenshot,
  launchBrowser,
  signedIn as signIn,
} from '../support/browser.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

const CONSOLE_TEST_BUILD = fileURLToPath(new URL('../../apps/console/dist-test', import.meta.url));

/** What the test calls on a MapLibre map registered by the console's test build. */
interface TestMap {
  once(event: 'idle', listener: () => void): void;
  jumpTo(options: { center: [number, number]; zoom: number }): void;
  getContainer(): HTMLElement;
  project(lngLat: [number, number]): { x: number; y: number };
  queryRenderedFeatures(
    point: { x: number; y: number } | [[number, number], [number, number]],
    options: { layers: string[] },
  ): unknown[];
  getStyle(): { layers: { id: string }[] };
}
type MapWindow = Window & { __IOT_MAPS__?: Record<string, TestMap> };

let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(`${CONSOLE_TEST_BUILD}/index.html`)) {
    throw new Error(
      `${CONSOLE_TEST_BUILD} is missing: run \`npm run build:test -w @iot/console\` (npm test does)`,
    );
  }
  platform = await startTestPlatform({ CONSOLE_DIR: CONSOLE_TEST_BUILD });
  browser = await launchBrowser({ webgl: true });
  // A busy two-core machine (other suites beside this one) can take minutes to start the platform.
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

function signedIn(email: string, viewport = { width: 1440, height: 900 }) {
  return signIn(browser, platform.url, email, {
    viewport,
    initScript: () => {
      (window as unknown as { __IOT_TEST__: unknown }).__IOT_TEST__ = { maps: true };
    },
  });
}

/** Failed answers (4xx, 5xx) and console errors on a page from now on. */
function watchFailures(page: Page): { failures: string[]; apiPaths: string[] } {
  const failures: string[] = [];
  const apiPaths: string[] = [];
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/')) apiPaths.push(url.pathname);
    if (response.status() >= 400) failures.push(`${response.status()} ${url.pathname}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => failures.push(`page: ${error.message}`));
  return { failures, apiPaths };
}

/** The id of the seeded dashboard's widget with this title. */
async function widgetIdByTitle(page: Page, title: string): Promise<string> {
  const heading = page.locator('[data-testid$="-title"]').filter({ hasText: new RegExp(`^${title}$`) });
  await expect.poll(() => heading.count()).toBe(1);
  return (await heading.getAttribute('data-testid'))!.replace(/^widget-/, '').replace(/-title$/, '');
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
async function box(page: Page, testId: string): Promise<Box> {
  const b = await page.getByTestId(testId).boundingBox();
  if (!b) throw new Error(`${testId} is not on the page`);
  return b;
}
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 1 &&
  inner.y >= outer.y - 1 &&
  inner.x + inner.width <= outer.x + outer.width + 1 &&
  inner.y + inner.height <= outer.y + outer.height + 1;

/**
 * Pixels of the chart's canvas in the first series' colour (the theme's --primary): the lines as drawn,
 * not merely the axes and the grid.
 */
function seriesPixels(page: Page, chartTestId: string): Promise<number> {
  return page.evaluate((testId) => {
    const canvas = document.querySelector<HTMLCanvasElement>(`[data-testid="${testId}"] canvas`);
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return -1;
    const probe = document.createElement('canvas').getContext('2d')!;
    probe.fillStyle = getComputedStyle(document.documentElement).getPropertyValue('--primary').trim();
    probe.fillRect(0, 0, 1, 1);
    const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      const near =
        Math.abs(data[i]! - r!) < 40 && Math.abs(data[i + 1]! - g!) < 40 && Math.abs(data[i + 2]! - b!) < 40;
      if (near && data[i + 3]! > 128) count++;
    }
    return count;
  }, chartTestId);
}

describe('the console as a new user meets it', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  it('a signed-out start makes no failing call', async () => {
    const context = await browser.newContext({ baseURL: platform.url, locale: 'en-US' });
    const page = await context.newPage();
    const start = watchFailures(page);
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    await page.getByTestId('login-email').waitFor();
    await page.waitForLoadState('networkidle');
    expect(start.failures).toEqual([]);
    expect(start.apiPaths).not.toContain('/api/v1/core/user');
    await context.close();
  });

  it('a company without parking and farming makes no parking or farming calls', async () => {
    // main@other.test's company licenses the map alone.
    const other = await signedIn('main@other.test');
    const unlicensed = watchFailures(other.page);
    await other.page.reload();
    await other.page.getByTestId('dashboard-grid').waitFor();
    await other.page.waitForLoadState('networkidle');
    expect(unlicensed.apiPaths.filter((p) => /\/(parking|farming)\//.test(p))).toEqual([]);
    expect(unlicensed.failures).toEqual([]);
    await other.context.close();
  });

  it('a company with both modules loads their lists at start-up, and nothing fails', async () => {
    const demo = await signedIn('main@demo.test');
    const licensed = watchFailures(demo.page);
    await demo.page.reload();
    await demo.page.getByTestId('dashboard-grid').waitFor();
    await expect.poll(() => licensed.apiPaths.includes('/api/v1/parking/areas')).toBe(true);
    await demo.page.waitForLoadState('networkidle');
    expect(licensed.failures).toEqual([]);
    await demo.context.close();
  });

  it.each([1440, 1920])(
    'the seeded "Temperatur" chart draws its lines and legend inside its widget at %i px',
    async (width) => {
      const { context, page } = await signedIn('main@demo.test', { width, height: 1000 });
      const id = await widgetIdByTitle(page, 'Temperatur');
      const chart = page.getByTestId(`line-chart-widget-${id}`);
      await expect.poll(() => chart.getAttribute('data-loaded')).toBe('true');
      await expect.poll(() => seriesPixels(page, `widget-${id}-chart`)).toBeGreaterThan(50);
      const widget = await box(page, `widget-${id}`);
      const plot = await page.locator(`[data-testid="widget-${id}-chart"] canvas`).boundingBox();
      const legend = await page.locator(`[data-testid="widget-${id}-chart"] .u-legend`).boundingBox();
      expect(plot && legend).toBeTruthy();
      // A plot squeezed to its axis is some 80 px high; this one has room for its lines.
      expect(plot!.height).toBeGreaterThanOrEqual(140);
      expect(inside(plot!, widget)).toBe(true);
      expect(inside(legend!, widget)).toBe(true);
      await keepScreenshot(page, `first-use-dashboard-${width}`);
      await context.close();
    },
  );

  it('the map draws land, country and German state borders of the bundled base layer under its devices', async () => {
    const { context, page } = await signedIn('main@demo.test');
    const id = await widgetIdByTitle(page, 'Karte');
    const testId = `widget-${id}-map`;
    await page.getByTestId(`widget-${id}`).scrollIntoViewIfNeeded();
    // The dashboard shows a still preview until the map is asked for. Focus, as the keyboard's Tab does: a
    // click's pointer move starts the map on its way (pointer enter), taking the button away under the click.
    await page.getByTestId(`${testId}-interact`).focus();
    const map = page.getByTestId(testId);
    await expect.poll(() => map.getAttribute('data-base'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => map.getAttribute('data-ready'), { timeout: 30_000 }).toBe('true');
    /**
     * What MapLibre drew of the base layers with the map over north-west Germany: land features under
     * Kassel and the North Sea west of Heligoland (both on screen), border features anywhere on the map.
     */
    const drawn = () =>
      page.evaluate(async (testId) => {
        const m = (window as MapWindow).__IOT_MAPS__?.[testId];
        if (!m) return null;
        await new Promise<void>((resolve) => {
          m.once('idle', () => resolve());
          m.jumpTo({ center: [7, 52.5], zoom: 4 });
        });
        const { width, height } = m.getContainer().getBoundingClientRect();
        const landAt = (lngLat: [number, number]) => {
          const p = m.project(lngLat);
          const onScreen = p.x >= 0 && p.y >= 0 && p.x <= width && p.y <= height;
          return onScreen ? m.queryRenderedFeatures(p, { layers: ['base-land'] }).length : -1;
        };
        const all: [[number, number], [number, number]] = [
          [0, 0],
          [width, height],
        ];
        return {
          kassel: landAt([9.5, 51.3]),
          northSea: landAt([4.0, 54.0]),
          borders: m.queryRenderedFeatures(all, { layers: ['base-borders'] }).length,
          states: m.queryRenderedFeatures(all, { layers: ['base-states'] }).length,
        };
      }, testId);
    await expect.poll(async () => (await drawn())?.kassel ?? -1).toBeGreaterThan(0);
    const seen = await drawn();
    expect(seen?.northSea).toBe(0);
    expect(seen?.borders).toBeGreaterThan(0);
    expect(seen?.states).toBeGreaterThan(0);
    // The base layers are the style's own, under whatever deck.gl draws for the devices.
    const order = await page.evaluate(
      (testId) => (window as MapWindow).__IOT_MAPS__?.[testId]?.getStyle().layers.map((l) => l.id) ?? [],
      testId,
    );
    expect(order.slice(0, 4)).toEqual(['background', 'base-land', 'base-states', 'base-borders']);
    await keepScreenshot(page, 'first-use-map');
    await context.close();
  });

  it('at phone width the widgets stack inside the viewport and Escape closes the menu', async () => {
    const phone = { width: 390, height: 844 };
    const { context, page } = await signedIn('main@demo.test', phone);
    const grid = page.getByTestId('dashboard-grid');
    await expect.poll(() => grid.getAttribute('data-layout')).toBe('stacked');
    const widgets = page.locator('[data-testid^="widget-"][data-type]');
    await expect.poll(() => widgets.count()).toBe(3);
    const boxes = await widgets.evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }),
    );
    for (const b of boxes) {
      expect(b.left).toBeGreaterThanOrEqual(0);
      expect(b.right).toBeLessThanOrEqual(phone.width);
    }
    // One column: each widget starts below the one before it.
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.top).toBeGreaterThanOrEqual(boxes[i - 1]!.bottom);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await keepScreenshot(page, 'first-use-phone');

    const shell = page.getByTestId('shell');
    await page.getByTestId('menu-toggle').click();
    await expect.poll(() => shell.getAttribute('data-menu')).toBe('open');
    await page.keyboard.press('Escape');
    await expect.poll(() => shell.getAttribute('data-menu')).toBe('closed');
    await context.close();
  });

  it('each widget mounts once, at its final width, in the grid and in the stack', async () => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const { context, page } = await signIn(browser, platform.url, 'main@demo.test', {
        viewport,
        // Every widget element the page adds, with its width then: a widget mounted at a width it leaves
        // (the grid before it was measured) or mounted twice (grid, then stack) starts its chart over.
        initScript: () => {
          const mounts: { id: string; width: number }[] = [];
          (window as unknown as { __WIDGET_MOUNTS__: unknown }).__WIDGET_MOUNTS__ = mounts;
          new MutationObserver((records) => {
            for (const record of records)
              for (const node of record.addedNodes) {
                if (!(node instanceof HTMLElement)) continue;
                const widgets = [node, ...node.querySelectorAll<HTMLElement>('[data-type]')].filter(
                  (e) => /^widget-\d+$/.test(e.dataset.testid ?? '') && e.dataset.type,
                );
                for (const e of widgets)
                  mounts.push({ id: e.dataset.testid ?? '', width: e.getBoundingClientRect().width });
              }
          }).observe(document, { childList: true, subtree: true });
        },
      });
      const widgets = page.locator('[data-testid^="widget-"][data-type]');
      await expect.poll(() => widgets.count()).toBe(3);
      const final = await widgets.evaluateAll((els) =>
        els.map((e) => ({ id: e.getAttribute('data-testid'), width: e.getBoundingClientRect().width })),
      );
      const mounts = await page.evaluate(
        () => (window as unknown as { __WIDGET_MOUNTS__: { id: string; width: number }[] }).__WIDGET_MOUNTS__,
      );
      expect(mounts.map((m) => m.id).sort()).toEqual(final.map((f) => f.id).sort());
      for (const { id, width } of final)
        expect(mounts.find((m) => m.id === id)?.width, `${id} at ${viewport.width} px`).toBeCloseTo(width, 0);
      await context.close();
    }
  });

  it('a new rule starts without an action and saves as it is filled in', async () => {
    const { context, page } = await signedIn('main@demo.test');
    await page.goto('/devices');
    const row = page.locator('[data-testid^="device-row-"]').filter({ hasText: 'Demo Cold Room' }).first();
    await expect.poll(() => row.count()).toBe(1);
    await row.click();
    await page.getByTestId('device-drawer').getByTestId('device-action-rules').click();
    const rules = page.getByTestId('device-rules-drawer');
    await rules.getByTestId('rule-add').click();
    const form = rules.getByTestId('rule-form');
    await form.getByTestId('rule-name').waitFor();
    expect(await form.getByTestId('rule-actions').locator('[data-channel]').count()).toBe(0);
    await form.getByTestId('rule-name').fill('First-use rule');
    await form.getByTestId('rule-data_field').selectOption('temperature');
    await form.getByTestId('rule-value').fill('30');
    await expect.poll(() => form.getByTestId('rule-submit').isEnabled()).toBe(true);
    await form.getByTestId('rule-submit').click();
    await expect.poll(() => rules.getByTestId('rule-form').count()).toBe(0);
    const { rows } = await platform.db.query<{ actions: number }>(
      `SELECT (SELECT count(*)::int FROM rule_actions a WHERE a.rule_id = r.id) AS actions
         FROM rules r WHERE r.name = 'First-use rule'`,
    );
    expect(rows).toEqual([{ actions: 0 }]);
    await context.close();
  });

  it('at 1440 px the impersonate button is on screen without filtering the client list', async () => {
    const { context, page } = await signedIn('admin@demo.test');
    await page.goto('/admin/clients');
    const button = page.locator('[data-testid^="client-impersonate-"]').first();
    await button.waitFor();
    const b = (await button.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(1440);
    // Not under another cell: the button itself is what a click at its centre hits.
    const hit = await button.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
    });
    expect(hit).toBe(true);
    await context.close();
  });

  it('"Issue new token" is in the device drawer, where the README sends people', async () => {
    const { context, page } = await signedIn('main@demo.test');
    await page.goto('/devices');
    const row = page.locator('[data-testid^="device-row-"]').filter({ hasText: 'Demo Cold Room' }).first();
    await expect.poll(() => row.count()).toBe(1);
    await row.click();
    const drawer = page.getByTestId('device-drawer');
    const rotate = drawer.getByTestId('credentials-rotate');
    await rotate.waitFor();
    expect(await rotate.textContent()).toMatch(/Token/);
    await context.close();
  });
});
