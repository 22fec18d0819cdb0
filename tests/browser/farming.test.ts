/**
 * Farming in Chromium as the demo main user (Demo Agrar GmbH): a field drawn on the map gets its area
 * live, takes a free parcel and one from another field with the running sum shown, and lands in the table
 * with the parcels' sum as its size; a task planned in the planner shows in the upcoming view. A rule made
 * in the rule editor plans a task when its soil sensor reports dry soil. The fields map is coloured by the
 * current pF class, the field list shows the last reading, the view drawer the field; parcels and own
 * soils are edited in place; the task drawer changes the assignee and shows the history; the progress
 * page charts the season's soil moisture.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT_MS, keepScreenshot, launchBrowser, signedIn } from '../support/browser.js';
import { issueDeviceToken, uplinkPoster } from '../support/cold-room.js';
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

/** What the fields map hands to the page for tests: its polygons with the class each is coloured by. */
type PolygonWindow = Window & {
  __IOT_FIELD_POLYGONS__?: Record<string, Array<{ id: string | number; moistureClass?: string }>>;
};

async function demoDevice(name: string) {
  const { rows } = await platform.db.query<{ id: number; uuid: string; company_id: number }>(
    'SELECT id::int AS id, uuid::text AS uuid, company_id::int AS company_id FROM devices WHERE name = $1',
    [name],
  );
  const device = rows[0]!;
  return {
    device,
    post: uplinkPoster(platform.ingestUrl, device, await issueDeviceToken(platform.db, device.id)),
  };
}

