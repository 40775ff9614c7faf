import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { launchChromium, screenshot } from './browser.js';

describe('the web page, in a real browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  for (const width of [375, 1280]) {
    it(`shows the server's status through the generated client at ${width} px`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      await page.goto(inject('baseUrl'));
      await expect.poll(() => page.getByTestId('health-status').textContent()).toBe('ok');
      expect(await page.getByTestId('health-database').textContent()).toBe(inject('engine'));
      expect(await page.getByTestId('health-migrations').textContent()).toBe('up to date');
      expect(await page.title()).toBe('Paybench');
      await screenshot(page, `home-${inject('engine')}-${width}`);
      expect(consoleErrors).toEqual([]);
      await page.close();
    });
  }
});
