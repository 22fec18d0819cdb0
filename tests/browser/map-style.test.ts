/**
 * MAP_STYLE_URL (issue #30): with a style configured, the console's maps draw that style instead of the
 * bundled offline base layer. A stand-in style server in this test answers style.json, whose one GeoJSON
 * source (a polygon over the seeded devices' area, served as a file of its own) is filled in a colour of
 * its own; the platform runs with MAP_STYLE_URL pointing at it.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT_MS, keepScreenshot, launchBrowser, signedIn } from '../support/browser.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

const CONSOLE_TEST_BUILD = fileURLToPath(new URL('../../apps/console/dist-test', import.meta.url));

/** The stand-in style's fill colour: nothing in the bundled base layer or the device layers uses it. */
const STYLE_FILL = '#b0409a';

interface TestMap {
  once(event: 'idle', listener: () => void): void;
  jumpTo(options: { center: [number, number]; zoom: number }): void;
  getContainer(): HTMLElement;
  queryRenderedFeatures(box: [[number, number], [number, number]], options: { layers: string[] }): unknown[];
  getStyle(): { name?: string; layers: { id: string }[] };
}
type MapWindow = Window & { __IOT_MAPS__?: Record<string, TestMap> };

let platform: TestPlatform;
let browser: Browser;
let styleServer: Server;
const styleRequests: string[] = [];

/** style.json and its GeoJSON source (south-west Germany, where the demo devices are). */
function startStyleServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const { port } = server.address() as AddressInfo;
    styleRequests.push(req.url ?? '');
    const base = `http://127.0.0.1:${port}`;
    const bodies: Record<string, unknown> = {
      '/style.json': {
        version: 8,
        name: 'stand-in style',
        sources: { area: { type: 'geojson', data: `${base}/area.geojson` } },
        layers: [
          { id: 'stand-in-background', type: 'background', paint: { 'background-color': '#ffffff' } },
          { id: 'stand-in-area', type: 'fill', source: 'area', paint: { 'fill-color': STYLE_FILL } },
        ],
      },
      '/area.geojson': {
        type: 'Feature',
        properties: {},
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [5, 46],
              [12, 46],
              [12, 51],
              [5, 51],
              [5, 46],
            ],
          ],
        },
      },
    };
    const body = bodies[req.url ?? ''];
    // The console fetches the style from its own origin: the style server allows that, as tile hosts do.
    res.setHeader('access-control-allow-origin', '*');
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  if (!existsSync(`${CONSOLE_TEST_BUILD}/index.html`)) {
    throw new Error(
      `${CONSOLE_TEST_BUILD} is missing: run \`npm run build:test -w @iot/console\` (npm test does)`,
    );
  }
  styleServer = await startStyleServer();
  const { port } = styleServer.address() as AddressInfo;
  platform = await startTestPlatform({
    CONSOLE_DIR: CONSOLE_TEST_BUILD,
    MAP_STYLE_URL: `http://127.0.0.1:${port}/style.json`,
  });
  browser = await launchBrowser({ webgl: true });
  // A busy two-core machine (other suites beside this one) can take minutes to start the platform.
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await new Promise((resolve) => styleServer?.close(resolve));
});

/** The map widget of the seeded dashboard, its test id once it is drawn. */
async function mapWidget(page: Page): Promise<string> {
  // The map's code loads once its widget is about to be visible.
  const widget = page.locator('[data-testid^="widget-"][data-type="map"]').first();
  await widget.scrollIntoViewIfNeeded();
  // The dashboard shows a still preview until the map is asked for: focus on its button, as the
  // keyboard's Tab does (a click's pointer move may start the map first and take the button away).
  await widget.locator('[data-testid$="-map-interact"]').focus();
  const map = widget.locator('[data-testid$="-map"]');
  await map.waitFor();
  await expect.poll(() => map.getAttribute('data-ready'), { timeout: 30_000 }).toBe('true');
  return (await map.getAttribute('data-testid'))!;
}

/** Shares of the map widget's screenshot in the stand-in fill and in the offline layer's land colour. */
async function mapColours(page: Page, testId: string): Promise<{ fill: number; offlineLand: number }> {
  const png = (await page.getByTestId(testId).screenshot()).toString('base64');
  return page.evaluate(
    async ({ png, fill }) => {
      const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
      const ctx = new OffscreenCanvas(image.width, image.height).getContext('2d')!;
      ctx.drawImage(image, 0, 0);
      const { data } = ctx.getImageData(0, 0, image.width, image.height);
      const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
      const near = (i: number, [r, g, b]: number[]) =>
        Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 24;
      let inFill = 0;
      let inLand = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (near(i, rgb(fill))) inFill++;
        if (near(i, rgb('#f4f2ec'))) inLand++;
      }
      const pixels = data.length / 4;
      return { fill: inFill / pixels, offlineLand: inLand / pixels };
    },
    { png, fill: STYLE_FILL },
  );
}

describe('a configured map style (MAP_STYLE_URL)', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  it('replaces the bundled base layer on the dashboard map', async () => {
    const { context, page } = await signedIn(browser, platform.url, 'main@demo.test', {
      viewport: { width: 1440, height: 900 },
      initScript: () => {
        (window as unknown as { __IOT_TEST__: unknown }).__IOT_TEST__ = { maps: true };
      },
    });
    const testId = await mapWidget(page);
    /** The style's layers and what its fill drew, with the map over the stand-in area. */
    const drawn = () =>
      page.evaluate(async (testId) => {
        const m = (window as MapWindow).__IOT_MAPS__?.[testId];
        if (!m) return null;
        await new Promise<void>((resolve) => {
          m.once('idle', () => resolve());
          m.jumpTo({ center: [8.5, 48.5], zoom: 6 });
        });
        const { width, height } = m.getContainer().getBoundingClientRect();
        const all: [[number, number], [number, number]] = [
          [0, 0],
          [width, height],
        ];
        return {
          name: m.getStyle().name,
          layers: m.getStyle().layers.map((l) => l.id),
          area: m.queryRenderedFeatures(all, { layers: ['stand-in-area'] }).length,
        };
      }, testId);
    await expect.poll(async () => (await drawn())?.area ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
    const seen = await drawn();
    expect(seen?.name).toBe('stand-in style');
    expect(seen?.layers.slice(0, 2)).toEqual(['stand-in-background', 'stand-in-area']);
    expect(seen?.layers.some((id) => id.startsWith('base-'))).toBe(false);
    // The bundled base layer is neither shown nor fetched: its shapes stay off the wire.
    expect(await page.getByTestId(testId).getAttribute('data-base')).toBeNull();
    expect(styleRequests).toContain('/style.json');
    expect(styleRequests).toContain('/area.geojson');
    // On screen: the map's pixels are mostly the stand-in fill, hardly any (edges of controls) in the
    // offline layer's land colour.
    const colours = await mapColours(page, testId);
    expect(colours.fill).toBeGreaterThan(0.5);
    expect(colours.offlineLand).toBeLessThan(0.01);
    await keepScreenshot(page, 'map-style-configured');
    await context.close();
  });
});
