import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser.js';

describe('the first page over the wire', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('comes compressed: every script of the first load is brotli, under the 170 KB budget', async () => {
    const page = await browser.newPage();
    const scripts: { url: string; encoding: string | undefined; vary: string | undefined; bytes: number }[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      void Promise.all([request.response(), request.sizes()]).then(async ([response, sizes]) => {
        const headers = (await response?.allHeaders()) ?? {};
        scripts.push({ url: request.url(), encoding: headers['content-encoding'], vary: headers.vary, bytes: sizes.responseBodySize });
      });
    });
    await page.goto(`${inject('baseUrl')}/login`, { waitUntil: 'networkidle' });
    await expect.poll(() => scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script.encoding, script.url).toBe('br');
      expect(script.vary, script.url).toContain('Accept-Encoding');
    }
    // What went over the wire: the compressed bodies, far below the uncompressed entry (~250 KB alone).
    const kb = scripts.reduce((sum, script) => sum + script.bytes, 0) / 1024;
    expect(kb).toBeGreaterThan(10);
    expect(kb).toBeLessThan(170);
    await page.close();
  });
});
