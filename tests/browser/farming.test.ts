/**
 * Farming in Chromium as the demo main user (Demo Agrar GmbH): a field drawn on the map gets its area
 * live, takes a free parcel and one from another field with the running sum shown, and lands in the table
 * with the parcels' sum as its size; a task planned in the planner shows in the upcoming view.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT_MS, keepScreenshot, launchBrowser, signedIn } from '../support/browser.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  platform = await startTestPlatform({ SIMULATE_DEVICES: '0' });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

async function parcelId(number: string): Promise<number> {
  const { rows } = await platform.db.query<{ id: number }>(
    'SELECT id::int AS id FROM parcels WHERE parcel_id = $1',
    [number],
  );
  return rows[0]!.id;
}

describe('farming', () => {
  it(
    'draws a field, assigns parcels with the running sum, and plans a task',
    async () => {
      const { context, page } = await signedIn(browser, platform.url, 'main@demo.test');
      try {
        await page.goto('/farming/fields');
        await page.getByTestId('fields-table').waitFor();
        await page.getByTestId('field-add').click();
        await page.getByTestId('field-name').fill('Acker Süd');
        const map = page.getByTestId('field-editor-map');
        await map.waitFor();
        await page.waitForTimeout(1000);
        const box = (await map.boundingBox())!;
        for (const [x, y] of [
          [0.3, 0.3],
          [0.7, 0.3],
          [0.7, 0.7],
          [0.3, 0.7],
        ] as const) {
          await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
        }
        await expect.poll(() => page.getByTestId('field-drawn-area').textContent()).toMatch(/(m²|ha|km²)$/);

        // The free parcel 55 (950 m²) and 1021/1 of Acker Ost (12,500 m²): 13,450 m², shown as 1,35 ha.
        await page.getByTestId(`field-parcel-${await parcelId('55')}`).check();
        await page.getByTestId(`field-parcel-${await parcelId('1021/1')}`).check();
        await expect.poll(() => page.getByTestId('field-parcel-sum').textContent()).toContain('1,35 ha');
        await page.getByTestId('field-save').click();

        const row = page.getByTestId('fields-table').locator('tr', { hasText: 'Acker Süd' });
        await expect.poll(() => row.textContent()).toContain('1,35 ha');
        // Acker Ost lost 1021/1: 8.300 m² are left.
        const east = page.getByTestId('fields-table').locator('tr', { hasText: 'Acker Ost' });
        await expect.poll(() => east.textContent()).toContain('8.300 m²');

        await page.goto('/farming/task');
        await page.getByTestId('task-title').fill('Beregnung Acker Süd');
        await page.getByTestId('task-type').selectOption('irrigation');
        await page.getByTestId('task-add').click();
        await page.getByTestId('task-view-upcoming').click();
        await expect
          .poll(() => page.getByTestId('tasks-table').textContent())
          .toContain('Beregnung Acker Süd');
      } catch (error) {
        await keepScreenshot(page, 'farming');
        throw error;
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
