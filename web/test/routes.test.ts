import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiTokenOf, demoPassword, launchChromium, screenshot, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

const ADMIN = 'admin@acme.test';

/** Every route of the spec's §2 but the team view's (its own tests cover it) and /logout (last, it ends the session). */
const ROUTES = [
  '/',
  '/login',
  '/signup',
  '/create-account',
  '/create-company',
  '/auth0/callback',
  '/auth0/idp-initiated-callback',
  '/auth/sso',
  '/acknowledge-terms-of-use',
  '/unverified',
  '/no-access',
  '/select-offer',
  '/onboarding',
  '/onboarding/company',
  '/onboarding/user',
  '/home',
  '/integrations',
  '/internal',
  '/paybench-data-lab',
  '/offers',
  '/bands',
  '/compensationplanning',
  '/totalrewards',
  '/totalrewards/statement',
  '/benchmarkingsurvey',
  '/benchmarkingsurvey/data-explorer',
  '/benchmarkingsurvey/data-explorer/search',
  '/benchmarkingsurvey/data-explorer/results',
  '/benchmarkingsurvey/data-explorer/export',
  '/benchmarkingsurvey/compare',
  '/benchmarkingsurvey/level-your-employees',
  '/benchmarkingsurvey/location-insights',
  '/benchmarkingsurvey/equity-practices',
  '/benchmarkingsurvey/premium',
  '/benchmarking-no-access',
  '/benchmarking-demo',
  '/benchmarking-demo/location-differentials',
  '/benchmarking-demo/equity-practices',
  '/benchmarking-demo/participants-list',
  '/benchmarking-demo/job-catalog',
  '/bulk-download-employee-comp/:downloadId',
  '/compensation-report-download/:downloadId',
  '/downloads/:downloadId',
  '/market-data-reports',
  '/shares/:sliceId',
  '/shares/executive/:executiveSliceId',
  '/datacomposition',
  '/datacomposition/companies',
  '/datacomposition/jobfamilies',
  '/datacomposition/locations',
  '/datacomposition/marketingversion',
  '/settings',
  '/settings/company-info',
  '/settings/connections',
  '/settings/users',
  '/settings/roles',
  '/settings/integrations',
  '/settings/notifications',
  '/settings/workflows',
  '/settings/communicate',
  '/settings/communicate/benefits',
  '/settings/communicate/benefits/benefits',
  '/settings/communicate/benefits/user-groups',
  '/settings/communicate/about-us',
  '/settings/communicate/appearance',
  '/settings/communicate/overview',
  '/settings/communicate/timeline',
  '/settings/communicate/compensation',
  '/settings/communicate/salary',
  '/settings/communicate/equity',
  '/settings/communicate/bonus',
  '/settings/communicate/variable-pay',
  '/settings/communicate/future-grants',
  '/settings/communicate/future-modeling',
  '/settings/communicate/future-modeling/comp-simulator',
  '/settings/communicate/learning-hub',
];

/** The main new screens, checked with axe and photographed at both widths. */
const MAIN_SCREENS = [
  '/settings',
  '/settings/company-info',
  '/settings/notifications',
  '/onboarding',
  '/datacomposition/companies',
  '/benchmarking-demo/job-catalog',
  '/benchmarking-demo/location-differentials',
  '/benchmarkingsurvey/location-insights',
  '/benchmarkingsurvey/equity-practices',
  '/benchmarkingsurvey/compare',
  '/market-data-reports',
  '/shares/:sliceId',
  '/integrations',
];

const adminToken = () => apiTokenOf(ADMIN);

/*
 * Identifiers in what a person reads: snake_case (`in_review`, `location_id`), camelCase
 * (`dataLabNightlyInsights`) and a key's "… id" label ("Location id"). Code, keyboard keys and
 * e-mail addresses and links are left out: they are meant to be typed or copied as they are.
 */
const SNAKE = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;
const CAMEL = /\b[a-z]+(?:[A-Z][a-z0-9]+)+\b/g;
const KEY_LABEL = /\b[A-Z][a-z]+ id\b/g;
/** The only identifiers a person may see, each with why. */
const ALLOWED_IDENTIFIERS = new Set<string>([]);

