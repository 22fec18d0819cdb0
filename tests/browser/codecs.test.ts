/**
 * The codec editor (issue 23) in Chromium against the whole embedded platform: the demo's customer codec
 * decodes bytes and encodes a command in the side-by-side test panel, the same bytes decode the same way
 * twice (the codec's top-level read pointer starts afresh), and a broken source is marked at its line.
 */
import type { Browser, Page } from 'playwright-core';
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

async function openDemoCodec(page: Page) {
  await page.goto('/codecs');
  await page.getByTestId('codecs-list').getByText('Milesight EM320-TH').click();
  await page.getByTestId('codec-source').locator('.cm-content').waitFor();
}

describe('codec editor', () => {
  it(
    'decodes and encodes with the demo codec in the test panel, and marks a broken line',
    async () => {
      const { context, page } = await signedIn(browser, platform.url, 'main@demo.test');
      try {
        await openDemoCodec(page);
        await expect(page.getByTestId('codec-functions').textContent()).resolves.toContain(
          'decodeUplink, encodeDownlink',
        );
        const decode = page.getByTestId('codec-test-decodeUplink');
        await decode.getByTestId('codec-test-bytes').fill('01 75 5C 03 67 34 01 04 68 65');
        await decode.getByTestId('codec-test-fport').fill('85');
        for (let i = 0; i < 2; i++) {
          await decode.getByTestId('codec-test-run').click();
          const data = decode.getByTestId('codec-test-data');
          await data.waitFor();
          expect(JSON.parse((await data.textContent()) ?? '')).toEqual({
            battery: 92,
            temperature: 30.8,
            humidity: 50.5,
          });
        }

        const encode = page.getByTestId('codec-test-encodeDownlink');
        await encode.getByTestId('codec-test-input').fill('{"data": {"interval_minutes": 10}}');
        await encode.getByTestId('codec-test-run').click();
        await expect(encode.getByTestId('codec-test-bytes-out').textContent()).resolves.toMatch(
          // The demo main user reads German.
          /^Bytes FF 03 58 02 (on|auf) fPort 85$/,
        );

        // A source that does not parse: the error names line 3 and the editor marks it.
        await page.getByTestId('codec-source').locator('.cm-content').click();
        await page.keyboard.press('Control+A');
        await page.keyboard.insertText(
          'function decodeUplink(input) {\n  var x = 1;\n  return { data: x + };\n}\n',
        );
        await decode.getByTestId('codec-test-run').click();
        await decode.getByTestId('codec-test-errors').waitFor();
        await expect(decode.getByTestId('codec-test-errors').textContent()).resolves.toMatch(
          /^(Line|Zeile) 3: .*SyntaxError/,
        );
        await expect(page.getByTestId('codec-source').getAttribute('data-error-line')).resolves.toBe('3');
        await page.getByTestId('codec-source').locator('.cm-lintRange-error').first().waitFor();
      } catch (error) {
        await keepScreenshot(page, 'codec-editor');
        throw error;
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
