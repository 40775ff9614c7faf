import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { newId } from '../../api/src/db/ids.js';
import { testDb } from '../../api/test/factories.js';
import { demoPassword, expectNoSidewaysScroll, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

type Scorecard = components['schemas']['MarketPrivacyScorecard'];

const SUPPORT = 'support@paybench.test';
const ANALYST = 'analyst@acme.test';
const FAILED_BECAUSE = 'differencing: 1 of 28 targets recovered within 5%';

/**
 * Two drafts written as a build records them (after the served demo release): the first took two
 * participants, the second one of them and a newcomer, and its scorecard fails. Both are removed
 * again; the served release is not touched.
 */
describe('market releases and their privacy checks, in a real browser', () => {
  let browser: Browser;
  let served: { id: string; version: string; scorecard: Scorecard };
  const drafts = { first: newId(), second: newId() };

  beforeAll(async () => {
    const db = await testDb();
    const row = await db('market_releases').where({ status: 'published' }).orderBy('published_at', 'desc').first<{ id: string; version: string; privacy_scorecard: string; built_at: string | Date }>();
    served = { id: row.id, version: row.version, scorecard: JSON.parse(row.privacy_scorecard) as Scorecard };
    const failing: Scorecard = {
      ...served.scorecard,
      passed: false,
      reason: FAILED_BECAUSE,
      attacks: served.scorecard.attacks.map((attack) => (attack.attack === 'differencing' ? { ...attack, recovered: 1, closest: 0.012 } : attack)),
    };
    const base = { pinned: false, source_kind: 'demo', source_seed: 11, source_records: 4000, record_count: 4030, company_count: 22, contributed_companies: 2, contributed_records: 30, published_at: null };
    const later = (seconds: number) => new Date(Math.max(Date.now(), new Date(row.built_at).getTime()) + seconds * 1000).toISOString();
    await db('market_releases').insert([
      { ...base, id: drafts.first, version: 'browser-draft.1', status: 'draft', built_at: later(1), privacy_scorecard: JSON.stringify(served.scorecard) },
      { ...base, id: drafts.second, version: 'browser-draft.2', status: 'draft', built_at: later(2), privacy_scorecard: JSON.stringify(failing) },
    ]);
    await db('market_release_participants').insert([
      { release_id: drafts.first, company_id: newId(), company_name: 'Leaving Ltd' },
      { release_id: drafts.first, company_id: 'staying-co', company_name: 'Staying Co' },
      { release_id: drafts.second, company_id: 'staying-co', company_name: 'Staying Co' },
      { release_id: drafts.second, company_id: newId(), company_name: 'Newcomer GmbH' },
    ]);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await (await testDb())('market_releases').whereIn('id', [drafts.first, drafts.second]).delete();
    await browser?.close();
  });

  async function atBothWidths(page: Page, name: string): Promise<void> {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoSidewaysScroll(page, width);
      expect(await seriousViolations(page), `${name} at ${width}`).toEqual([]);
    }
    await screenshotsAtBothWidths(page, `${name}-${inject('engine')}`);
  }

  it("support reads a release's scorecard and build report; a failing one cannot be published, and says why", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, inject('baseUrl'), SUPPORT, demoPassword(inject('serverEnv')));
    await page.getByRole('link', { name: 'Internal' }).click();
    await page.getByRole('link', { name: 'Market releases' }).click();
    await page.getByRole('heading', { name: 'Market releases', level: 1 }).waitFor();
    const list = page.getByRole('table', { name: 'Market data releases (newest first)' });
    const failingRow = list.getByRole('row', { name: /browser-draft\.2/ });
    await failingRow.waitFor();
    expect(await failingRow.getByText('Privacy checks failed').count()).toBe(1);
    expect(await list.getByRole('row', { name: new RegExp(served.version.replace('.', '\\.')) }).getByText('Privacy checks passed').count()).toBe(1);
    await atBothWidths(page, 'market-releases');

    await page.getByRole('link', { name: 'browser-draft.2' }).click();
    await page.getByRole('heading', { name: 'Release browser-draft.2', level: 1 }).waitFor();
    const publish = page.getByRole('button', { name: 'Publish release browser-draft.2' });
    await page.getByTestId('participant-summary').waitFor();
    expect(await publish.isDisabled()).toBe(true);
    expect(await page.getByRole('note').textContent()).toBe(`Publishing is not possible. It fails its privacy scorecard: ${FAILED_BECAUSE}.`);
    expect(await page.getByTestId('scorecard-verdict').textContent()).toContain(`Failed: ${FAILED_BECAUSE}. The release cannot be published.`);

    // Every attack of the stored scorecard, with its figures as stored.
    const attacks = page.getByRole('table', { name: 'Attacks run against the release' });
    for (const attack of served.scorecard.attacks) {
      const row = attacks.locator(`[data-attack="${attack.attack}"]`);
      const cells = (await row.locator('td').allTextContents()).map((text) => text.trim());
      const recovered = attack.attack === 'differencing' ? 1 : attack.recovered;
      expect(cells.slice(0, 3), attack.attack).toEqual([attack.targets, attack.controlRecovered, recovered].map((n) => n.toLocaleString('en-US')));
      if (attack.attack === 'differencing') expect(cells[3]).toBe('1.2% off');
      if (attack.attack === 'differencing') expect(cells[4]).toBe(`Fails: 1 of ${attack.targets} recovered within 5%`);
      else if (attack.gating) expect(cells[4], attack.attack).toBe('Passes: no target recovered within 5%');
    }
    const utility = await page.getByTestId('scorecard-utility').textContent();
    const percent = (share: number) => `${(share * 100).toFixed(share < 0.01 ? 2 : 1).replace(/\.?0+$/, '')}%`;
    expect(utility).toContain(`Median relative move${percent(served.scorecard.utility.medianRelativeMove)}`);
    expect(utility).toContain(`90th percentile relative move${percent(served.scorecard.utility.p90RelativeMove)}`);
    expect(utility).toContain(`Cells withheld${percent(served.scorecard.utility.cellsWithheldShare)} of ${served.scorecard.utility.cells.toLocaleString('en-US')}`);

    // The build report: against the draft built before it.
    expect(await page.getByTestId('participant-summary').textContent()).toBe('2 customer participants; 1 new and 1 removed since the release built before it.');
    expect(await page.getByRole('list', { name: 'New participants' }).textContent()).toBe('Newcomer GmbH');
    expect(await page.getByRole('list', { name: 'Removed participants' }).textContent()).toBe('Leaving Ltd');
    await atBothWidths(page, 'market-release-failing');

    // A passing draft can be published (the button is there and enabled; publishing it is the API's tests' business).
    await page.goto(`${inject('baseUrl')}/internal/market-releases/${drafts.first}`);
    await page.getByRole('heading', { name: 'Release browser-draft.1', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'Publish release browser-draft.1' }).isDisabled()).toBe(false);
    expect(await page.getByTestId('scorecard-verdict').textContent()).toContain('Passed: no gating attack recovered any target within 5%');
    await context.close();
  });

  it('a member reads the served release’s privacy checks in data composition, with nothing per cell', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, inject('baseUrl'), ANALYST, demoPassword(inject('serverEnv')));
    await page.goto(`${inject('baseUrl')}/datacomposition/companies`);
    const summary = page.getByTestId('composition-privacy');
    await summary.waitFor();
    const text = (await summary.textContent()) ?? '';
    expect(text).toContain(`Release ${served.version} was checked on`);
    expect(text).toContain('Every attack the checks run recovered none of its targets within 5%');
    const gating = served.scorecard.attacks.filter((attack) => attack.gating);
    expect(await summary.getByRole('listitem').count()).toBe(gating.length);
    for (const attack of gating) expect(text).toContain(`0 of ${attack.targets} targets recovered within 5%`);
    // The utility, to the precision the summary gives: the API rounds to three significant figures and
    // the page shows one decimal of a percent, so a shown share is within 0.055 points of the exact one.
    const moves = /move by ([\d.]+)% at the median and ([\d.]+)% at the 90th percentile, and ([\d.]+)% of the cells measured are withheld/.exec(text);
    expect(moves, text).not.toBeNull();
    const [median, p90, withheld] = moves!.slice(1).map((value) => Number(value) / 100);
    const { medianRelativeMove, p90RelativeMove, cellsWithheldShare } = served.scorecard.utility;
    expect(Math.abs(median! - medianRelativeMove)).toBeLessThanOrEqual(0.00055);
    expect(Math.abs(p90! - p90RelativeMove)).toBeLessThanOrEqual(0.00055);
    expect(Math.abs(withheld! - cellsWithheldShare)).toBeLessThanOrEqual(0.00055);
    expect(text).not.toMatch(/control|closest|colluder|[0-9a-f]{32}/i);
    await atBothWidths(page, 'composition-privacy');
    await context.close();
  });
});
