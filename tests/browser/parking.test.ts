/**
 * Parking in Chromium (software WebGL) against the whole platform with its demo data (issue #25), served
 * from the console's test build (apps/console/dist-test) so the map registers on window.__IOT_MAPS__: the
 * main user creates a FIX car park on /parking and assigns two parking sensors as bays; an occupied uplink
 * through the ingest front door makes the free count drop in the table and on the map's badge, without a
 * reload (the list is polled). The demo car parks show their badges, and a click into a car park's
 * outline opens its bays. The demo main user reads German: "1 frei von 2".
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT_MS, keepScreenshot, launchBrowser, signedIn } from '../support/browser.js';
import { postUplink } from '../support/cold-room.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const CONSOLE_TEST_BUILD = fileURLToPath(new URL('../../apps/console/dist-test', import.meta.url));

type MapWindow = Window & {
  __IOT_MAPS__?: Record<
    string,
    {
      project(lngLat: [number, number]): { x: number; y: number };
      getContainer(): HTMLElement;
      jumpTo(options: { center: [number, number]; zoom: number }): void;
      once(event: string, fn: () => void): void;
      triggerRepaint(): void;
    }
  >;
};

let platform: TestPlatform;
let browser: Browser;
let ingestPort: number;
const sensors: { id: number; uuid: string; token: string }[] = [];

beforeAll(async () => {
  if (!existsSync(`${CONSOLE_TEST_BUILD}/index.html`)) {
    throw new Error(
      `${CONSOLE_TEST_BUILD} is missing: run \`npm run build:test -w @iot/console\` (npm test does)`,
    );
  }
  ingestPort = await freePort();
  // No simulated fleet: only this test's uplinks move the new car park.
  platform = await startTestPlatform({
    INGEST_PORT: String(ingestPort),
    SIMULATE_DEVICES: '0',
    CONSOLE_DIR: CONSOLE_TEST_BUILD,
  });
  browser = await launchBrowser({ webgl: true });
  const { rows } = await platform.db.query<{ company_id: number }>(
    `SELECT company_id::int AS company_id FROM users WHERE email = 'main@demo.test'`,
  );
  const companyId = rows[0]!.company_id;
  for (const name of ['Browser Bay 1', 'Browser Bay 2']) {
    const token = randomBytes(16).toString('hex');
    const { rows: device } = await platform.db.query<{ id: number; uuid: string }>(
      `INSERT INTO devices (company_id, name, sensor_type, credentials_hash) VALUES ($1, $2, 8, $3)
       RETURNING id::int AS id, uuid::text AS uuid`,
      [companyId, name, createHash('sha256').update(token).digest('hex')],
    );
    sensors.push({ ...device[0]!, token });
  }
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

async function pushOccupied(sensor: { uuid: string; token: string }, occupied: boolean, id: string) {
  const ingestUrl = `http://127.0.0.1:${ingestPort}/ingest/v1`;
  expect(await postUplink(ingestUrl, sensor.uuid, sensor.token, { occupied, message_id: id })).toBe(202);
}

function signedInWithMaps() {
  return signedIn(browser, platform.url, 'main@demo.test', {
    initScript: () => {
      (window as unknown as { __IOT_TEST__: unknown }).__IOT_TEST__ = { maps: true };
    },
  });
}

/** Centres the parking map on a coordinate at street zoom, once drawn, and answers its pixel on the page. */
async function mapPixel(page: Page, lng: number, lat: number): Promise<{ x: number; y: number }> {
  await page.waitForFunction(() => !!(window as MapWindow).__IOT_MAPS__?.['parking-map'], undefined, {
    timeout: 30_000,
  });
  return page.evaluate(
    ([pointLng, pointLat]) =>
      new Promise<{ x: number; y: number }>((resolve) => {
        const map = (window as MapWindow).__IOT_MAPS__!['parking-map']!;
        const answer = () => {
          const p = map.project([pointLng!, pointLat!]);
          const box = map.getContainer().getBoundingClientRect();
          resolve({ x: box.left + p.x, y: box.top + p.y });
        };
        map.once('idle', answer);
        // Software WebGL on a loaded machine: answer after 10 s whether or not the map went idle.
        setTimeout(answer, 10_000);
        map.jumpTo({ center: [pointLng!, pointLat!], zoom: 18 });
        map.triggerRepaint();
      }),
    [lng, lat] as const,
  );
}

