import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { testDb } from '../../api/test/factories.js';
import { apiTokenOf, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

type CompanySettings = components['schemas']['CompanySettings'];

const CONFLICT = 'Someone else changed these settings first. Reload and try again.';

describe('company settings, saved at the version read', () => {
  let browser: Browser;
  let person: Awaited<ReturnType<typeof createAdmin>>;
  let token: string;
  const base = () => inject('baseUrl');

  /** The company's settings as the API has them now. */
  async function settingsNow(): Promise<CompanySettings> {
    const reply = await fetch(`${base()}/api/company/settings`, { headers: { Authorization: `Bearer ${token}` } });
    expect(reply.status).toBe(200);
    return ((await reply.json()) as { data: CompanySettings }).data;
  }

  beforeAll(async () => {
    // A company of its own: other tests on this server read the demo company's settings.
    person = await createAdmin(await testDb());
    token = await apiTokenOf(person.email);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('keeps what the person typed when someone else saved first, says so in the server’s words, and saves once reloaded', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.goto(`${base()}/settings/company-info`);
    const sharePrice = page.getByLabel(/^Share price/);
    const strikePrice = page.getByLabel(/^Strike price/);
    await sharePrice.waitFor({ timeout: 30_000 });
    const read = await settingsNow();

    // Someone else changes the strike price while the page is open.
    const other = await fetch(`${base()}/api/company/settings`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'If-Match': `"${read.version}"` },
      body: JSON.stringify({ exercisePrice: 0.5 }),
    });
    expect(other.status).toBe(200);

    // The person's save names the version they read: refused, nothing overwritten, their input kept.
    await sharePrice.fill('12.5');
    const refused = page.waitForResponse((response) => response.url().endsWith('/api/company/settings') && response.request().method() === 'PATCH');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const answer = await refused;
    expect(answer.request().headers()['if-match']).toBe(`"${read.version}"`);
    expect(answer.status()).toBe(409);
    expect(((await answer.json()) as { code: string }).code).toBe('version_conflict');
    await page.getByRole('alert').filter({ hasText: CONFLICT }).waitFor();
    expect(await sharePrice.inputValue()).toBe('12.5');
    expect(await strikePrice.inputValue()).toBe(read.exercisePrice === null ? '' : String(read.exercisePrice));
    expect(await settingsNow()).toMatchObject({ sharePrice: read.sharePrice, exercisePrice: 0.5, version: read.version + 1 });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `company-info-conflict-${inject('engine')}`);

    // Reloaded: the other change shows, and the save goes through at the version read now.
    await page.reload();
    await expect.poll(() => strikePrice.inputValue(), { timeout: 30_000 }).toBe('0.5');
    await sharePrice.fill('12.5');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Company settings saved.').waitFor();
    expect(await settingsNow()).toMatchObject({ sharePrice: 12.5, exercisePrice: 0.5, version: read.version + 2 });
    await context.close();
  }, 120_000);
});
