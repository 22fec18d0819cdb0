/**
 * Dashboards, groups and the map in Chromium (software WebGL) against the whole platform with its demo
 * data, served from the console's test build (apps/console/dist-test, `npm run build:test -w @iot/console`)
 * so maps register on window.__IOT_MAPS__ and a test can click a device at its projected pixel.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_TEST_TIMEOUT_MS,
  keepScreenshot,
  launchBrowser,
  signedIn as signIn,
  toastsGone,
} from '../support/browser.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

const CONSOLE_TEST_BUILD = fileURLToPath(new URL('../../apps/console/dist-test', import.meta.url));

interface ApiDevice {
  id: number;
  name: string;
  latitude: number | null;
  longitude: number | null;
  group: { id: number; name: string } | null;
}
interface ApiWidget {
  id: number;
  type: string;
  title: string;
  x: number;
  y: number;
  w: number;
  h: number;
  settings: Record<string, unknown>;
}
interface ApiDashboard {
  id: number;
  name: string;
  widgets: ApiWidget[];
}

/** What the test calls on a MapLibre map registered by the console's test build. */
interface TestMap {
  once(event: 'idle', listener: () => void): void;
  jumpTo(options: { center: [number, number]; zoom: number }): void;
  project(lngLat: [number, number]): { x: number; y: number };
  getContainer(): HTMLElement;
  getZoom(): number;
  triggerRepaint(): void;
}
/** The console's test build registers its maps here. */
type MapWindow = Window & { __IOT_MAPS__?: Record<string, TestMap> };

let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  // Without the test build the pages load but never register their maps: say so instead of timing out.
  if (!existsSync(`${CONSOLE_TEST_BUILD}/index.html`)) {
    throw new Error(
      `${CONSOLE_TEST_BUILD} is missing: run \`npm run build:test -w @iot/console\` (npm test does)`,
    );
  }
  platform = await startTestPlatform({ CONSOLE_DIR: CONSOLE_TEST_BUILD });
  browser = await launchBrowser({ webgl: true });
});
afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

function signedIn(email: string) {
  return signIn(browser, platform.url, email, {
    viewport: { width: 1400, height: 1000 },
    initScript: () => {
      (window as unknown as { __IOT_TEST__: unknown }).__IOT_TEST__ = { maps: true };
    },
  });
}

function apiGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const r = await fetch(`/api/v1${p}`, { headers: { 'x-requested-with': 'XMLHttpRequest' } });
    return ((await r.json()) as { payload: unknown }).payload;
  }, path) as Promise<T>;
}

/**
 * Centres a map on a device at street zoom (no clustering there) and answers its pixel on the page, once the
 * layers for that view are set (the map's data-layer-updates moved on) and drawn.
 */
async function devicePixel(page: Page, mapId: string, device: ApiDevice): Promise<{ x: number; y: number }> {
  await page.waitForFunction((id) => !!(window as MapWindow).__IOT_MAPS__?.[id], mapId);
  const container = page.getByTestId(mapId);
  const updatesBefore = await container.getAttribute('data-layer-updates');
  await page.evaluate(
    ([id, lng, lat]) =>
      new Promise<void>((resolve) => {
        const map = (window as MapWindow).__IOT_MAPS__?.[id as string];
        if (!map) return resolve();
        map.once('idle', () => resolve());
        map.jumpTo({ center: [lng as number, lat as number], zoom: 17 });
      }),
    [mapId, device.longitude, device.latitude] as const,
  );
  await expect.poll(() => container.getAttribute('data-layer-updates')).not.toBe(updatesBefore);
  await page.evaluate(
    (id) =>
      new Promise<void>((resolve) => {
        const map = (window as MapWindow).__IOT_MAPS__?.[id];
        if (!map) return resolve();
        map.once('idle', () => resolve());
        map.triggerRepaint();
      }),
    mapId,
  );
  // Only devices with a position are placed on the map.
  return pagePixel(page, mapId, device.longitude as number, device.latitude as number);
}

/** The pixel on the page of a coordinate on a map, as the map is drawn now. */
async function pagePixel(
  page: Page,
  mapId: string,
  lng: number,
  lat: number,
): Promise<{ x: number; y: number }> {
  const point = await page.evaluate(
    ([id, pointLng, pointLat]) => {
      const map = (window as MapWindow).__IOT_MAPS__?.[id as string];
      const p = map?.project([pointLng as number, pointLat as number]);
      const box = map?.getContainer().getBoundingClientRect();
      return p && box ? { x: box.left + p.x, y: box.top + p.y } : null;
    },
    [mapId, lng, lat] as const,
  );
  if (!point) throw new Error(`map ${mapId} is not on the page`);
  return point;
}

