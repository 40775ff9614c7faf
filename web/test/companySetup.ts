import type { Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { type TestUser, bearer, createTestUser } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { signInThroughProvider } from './browser.js';

/** Release flags of a company switched on by an internal admin of it, each checked to be taken (on the shared test server, or `options.base`). */
export async function switchOn(db: Knex, companyId: string, flags: string[], options: { base?: string } = {}): Promise<void> {
  const support = await createTestUser(db, { companyId, internalAdmin: true });
  for (const flag of flags) {
    const reply = await request(`/api/internal/companies/${companyId}/release-flags/${flag}`, { method: 'PUT', headers: bearer(support), json: { enabled: true }, ...options });
    expect(reply.status, flag).toBe(200);
  }
}

/** A browser window of its own, signed in as the person, on the shared test server. */
export async function signedIn(
  browser: Browser,
  user: { email: string },
  password: string,
  width = 1280,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce', locale: 'en-US', acceptDownloads: true });
  const page = await context.newPage();
  // A loaded two-core machine can be slow to answer; nothing here is a timing assertion.
  page.setDefaultTimeout(60_000);
  await signInThroughProvider(page, inject('baseUrl'), user.email, password);
  return { context, page };
}

/**
 * The company's band set "Engineering bands" with its one band, software engineering P3, set by hand
 * to `band` (whole dollars): built at the 50th percentile ± 20%, then changed as the admin would.
 */
export async function engineeringBandSet(admin: TestUser, band: { min: number; mid: number; max: number }): Promise<string> {
  const call = <T>(url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<{ data: T }>(url, { method: init.method ?? 'GET', headers: { ...bearer(admin), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });
  expect((await call('/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(201);
  const set = await call<{ id: string }>('/api/bands/band-sets', { method: 'POST', json: { name: 'Engineering bands', currency: 'USD' } });
  const bandSetId = set.body.data.id;
  const built = await call<{ bandSet: { bands: { id: string; version: number }[] } }>(`/api/bands/band-sets/${bandSetId}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
  expect(built.status).toBe(200);
  const first = built.body.data.bandSet.bands[0];
  if (!first) throw new Error('no band built');
  const money = (dollars: number) => ({ amount: dollars * 100, currency: 'USD' });
  const patched = await call(`/api/bands/band-sets/${bandSetId}/bands/${first.id}`, { method: 'PATCH', ifMatch: first.version, json: { min: money(band.min), mid: money(band.mid), max: money(band.max) } });
  expect(patched.status).toBe(200);
  return bandSetId;
}