// Two maps in software WebGL beside the whole platform: twice the usual browser test time.
describe('parking in Chromium', { timeout: 2 * BROWSER_TEST_TIMEOUT_MS }, () => {
  it('shows the demo car parks on the map with a badge each; a click into an outline opens its bays', async () => {
    const { context, page } = await signedInWithMaps();
    await page.goto('/parking');
    const { rows: areas } = await platform.db.query<{ id: number; name: string; capacity: number }>(
      `SELECT a.id::int AS id, a.name, a.capacity FROM parking_areas a JOIN users u ON u.company_id = a.company_id
        WHERE u.email = 'main@demo.test' ORDER BY a.id`,
    );
    expect(areas.map((a) => a.name)).toEqual(['Parkplatz Rathaus', 'Marktplatz', 'Festwiese (Weinfest)']);
    for (const area of areas) {
      const badge = page.getByTestId(`parking-map-badge-${area.id}`);
      await expect
        .poll(() => badge.isVisible(), { timeout: 60_000 })
        .toBe(true)
        .catch(async (error: unknown) => {
          await keepScreenshot(page, 'parking-map-missing-badge');
          throw error;
        });
      // Labelled: "n frei von capacity" (or "?" when nothing is known), never a bare "n/capacity".
      expect(await badge.textContent()).toMatch(new RegExp(`^(\\d+|\\?) frei von ${area.capacity}$`));
    }
    // The Rathaus car park's outline (a deck.gl polygon around 48.0421, 7.5771), below its badge.
    const rathaus = areas[0]!;
    const inside = await mapPixel(page, 7.5771, 48.0421 - 0.0002);
    // deck.gl's picking may miss the first click while its pipeline still links: click until it opens.
    const drawer = page.getByTestId('parking-info-drawer');
    for (let attempt = 0; attempt < 5 && !(await drawer.isVisible()); attempt++) {
      await page.mouse.click(inside.x, inside.y);
      await drawer.waitFor({ state: 'visible', timeout: 3_000 }).catch(() => undefined);
    }
    await expect.poll(() => drawer.isVisible()).toBe(true);
    expect(await drawer.textContent()).toContain(rathaus.name);
    expect(await drawer.getByText('A-03').count()).toBeGreaterThan(0);
    await keepScreenshot(page, 'parking-map');
    await context.close();
  });

  it('creates a car park with two bays and sees the free count drop after an occupied uplink', async () => {
    const { context, page } = await signedInWithMaps();
    // The page draws its map in software WebGL on the main thread: on a loaded machine a click waits.
    page.setDefaultTimeout(60_000);
    await page.goto('/parking');
    await expect.poll(() => page.getByTestId('parking-table').isVisible()).toBe(true);

    await page.getByTestId('parking-add').click();
    await page.getByTestId('parking-name').fill('Browser Parkplatz');
    await page.getByTestId('parking-capacity').fill('2');
    await page.getByTestId('parking-latitude').fill('48.0435');
    await page.getByTestId('parking-longitude').fill('7.579');
    // Three clicks on the drawer's map draw the outline.
    const outlineMap = page.getByTestId('parking-outline-map');
    await expect.poll(() => outlineMap.isVisible(), { timeout: 30_000 }).toBe(true);
    await outlineMap.scrollIntoViewIfNeeded();
    const box = (await outlineMap.boundingBox())!;
    for (const [dx, dy] of [
      [0.3, 0.3],
      [0.7, 0.3],
      [0.5, 0.7],
    ] as const)
      await page.mouse.click(box.x + box.width * dx!, box.y + box.height * dy!);
    await page.getByTestId('parking-alarm_emails').fill('parking@demo.test');
    await page.getByTestId('parking-alarm_system').click();
    for (const [i, sensor] of sensors.entries()) {
      await page.getByTestId(`parking-device-check-${sensor.id}`).click();
      await page.getByTestId(`parking-device-label-${sensor.id}`).fill(`B-${i + 1}`);
    }
    await page.getByTestId('parking-submit').click();
    await expect.poll(() => page.getByTestId('parking-drawer').count()).toBe(0);

    const { rows } = await platform.db.query<{ id: number }>(
      `SELECT id::int AS id FROM parking_areas WHERE name = 'Browser Parkplatz'`,
    );
    const areaId = rows[0]!.id;
    const free = page.getByTestId(`parking-free-${areaId}`);
    const badge = page.getByTestId(`parking-map-badge-${areaId}`);
    await expect.poll(() => free.textContent()).toBe('? frei von 2');
    await expect.poll(() => badge.textContent(), { timeout: 30_000 }).toBe('? frei von 2');
    const { rows: outline } = await platform.db.query<{ type: string; corners: number }>(
      `SELECT geometry ->> 'type' AS type, jsonb_array_length(geometry -> 'coordinates' -> 0)::int AS corners
         FROM parking_areas WHERE id = $1`,
      [areaId],
    );
    expect(outline).toEqual([{ type: 'Polygon', corners: 4 }]); // three corners, closed
    // The drawer's notifications became the area's alarm rule, in the user's language.
    const { rows: actions } = await platform.db.query<{
      type: string;
      recipients: string[];
      subject: string;
    }>(
      `SELECT a.type, a.recipients, a.subject FROM rule_actions a JOIN rules r ON r.id = a.rule_id
        WHERE r.parking_area_id = $1 ORDER BY a.position`,
      [areaId],
    );
    expect(actions).toEqual([
      { type: 'email', recipients: ['parking@demo.test'], subject: 'Parkalarm: {rule}' },
      { type: 'system', recipients: [], subject: 'Parkalarm: {rule}' },
    ]);

    await pushOccupied(sensors[0]!, false, 'browser-bay-1-free');
    await pushOccupied(sensors[1]!, false, 'browser-bay-2-free');
    await expect.poll(() => free.getAttribute('data-free'), { timeout: 45_000 }).toBe('2');
    expect(await free.textContent()).toBe('2 frei von 2');

    // A mark on this document: a reload would lose it.
    await page.evaluate(() => Object.assign(window, { parkingMark: true }));
    await pushOccupied(sensors[0]!, true, 'browser-bay-1-occupied');
    await expect.poll(() => free.getAttribute('data-free'), { timeout: 45_000 }).toBe('1');
    expect(await free.textContent()).toBe('1 frei von 2');
    await expect.poll(() => badge.textContent()).toBe('1 frei von 2');
    // Still the same document: the count changed without a reload.
    expect(await page.evaluate(() => (window as unknown as { parkingMark?: boolean }).parkingMark)).toBe(
      true,
    );
    await keepScreenshot(page, 'parking');
    await context.close();
  });
});