/** The identifiers in the page's visible text (not in code, kbd or pre, not in e-mail addresses or URLs). */
async function identifiersShown(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => {
    let shown = document.body.innerText;
    for (const element of document.querySelectorAll<HTMLElement>('code, kbd, pre')) if (element.innerText) shown = shown.replace(element.innerText, ' ');
    return shown;
  });
  const words = text.replace(/\S+@\S+/g, ' ').replace(/\b(?:https?:\/\/|www\.)\S+/g, ' ');
  const found = [...words.matchAll(SNAKE), ...words.matchAll(CAMEL), ...words.matchAll(KEY_LABEL)].map((match) => match[0]);
  return [...new Set(found)].filter((word) => !ALLOWED_IDENTIFIERS.has(word));
}

async function call<T>(path: string, token: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const reply = await fetch(`${inject('baseUrl')}${path}`, {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${token}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  expect(reply.status, `${init.method ?? 'GET'} ${path}`).toBeLessThan(300);
  return ((await reply.json()) as { data: T }).data;
}

/** Waits until the route has drawn something: a heading, with no spinner left. */
async function settled(page: Page): Promise<string> {
  await page.locator('h1').first().waitFor({ timeout: 30_000 });
  await expect.poll(() => page.locator('[role="status"] .spinner-arc').count(), { timeout: 30_000 }).toBe(0);
  return (await page.locator('h1').first().textContent()) ?? '';
}

describe('every route of the PWA', () => {
  let browser: Browser;
  let ids: Record<string, string>;
  const base = () => inject('baseUrl');
  const engine = inject('engine');

  beforeAll(async () => {
    browser = await launchChromium();
    // Real ids for the routes that take one: a download, a shared slice and an executive one.
    const token = await adminToken();
    const job = await call<{ id: string }>('/api/users/exports', token, { method: 'POST' });
    let downloadId: string | null = null;
    for (let attempt = 0; attempt < 60 && !downloadId; attempt += 1) {
      downloadId = (await call<{ downloadId: string | null }>(`/api/background-jobs/${job.id}`, token)).downloadId;
      if (!downloadId) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const filters = await call<{ industriesAndSubIndustriesWithIds: { upstreamId: string }[]; companyStagesWithIds: { id: string }[]; companyOwnershipGroupsWithIds: { id: string }[] }>(
      '/api/benchmarking/filters',
      token,
    );
    const slice = await call<{ id: string }>('/api/benchmarking/shares', token, {
      method: 'POST',
      body: {
        title: 'Engineering pay for the board',
        request: {
          compensationTypes: ['base'],
          jobFamilies: ['software_engineering'],
          levels: [{ type: 'level', id: 'p3' }],
          marketFilters: [
            {
              locations: ['840'],
              industries: filters.industriesAndSubIndustriesWithIds.map((industry) => industry.upstreamId),
              companyStages: filters.companyStagesWithIds.map((stage) => stage.id),
              companyOwnershipGroups: filters.companyOwnershipGroupsWithIds.map((group) => group.id),
            },
          ],
        },
      },
    });
    const executive = await call<{ id: string }>('/api/benchmarking/shares/executive', token, {
      method: 'POST',
      body: { title: 'CEO pay', request: { founderTypes: ['non_founder'], jobTitles: ['ceo'], marketFilters: [{ industries: ['ind_technology'] }] } },
    });
    ids = { downloadId: downloadId ?? 'missing', sliceId: slice.id, executiveSliceId: executive.id };
  });
  afterAll(() => browser?.close());

  const withIds = (route: string) => route.replace(/:(\w+)/g, (_, name: string) => ids[name] ?? name);

  it('renders every spec route as something other than the not-found screen, at 375 px without sideways scrolling', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), ADMIN, demoPassword(inject('serverEnv')));
    const problems: string[] = [];
    for (const route of ROUTES) {
      await page.goto(`${base()}${withIds(route)}`);
      const heading = await settled(page);
      const notFound = await page.getByText('The content could not be found.').count();
      if (heading === 'Not found' || notFound > 0) problems.push(`${route}: the not-found screen`);
      if (heading.trim() === '') problems.push(`${route}: an empty heading`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 375) problems.push(`${route}: ${width} px wide at 375`);
    }
    expect(problems).toEqual([]);

    // Every built module is on in the demo: salary bands open at their own address; the shared slice shows its table.
    await page.goto(`${base()}/bands`);
    await page.getByRole('heading', { name: 'Salary bands', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/bands');
    await page.goto(`${base()}${withIds('/shares/:sliceId')}`);
    await page.getByRole('heading', { name: 'Engineering pay for the board' }).waitFor();
    expect(await page.locator('tr[data-row^="software_engineering|p3|base|0|"] td[data-percentile="50"]').count()).toBe(1);
    await page.goto(`${base()}${withIds('/shares/executive/:executiveSliceId')}`);
    await page.getByRole('heading', { name: 'CEO pay' }).waitFor();

    // The route not in the spec is the not-found screen, so the check above can fail.
    await page.goto(`${base()}/benchmarkingsurvey/no-such-screen`);
    expect(await settled(page)).toBe('Not found');
    await context.close();
  }, 300_000);

  it('shows words, not identifiers, on every route, as an admin with the demo data', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), ADMIN, demoPassword(inject('serverEnv')));
    const token = await adminToken();
    const cycles = await call<{ id: string }[]>('/api/v2/meritCycles', token);
    // The spec's routes, and the screens under them that hold the workflow's words: a cycle's sections and its approvals.
    const extra = ['/compensationplanning/approvals', '/offers/approvals', ...cycles.slice(0, 2).flatMap((cycle) => ['', '/settings', '/recommendations', '/approvals', '/worksheets'].map((section) => `/compensationplanning/cycles/${cycle.id}${section}`))];
    const found: string[] = [];
    for (const route of [...ROUTES, ...extra]) {
      await page.goto(`${base()}${withIds(route)}`);
      await settled(page);
      await page.waitForLoadState('networkidle');
      for (const word of await identifiersShown(page)) found.push(`${route}: ${word}`);
    }
    expect(found).toEqual([]);
    await context.close();
  }, 600_000);

  it('keeps the main new screens free of serious accessibility problems, photographed at 375 and 1280 px', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), ADMIN, demoPassword(inject('serverEnv')));
    const found: string[] = [];
    for (const route of MAIN_SCREENS) {
      await page.goto(`${base()}${withIds(route)}`);
      await settled(page);
      await page.waitForLoadState('networkidle');
      found.push(...(await seriousViolations(page)).map((violation) => `${route}: ${violation}`));
      await screenshotsAtBothWidths(page, `route${route.replace(/[/:]+/g, '-')}-${engine}`);
    }
    expect(found).toEqual([]);
    await context.close();
  }, 600_000);

  it('keeps the integration and cap-table modals in the URL, so back and forward close and reopen them', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), ADMIN, demoPassword(inject('serverEnv')));
    await page.goto(`${base()}/integrations`);
    const capTable = page.getByRole('button', { name: 'Connect Cap table' });
    await capTable.focus();
    await page.keyboard.press(' ');
    const integration = page.getByRole('dialog', { name: 'Connect Cap table' });
    await integration.waitFor();
    expect(new URL(page.url()).searchParams.get('integration')).toBe('cap_table');
    await integration.getByRole('button', { name: 'Choose the cap table' }).click();
    const selection = page.getByRole('dialog', { name: 'Choose the cap table' });
    await selection.waitFor();
    expect(new URL(page.url()).searchParams.get('capTableSelection')).toBe('open');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `cap-table-modal-${engine}-375`);

    await page.goBack();
    await integration.waitFor();
    expect(await selection.count()).toBe(0);
    await page.goBack();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(new URL(page.url()).search).toBe('');
    await page.goForward();
    await integration.waitFor();
    await page.goForward();
    await selection.waitFor();
    // Escape closes through the URL too, and a reload keeps what the URL says.
    await page.keyboard.press('Escape');
    await integration.waitFor();
    await page.reload();
    await integration.waitFor();
    await context.close();
  }, 120_000);
});
