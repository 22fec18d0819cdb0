/**
 * Parking in Chromium against the whole platform with its demo data (issue #25): the main user creates a
 * FIX car park on /parking and assigns two parking sensors as bays; an occupied uplink through the
 * ingest front door makes the free count drop on the open page, without a reload (the list is polled).
 * The demo main user reads German: "1 frei von 2".
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT_MS, keepScreenshot, launchBrowser, signedIn } from '../support/browser.js';
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

let platform: TestPlatform;
let browser: Browser;
let ingestPort: number;
const sensors: { id: number; uuid: string; token: string }[] = [];

beforeAll(async () => {
  ingestPort = await freePort();
  // No simulated fleet: only this test's uplinks move the new car park.
  platform = await startTestPlatform({ INGEST_PORT: String(ingestPort), SIMULATE_DEVICES: '0' });
  browser = await launchBrowser();
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
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

async function pushOccupied(sensor: { uuid: string; token: string }, occupied: boolean, id: string) {
  const response = await fetch(`http://127.0.0.1:${ingestPort}/ingest/v1/uplinks/${sensor.uuid}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sensor.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ occupied, message_id: id }),
  });
  expect(response.status).toBe(202);
}

describe('parking in Chromium', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  it('creates a car park with two bays and sees the free count drop after an occupied uplink', async () => {
    const { context, page } = await signedIn(browser, platform.url, 'main@demo.test');
    await page.goto('/parking');
    await expect.poll(() => page.getByTestId('parking-table').isVisible()).toBe(true);

    await page.getByTestId('parking-add').click();
    await page.getByTestId('parking-name').fill('Browser Parkplatz');
    await page.getByTestId('parking-capacity').fill('2');
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
    await expect.poll(() => free.textContent()).toBe('? frei von 2');

    await pushOccupied(sensors[0]!, false, 'browser-bay-1-free');
    await pushOccupied(sensors[1]!, false, 'browser-bay-2-free');
    await expect.poll(() => free.getAttribute('data-free'), { timeout: 45_000 }).toBe('2');
    expect(await free.textContent()).toBe('2 frei von 2');

    // A mark on this document: a reload would lose it.
    await page.evaluate(() => Object.assign(window, { parkingMark: true }));
    await pushOccupied(sensors[0]!, true, 'browser-bay-1-occupied');
    await expect.poll(() => free.getAttribute('data-free'), { timeout: 45_000 }).toBe('1');
    expect(await free.textContent()).toBe('1 frei von 2');
    // Still the same document: the count changed without a reload.
    expect(await page.evaluate(() => (window as unknown as { parkingMark?: boolean }).parkingMark)).toBe(
      true,
    );
    await keepScreenshot(page, 'parking');
    await context.close();
  });
});