/**
 * Clicks the device on the map once: the drawer must open from the first click (with deck.gl's picking a
 * first click found nothing while the picking pipeline was still linking, reliably so under load).
 * devicePixel waits until the layers of the view are drawn; the drawer's lazy chunk then gets time.
 */
async function clickDevice(page: Page, mapId: string, device: ApiDevice): Promise<void> {
  // The start-up device list (spec section 7) is in, so the layout no longer moves under the click. Not
  // 'networkidle', which waited for that before: in a CI run on a loaded machine (2026-11-22) the page had
  // no half second without a request in flight for 30 s (not explained); the click needs only the list.
  await page.waitForFunction(
    () =>
      performance.getEntriesByType('resource').some((e) => {
        const url = new URL(e.name);
        return url.pathname === '/api/v1/core/devices' && url.search === '';
      }),
    undefined,
    { timeout: 30_000, polling: 100 },
  );
  await page.getByTestId(mapId).scrollIntoViewIfNeeded();
  const { x, y } = await devicePixel(page, mapId, device);
  await page.mouse.click(x, y);
  await page.getByTestId('device-drawer').waitFor({ timeout: 20_000 });
}

describe('dashboards, groups and the map in Chromium', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  it('the demo client opens on its dashboard with a table, a uPlot chart and a map', async () => {
    const { context, page } = await signedIn('main@demo.test');
    const [dashboard] = await apiGet<ApiDashboard[]>(page, '/core/company/dashboards');
    expect(dashboard?.widgets.map((w) => w.type).sort()).toEqual(['line_chart', 'map', 'table']);
    const table = dashboard?.widgets.find((w) => w.type === 'table') as ApiWidget;
    const tableIds = table.settings.device_ids as number[];
    expect(tableIds.length).toBeGreaterThan(0);

    await page.getByTestId(`dashboard-tab-${dashboard?.id}`).waitFor();
    const tableWidget = page.getByTestId(`widget-${table.id}`);
    await expect
      .poll(() => tableWidget.locator('[data-testid^="table-widget-row-"]').count())
      .toBe(tableIds.length);
    // Values are formatted by the domain: temperatures carry their unit.
    await expect
      .poll(() => tableWidget.locator('[data-field="temperature"]').first().textContent())
      .toMatch(/°C/);
    const chart = dashboard?.widgets.find((w) => w.type === 'line_chart') as ApiWidget;
    await page.getByTestId(`widget-${chart.id}-chart`).locator('canvas').first().waitFor();
    const map = dashboard?.widgets.find((w) => w.type === 'map') as ApiWidget;
    // Focus, as the keyboard's Tab does: a click's pointer move may start the map on its way (pointer
    // enter), taking the button away under the click, which then waits for it in vain.
    await page.getByTestId(`widget-${map.id}-map-interact`).focus();
    await page.getByTestId(`widget-${map.id}-map`).locator('canvas.maplibregl-canvas').waitFor();
    await page.waitForSelector(`[data-testid="widget-${map.id}-map"][data-ready="true"]`);
    expect(await page.getByTestId('dashboard-edit').count()).toBe(1);
    await keepScreenshot(page, 'dashboard-demo');

    // A click on a device in the map widget opens its drawer.
    const devices = await apiGet<ApiDevice[]>(page, '/core/devices');
    const placed = devices.find((d) => d.latitude !== null && d.longitude !== null) as ApiDevice;
    await clickDevice(page, `widget-${map.id}-map`, placed);
    expect(await page.getByTestId('device-drawer').getByTestId('drawer-title').textContent()).toBe(
      placed.name,
    );
    await context.close();
  }, 120_000);

  it('a map the user turned to stays interactive when the grid stacks at phone width and back', async () => {
    const { context, page } = await signedIn('main@demo.test');
    const [dashboard] = await apiGet<ApiDashboard[]>(page, '/core/company/dashboards');
    const map = dashboard?.widgets.find((w) => w.type === 'map') as ApiWidget;
    const grid = page.getByTestId('dashboard-grid');
    await expect.poll(() => grid.getAttribute('data-layout')).toBe('grid');
    await page.getByTestId(`widget-${map.id}-map-interact`).focus();
    await page.getByTestId(`widget-${map.id}-map`).locator('canvas.maplibregl-canvas').waitFor();
    // The keyboard's focus moved from the button that is gone to the map, not to the page's start.
    expect(
      await page.evaluate(
        (id) => !!document.activeElement?.matches(`[data-testid="${id}"] canvas.maplibregl-canvas`),
        `widget-${map.id}-map`,
      ),
    ).toBe(true);
    // Stacking mounts every widget anew; the map must not fall back to its preview.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => grid.getAttribute('data-layout')).toBe('stacked');
    // Below the fold the map waits to be scrolled near (LazyDeviceMap).
    await page.getByTestId(`widget-${map.id}-map`).scrollIntoViewIfNeeded();
    await page.getByTestId(`widget-${map.id}-map`).locator('canvas.maplibregl-canvas').waitFor();
    expect(await page.getByTestId(`widget-${map.id}-map-preview`).count()).toBe(0);
    await page.setViewportSize({ width: 1400, height: 1000 });
    await expect.poll(() => grid.getAttribute('data-layout')).toBe('grid');
    await page.getByTestId(`widget-${map.id}-map`).locator('canvas.maplibregl-canvas').waitFor();
    expect(await page.getByTestId(`widget-${map.id}-map-preview`).count()).toBe(0);
    await context.close();
  });

  it('the map widget shows a still preview of its devices without the map chunk, the map on interaction', async () => {
    const { context, page } = await signedIn('main@demo.test');
    const [dashboard] = await apiGet<ApiDashboard[]>(page, '/core/company/dashboards');
    const map = dashboard?.widgets.find((w) => w.type === 'map') as ApiWidget;
    const preview = page.getByTestId(`widget-${map.id}-map-preview`);
    await expect.poll(() => preview.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    expect(Number(await preview.getAttribute('data-points'))).toBeGreaterThan(0);
    // The devices are drawn in their state colours (device-points.ts) on the base shapes.
    const drawn = await preview.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      const states = [
        [22, 163, 74],
        [217, 119, 6],
        [147, 51, 234],
        [220, 38, 38],
        [107, 114, 128],
        [156, 163, 175],
      ];
      const land = [0xf4, 0xf2, 0xec];
      const near = (i: number, [r, g, b]: number[]) =>
        Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 24;
      let device = 0;
      let onLand = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (states.some((c) => near(i, c))) device++;
        if (near(i, land)) onLand++;
      }
      return { device, onLand };
    });
    expect(drawn.device).toBeGreaterThan(20);
    expect(drawn.onLand).toBeGreaterThan(100);
    const mapChunks = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((name) => /\/(device-map|maplibre-gl-worker)[-.]/.test(name)),
      );
    await page.waitForTimeout(1000);
    expect(await mapChunks()).toEqual([]);
    expect(await page.getByTestId(`widget-${map.id}-map`).count()).toBe(0);
    await keepScreenshot(page, 'dashboard-map-preview');

    // Pointing at the widget starts the interactive map.
    await preview.hover();
    const interactive = page.getByTestId(`widget-${map.id}-map`);
    await expect.poll(() => interactive.getAttribute('data-ready'), { timeout: 30_000 }).toBe('true');
    expect((await mapChunks()).some((name) => name.includes('device-map'))).toBe(true);
    expect(await preview.count()).toBe(0);
    await context.close();
  }, 120_000);

  it('creates a dashboard with all three widget types that survives a reload, edits it and deletes it', async () => {
    const { context, page } = await signedIn('ops@demo.test');
    const devices = await apiGet<ApiDevice[]>(page, '/core/devices');
    const first = devices[0] as ApiDevice;

    await page.getByTestId('dashboard-create').click();
    await page.getByTestId('dashboard-name').fill('Browser test board');
    await page.getByTestId('dashboard-name-submit').click();
    await page.waitForURL((url) => url.searchParams.has('dashboard'));
    const id = Number(new URL(page.url()).searchParams.get('dashboard'));
    await page.getByTestId(`dashboard-tab-${id}`).waitFor();

    // "Dashboard saved" covers the header's edit button until it goes.
    await toastsGone(page);
    await page.getByTestId('dashboard-edit').click();
    await page.getByTestId('widget-add-table').click();
    await page.getByTestId('widget-add-line_chart').click();
    await page.getByTestId('widget-add-map').click();
    // The table: one device and its temperature.
    await page.getByTestId('widget--1-settings').click();
    await page.getByTestId('widget-title').fill('My table');
    await page.getByTestId(`widget-devices-option-${first.id}`).click();
    const field = page.locator('[data-testid^="widget-fields-option-"]').first();
    await field.click();
    await page.getByTestId('widget-settings-apply').click();
    // The chart: one line of the first device.
    await page.getByTestId('widget--2-settings').click();
    await page.getByTestId('widget-series-add').click();
    await page.getByTestId('widget-settings-apply').click();
    await page.getByTestId('dashboard-save').click();
    await page.getByTestId('dashboard-edit').waitFor();

    await page.reload();
    let saved = (await apiGet<ApiDashboard[]>(page, '/core/company/dashboards')).find((d) => d.id === id);
    expect(saved?.widgets.map((w) => w.type)).toEqual(['table', 'line_chart', 'map']);
    const table = saved?.widgets[0] as ApiWidget;
    expect(table).toMatchObject({ title: 'My table', settings: { device_ids: [first.id] } });
    await page.getByTestId(`table-widget-row-${first.id}`).waitFor();
    await page.getByTestId(`widget-${saved?.widgets[1]?.id}-chart`).locator('canvas').first().waitFor();
    await page.getByTestId(`widget-${saved?.widgets[2]?.id}-map-preview`).locator('canvas').waitFor();
    await keepScreenshot(page, 'dashboard-created');

    // Edit: a new title, the chart's range 1 week, and the map widget dragged below by its handle.
    await page.getByTestId('dashboard-edit').click();
    await page.getByTestId(`widget-${table.id}-settings`).click();
    await page.getByTestId('widget-title').fill('Renamed table');
    await page.getByTestId('widget-settings-apply').click();
    const chartId = saved?.widgets[1]?.id as number;
    await page.getByTestId(`widget-${chartId}-settings`).click();
    await page.getByTestId('widget-range').click();
    await page.getByTestId('widget-range-1w').click();
    await page.getByTestId('widget-settings-apply').click();
    const tableBefore = saved?.widgets[0] as ApiWidget;
    const handle = page.getByTestId(`widget-${table.id}-handle`);
    const box = (await handle.boundingBox()) as { x: number; y: number };
    await page.mouse.move(box.x + 5, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 400, box.y + 10, { steps: 10 });
    await page.mouse.move(box.x + 700, box.y + 15, { steps: 10 });
    await page.mouse.up();
    await page.getByTestId('dashboard-save').click();
    await page.getByTestId('dashboard-edit').waitFor();
    await page.reload();
    saved = (await apiGet<ApiDashboard[]>(page, '/core/company/dashboards')).find((d) => d.id === id);
    const renamed = saved?.widgets.find((w) => w.type === 'table') as ApiWidget;
    expect(renamed.title).toBe('Renamed table');
    expect(renamed.x).not.toBe(tableBefore.x);
    expect(saved?.widgets.find((w) => w.type === 'line_chart')?.settings.range).toBe('1w');
    expect(await page.getByTestId(`widget-${renamed.id}-title`).textContent()).toBe('Renamed table');

    // Delete after the confirmation; the tab is gone and the API no longer has it.
    await page.getByTestId('dashboard-edit').click();
    await page.getByTestId('dashboard-delete').click();
    await page.getByTestId('confirm-accept').click();
    await expect.poll(() => page.getByTestId(`dashboard-tab-${id}`).count()).toBe(0);
    const left = await apiGet<ApiDashboard[]>(page, '/core/company/dashboards');
    expect(left.some((d) => d.id === id)).toBe(false);
    await context.close();
  }, 120_000);

  it('groups: create with devices, edit, view, and the device list filters by the group', async () => {
    const { context, page } = await signedIn('main@demo.test');
    const devices = await apiGet<ApiDevice[]>(page, '/core/devices');
    const [a, b] = devices as [ApiDevice, ApiDevice];
    await page.goto('/groups');
    await page.getByTestId('group-add').click();
    await page.getByTestId('group-name').fill('Browser group');
    await page.getByTestId('group-description').fill('made by the browser test');
    await page.getByTestId(`group-devices-option-${a.id}`).click();
    await page.getByTestId(`group-devices-option-${b.id}`).click();
    await page.getByTestId('group-submit').click();
    await page.getByTestId('toast-success').first().waitFor();

    const groups = await apiGet<{ id: number; name: string; device_ids: number[] }[]>(page, '/core/groups');
    const group = groups.find((g) => g.name === 'Browser group');
    expect(group?.device_ids.sort()).toEqual([a.id, b.id].sort());
    await expect.poll(() => page.getByTestId(`group-count-${group?.id}`).textContent()).toBe('2');

    // Edit: rename and drop one device.
    await page.getByTestId(`group-edit-${group?.id}`).click();
    await page.getByTestId('group-name').fill('Browser group 2');
    await page.getByTestId(`group-devices-option-${b.id}`).click();
    await page.getByTestId('group-submit').click();
    await expect.poll(() => page.getByTestId(`group-count-${group?.id}`).textContent()).toBe('1');
    expect(await page.getByTestId(`group-row-${group?.id}`).textContent()).toContain('Browser group 2');

    // View drawer lists the remaining device.
    await page.getByTestId(`group-view-${group?.id}`).click();
    await page.getByTestId(`group-view-device-${a.id}`).waitFor();
    expect(await page.getByTestId('group-view-description').textContent()).toBe('made by the browser test');
    await keepScreenshot(page, 'group-view');
    await page.keyboard.press('Escape');

    // The device list already knows the new group (devices were reloaded) and filters by it.
    await page.getByTestId(`group-devices-${group?.id}`).click();
    await page.waitForURL((url) => url.searchParams.get('group') === String(group?.id));
    await expect
      .poll(async () => Number(await page.getByTestId('devices-count').getAttribute('data-count')))
      .toBe(1);
    await page.getByTestId(`device-row-${a.id}`).waitFor();
    await context.close();
  });

  it('the map view shows every device and opens a device drawer on click', async () => {
    const { context, page } = await signedIn('main@demo.test');
    await page.getByTestId('menu-map').click();
    await page.waitForURL('**/map');
    const devices = await apiGet<ApiDevice[]>(page, '/core/devices');
    const placed = devices.filter((d) => d.latitude !== null && d.longitude !== null);
    const view = page.getByTestId('map-view');
    await expect.poll(() => view.getAttribute('data-points')).toBe(String(placed.length));
    await page.waitForSelector('[data-testid="map-view"][data-ready="true"]');
    // The demo fleet is clustered at the default zoom; the counts are drawn on a 2D canvas over the map
    // (no WebGL program for them): some of its pixels are set.
    const countPixels = () =>
      view.locator('canvas.cluster-counts').evaluate((canvas: HTMLCanvasElement) => {
        const context = canvas.getContext('2d');
        if (!context || canvas.width === 0 || canvas.height === 0) return 0;
        const alpha = context.getImageData(0, 0, canvas.width, canvas.height).data;
        let set = 0;
        for (let i = 3; i < alpha.length; i += 4) if ((alpha[i] ?? 0) > 0) set += 1;
        return set;
      });
    await expect.poll(countPixels).toBeGreaterThan(20);
    await keepScreenshot(page, 'map-view');

    // The pointer over a cluster shows a hand; a click on it zooms in towards its devices.
    const zoom = () => page.evaluate(() => (window as MapWindow).__IOT_MAPS__?.['map-view']?.getZoom() ?? 0);
    const zoomBefore = await zoom();
    const [lng, lat] = ((await view.getAttribute('data-largest-cluster')) ?? '').split(',').map(Number);
    expect(Number.isFinite(lng) && Number.isFinite(lat)).toBe(true);
    const cluster = await pagePixel(page, 'map-view', lng as number, lat as number);
    const cursor = () => view.locator('canvas.maplibregl-canvas').evaluate((c) => getComputedStyle(c).cursor);
    await page.mouse.move(cluster.x, cluster.y);
    await expect.poll(cursor).toBe('pointer');
    await page.mouse.click(cluster.x, cluster.y);
    await expect.poll(zoom).toBeGreaterThan(zoomBefore);

    const target = placed[placed.length - 1] as ApiDevice;
    await clickDevice(page, 'map-view', target);
    expect(await page.getByTestId('device-drawer').getByTestId('drawer-title').textContent()).toBe(
      target.name,
    );
    await context.close();
  }, 120_000);

  it('a plain user sees the dashboard and groups without edit controls', async () => {
    const { context, page } = await signedIn('user@demo.test');
    await page.locator('[data-testid^="dashboard-tab-"]').first().waitFor();
    await page.locator('[data-testid^="table-widget-row-"]').first().waitFor();
    expect(await page.getByTestId('dashboard-edit').count()).toBe(0);
    expect(await page.getByTestId('dashboard-create').count()).toBe(0);
    expect(await page.locator('[data-testid$="-settings"]').count()).toBe(0);
    await page.goto('/groups');
    await page.locator('[data-testid^="group-row-"]').first().waitFor();
    expect(await page.getByTestId('group-add').count()).toBe(0);
    expect(await page.locator('[data-testid^="group-edit-"]').count()).toBe(0);
    await context.close();
  });
});