async function fieldIdOf(name: string): Promise<number> {
  const { rows } = await platform.db.query<{ id: number }>(
    'SELECT id::int AS id FROM farming_fields WHERE name = $1',
    [name],
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

  it(
    'a rule made in the rule editor plans a task when its soil sensor reports dry soil',
    async () => {
      const { context, page } = await signedIn(browser, platform.url, 'main@demo.test');
      try {
        const { device, post } = await demoDevice('Boden Weinberg');
        await page.goto('/devices');
        await page.getByTestId(`device-row-${device.id}`).click();
        await page.getByTestId('device-drawer').getByTestId('device-action-rules').click();
        const rules = page.getByTestId('device-rules-drawer');
        await rules.getByTestId('rule-add').click();
        const form = rules.getByTestId('rule-form');
        await form.getByTestId('rule-name').fill('Weinberg zu trocken');
        await form.getByTestId('rule-data_field').selectOption('soil_humidity');
        await form.getByTestId('rule-operator').selectOption('lte');
        await form.getByTestId('rule-value').fill('15');
        // A new rule starts without an action (issue #30).
        await form.getByTestId('rule-add-action').click();
        await form.getByTestId('rule-action-0-channel').selectOption('farming_task');
        await form.getByTestId('rule-action-0-title').fill('Beregnen: {device} meldet {value} %');
        await form.getByTestId('rule-action-0-task_type').selectOption('irrigation');
        await form.getByTestId('rule-submit').click();
        await expect.poll(() => rules.getByTestId('rule-form').count()).toBe(0);
        const { rows: saved } = await platform.db.query<{ type: string; settings: Record<string, unknown> }>(
          `SELECT a.type, a.settings FROM rule_actions a JOIN rules r ON r.id = a.rule_id
            WHERE r.name = 'Weinberg zu trocken'`,
        );
        expect(saved).toEqual([
          {
            type: 'farming_task',
            settings: expect.objectContaining({ task_type: 'irrigation', due_in_hours: 24 }),
          },
        ]);

        expect(await post({ soil_humidity: 9 })).toBe(202);
        await page.goto('/farming/task');
        await page.getByTestId('task-view-upcoming').click();
        const table = page.getByTestId('tasks-table');
        await expect
          .poll(() => table.textContent(), { timeout: 30_000 })
          .toContain('Beregnen: Boden Weinberg meldet 9 %');
        const row = table.locator('tr', { hasText: 'Beregnen: Boden Weinberg meldet 9 %' });
        const taskId = (await row.getAttribute('data-testid'))!.replace('task-row-', '');
        // The task is on the field the sensor stands on.
        expect(await page.getByTestId(`task-fields-${taskId}`).textContent()).toBe('Weinberg');
        await page.getByTestId(`task-open-${taskId}`).click();
        const history = page.getByTestId('task-history');
        await expect.poll(() => history.textContent()).toContain('Weinberg zu trocken');
      } catch (error) {
        await keepScreenshot(page, 'farming-rule-task');
        throw error;
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'colours the map by pF class, shows the last reading and the field view',
    async () => {
      const { context, page } = await signedIn(browser, platform.url, 'main@demo.test');
      try {
        const orchard = await fieldIdOf('Obstwiese');
        const { post } = await demoDevice('Boden Obstwiese');
        expect(await post({ soil_water_pf1: 4.2, soil_humidity: 14 })).toBe(202);
        await page.goto('/farming/fields');
        await page.getByTestId('fields-table').waitFor();
        // pF 4.2 is class pf4 ("trocken"): the Obstwiese is drawn in its colour.
        await expect
          .poll(
            () =>
              page.evaluate(
                (id) =>
                  (window as PolygonWindow).__IOT_FIELD_POLYGONS__?.['fields-map']?.find((p) =>
                    String(p.id).startsWith(`${id}-`),
                  )?.moistureClass,
                orchard,
              ),
            { timeout: 30_000 },
          )
          .toBe('pf4');
        expect(await page.getByTestId(`field-last-reading-${orchard}`).textContent()).toContain('pF 4,2');
        await page.getByTestId(`field-view-${orchard}`).click();
        const view = page.getByTestId('field-view');
        await expect.poll(() => view.getByTestId('field-view-moisture').textContent()).toContain('pF 4,2');
        expect(await view.getByTestId('field-view-parcels').textContent()).toContain('1302/4');
      } catch (error) {
        await keepScreenshot(page, 'farming-console');
        throw error;
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'edits a parcel in place and adds and renames an own soil',
    async () => {
      const { context, page } = await signedIn(browser, platform.url, 'main@demo.test');
      try {
        await page.goto('/farming/fields');
        await page.getByTestId('parcels-table').waitFor();
        // Parcel 55 grows from 950 to 1,000 m².
        const parcel55 = await parcelId('55');
        await page.getByTestId(`parcel-edit-${parcel55}`).click();
        await page.getByTestId('parcel-edit-size').fill('1000');
        await page.getByTestId('parcel-edit-save').click();
        await expect.poll(() => page.getByTestId(`parcel-size-${parcel55}`).textContent()).toBe('1.000 m²');

        // An own soil is added, then renamed.
        await page.getByTestId('catalogue-soils-code').fill('Lö');
        await page.getByTestId('catalogue-soils-name-de').fill('Löss');
        await page.getByTestId('catalogue-soils-name-en').fill('Loess');
        await page.getByTestId('catalogue-soils-add').click();
        await page.getByTestId('catalogue-soils-edit-Lö').click();
        await page.getByTestId('catalogue-soils-edit-de').fill('Lösslehm');
        await page.getByTestId('catalogue-soils-save').click();
        await expect
          .poll(() => page.getByTestId('catalogue-soils-row-Lö').textContent())
          .toContain('Lösslehm');
      } catch (error) {
        await keepScreenshot(page, 'farming-edits');
        throw error;
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'changes a task’s assignee in its drawer with the history, and charts the season',
    async () => {
      const { context, page } = await signedIn(browser, platform.url, 'main@demo.test');
      try {
        // The demo task on two fields gets an assignee; the history says who changed what.
        await page.goto('/farming/task');
        await page.getByTestId('task-view-overdue').click();
        const row = page
          .getByTestId('tasks-table')
          .locator('tr', { hasText: 'Bodenprobe Acker Ost und Weinberg' });
        await expect.poll(() => row.count()).toBe(1);
        const taskId = (await row.getAttribute('data-testid'))!.replace('task-row-', '');
        expect(await page.getByTestId(`task-fields-${taskId}`).textContent()).toBe('Acker Ost, Weinberg');
        await page.getByTestId(`task-open-${taskId}`).click();
        const assignee = page.getByTestId('task-edit-assignee');
        await expect.poll(() => assignee.locator('option').count()).toBeGreaterThan(1);
        // Another user than the demo's assignee (the first user of the company).
        const before = (await assignee.locator('option:checked').textContent())!;
        const options = await assignee.locator('option').allTextContents();
        const chosen = options.find((o, i) => i > 0 && o !== before)!;
        await assignee.selectOption({ label: chosen });
        await page.getByTestId('task-edit-save').click();
        await page.getByTestId(`task-open-${taskId}`).click();
        await expect
          .poll(() => page.getByTestId('task-history').textContent())
          .toContain(`Zuständig: ${before} → ${chosen}`);
        // Only what changed is in the history: the untouched due date is not.
        expect(await page.getByTestId('task-history').textContent()).not.toContain('Fällig');
        expect(await page.getByTestId(`task-assignee-${taskId}`).textContent()).toBe(chosen);

        // The season's soil moisture of the Obstwiese (its sensor reported in the test above) as a chart.
        const orchard = await fieldIdOf('Obstwiese');
        await page.goto('/farming/progress');
        await page.getByTestId('progress-chart-field').selectOption(String(orchard));
        await expect
          .poll(() => page.getByTestId('progress-chart-moisture').count(), { timeout: 30_000 })
          .toBe(1);
        await keepScreenshot(page, 'farming-progress');
      } catch (error) {
        await keepScreenshot(page, 'farming-tasks');
        throw error;
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
