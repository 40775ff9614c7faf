import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { COMPANY_STAGES, FOUNDER_TYPES, JOB_FAMILIES, LEVELS, OWNERSHIP_GROUPS } from '../reference/catalog/index.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Check = Schemas['PayZoneCheck'];
type BandSetDetail = Schemas['BandSetDetail'];

const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: string | number } = {}) =>
  request<T & ErrorBody>(url, {
    method: init.method ?? 'GET',
    headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
    json: init.json,
  });

async function switchOnBands(db: Knex, companyId: string): Promise<void> {
  const support = await createTestUser(db, { companyId, internalAdmin: true });
  const reply = await request(`/api/internal/companies/${companyId}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
  expect(reply.status).toBe(200);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/**
 * A country's pay index against the US, read from the market data API as a comp analyst would: the
 * median, over every family × level the market publishes in both places, of the ratio of their base
 * medians in USD — worked out here from the published cells, not by the code under test.
 */
async function payIndexAgainstUs(user: TestUser, countryLocationId: string): Promise<number> {
  const everywhere = { companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), industries: ['ind_all'], founderTypes: FOUNDER_TYPES.map((f) => f.id) };
  const reply = await call<Data<Schemas['BenchmarkResult']>>(user, '/api/benchmarking/market-data', {
    method: 'POST',
    json: {
      compensationTypes: ['base'],
      marketFilters: [
        { ...everywhere, locations: ['840'] },
        { ...everywhere, locations: [countryLocationId] },
      ],
      jobFamilies: JOB_FAMILIES.map((family) => family.id),
      levels: LEVELS.map((level) => ({ type: 'level', id: level.id })),
      percentiles: [50],
      currency: 'USD',
    },
  });
  expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(200);
  const p50 = new Map<string, number>();
  for (const cell of reply.body.data.cells) {
    const value = cell.percentiles?.[0]?.value;
    if (cell.status === 'published' && value) p50.set(`${cell.marketFilterIndex}|${cell.jobFamilyId}|${cell.levelId}`, value);
  }
  const ratios: number[] = [];
  for (const family of JOB_FAMILIES) {
    for (const level of LEVELS) {
      const here = p50.get(`0|${family.id}|${level.id}`);
      const there = p50.get(`1|${family.id}|${level.id}`);
      if (here && there) ratios.push(there / here);
    }
  }
  expect(ratios.length).toBeGreaterThanOrEqual(3);
  return median(ratios);
}

/*
 * A catch-all zone priced in the US (the company's first zone, the anchor) holds people in London,
 * Manchester and Berlin: the check lists them by country and metro with counts, a build says so, and
 * one click adds a zone per country priced from the market, after which the list is empty.
 */
describe('zone checks: people in a zone priced for another country', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let analyst: TestUser;
  let bandsOnly: TestUser;
  let setId = '';

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Zone Check Co');
    admin = company.users.admin as TestUser;
    analyst = company.users.analyst as TestUser;
    await switchOnBands(db, company.id);
    const role = await call<Data<Schemas['Role']>>(admin, '/api/roles', { method: 'POST', json: { name: 'Bands, no people', permissions: { bands: [{ authority: 'view', scope: 'all' }] } } });
    expect(role.status).toBe(200);
    bandsOnly = await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] });
    const id = company.id;
    const people: { first: string; last: string; locationId: string; countryCode: string; currency: string; amount: number }[] = [
      { first: 'Sam', last: 'Francisco', locationId: 'us_sf_bay_area', countryCode: 'US', currency: 'USD', amount: 15_000_000 },
      { first: 'Lou', last: 'London', locationId: 'gb_london', countryCode: 'GB', currency: 'GBP', amount: 8_000_000 },
      { first: 'Liv', last: 'Lambeth', locationId: 'gb_london', countryCode: 'GB', currency: 'GBP', amount: 8_500_000 },
      { first: 'Max', last: 'Manchester', locationId: 'gb_manchester', countryCode: 'GB', currency: 'GBP', amount: 6_500_000 },
      { first: 'Bea', last: 'Berlin', locationId: 'de_berlin', countryCode: 'DE', currency: 'EUR', amount: 7_500_000 },
    ];
    for (const person of people) {
      const employeeId = await insertEmployee(db, id, { firstName: person.first, lastName: person.last, levelId: 'p3', locationId: person.locationId, countryCode: person.countryCode, currency: person.currency });
      await insertPay(db, id, employeeId, [{ type: 'base_salary', amount: person.amount, currency: person.currency, effectiveDate: '2024-01-01' }]);
    }
    expect((await call(admin, '/api/bands/jobs/from-employees', { method: 'POST' })).status).toBe(200);
    const draft = await call<Data<BandSetDetail>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Zone check', currency: 'USD' } });
    setId = draft.body.data.id;
  });

  it('lists the Londoners, the Mancunian and the Berliner in the US-priced catch-all, by country and metro with counts', async () => {
    const reply = await call<Data<Check>>(admin, '/api/bands/zone-check');
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const check = reply.body.data;
    expect(check.marketLocation).toEqual({ id: '840', name: 'United States', country: 'US' });
    expect(check.total).toBe(4);
    expect(check.groups.map((group) => [group.zoneName, group.catchAll, group.country, group.countryName, group.count])).toEqual([
      ['Everywhere', true, 'GB', 'United Kingdom', 3],
      ['Everywhere', true, 'DE', 'Germany', 1],
    ]);
    const [uk, germany] = check.groups as [Check['groups'][number], Check['groups'][number]];
    expect(uk.metros).toEqual([
      { locationId: 'gb_london', name: 'London', count: 2 },
      { locationId: 'gb_manchester', name: 'Manchester', count: 1 },
    ]);
    expect(uk.employees.map((person) => [person.name, person.locationName])).toEqual([
      ['Liv Lambeth', 'London'],
      ['Lou London', 'London'],
      ['Max Manchester', 'Manchester'],
    ]);
    expect(germany.metros).toEqual([{ locationId: 'de_berlin', name: 'Berlin', count: 1 }]);
    expect(germany.employees.map((person) => person.name)).toEqual(['Bea Berlin']);

    // Each suggestion is the country's pay index against the US, as published by the market.
    const ukIndex = await payIndexAgainstUs(admin, '826');
    const deIndex = await payIndexAgainstUs(admin, '276');
    expect(ukIndex).toBeLessThan(1);
    expect(uk.suggestion).toEqual({ name: 'United Kingdom', rules: [{ country: 'GB' }], differentialBp: Math.round((ukIndex - 1) * 10_000), currency: 'GBP', payIndex: Math.round(ukIndex * 10_000) / 10_000, basis: 'United Kingdom', reason: null });
    expect(germany.suggestion).toEqual({ name: 'Germany', rules: [{ country: 'DE' }], differentialBp: Math.round((deIndex - 1) * 10_000), currency: 'EUR', payIndex: Math.round(deIndex * 10_000) / 10_000, basis: 'Germany', reason: null });
  });

  it('names people only to those who may read them: counts for a bands viewer without the team permission', async () => {
    const reply = await call<Data<Check>>(bandsOnly, '/api/bands/zone-check');
    expect(reply.status).toBe(200);
    expect(reply.body.data.groups.map((group) => [group.country, group.count, group.employees.length])).toEqual([
      ['GB', 3, 0],
      ['DE', 1, 0],
    ]);
    // The analyst reads people across the company.
    const analystView = await call<Data<Check>>(analyst, '/api/bands/zone-check');
    expect(analystView.body.data.groups.map((group) => group.employees.length)).toEqual([3, 1]);
    // Adding zones is a change over every zone: viewers may not.
    expect((await call(analyst, '/api/bands/zone-check/suggested-zones', { method: 'POST', json: {} })).status).toBe(403);
    expect((await call(company.users.people_manager as TestUser, '/api/bands/zone-check')).status).toBe(403);
  });

  it('reports them in the build result, and after the one-click fix the zones exist and the list is empty', async () => {
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${setId}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 10 } } });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    expect(built.body.data.zoneCheck.total).toBe(4);
    expect(built.body.data.zoneCheck.groups.map((group) => [group.country, group.count])).toEqual([
      ['GB', 3],
      ['DE', 1],
    ]);

    const before = (await call<Data<Check>>(admin, '/api/bands/zone-check')).body.data;
    const fixed = await call<Data<Schemas['SuggestedZonesResult']>>(admin, '/api/bands/zone-check/suggested-zones', { method: 'POST', json: {} });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(201);
    expect(fixed.body.data.created.map((zone) => [zone.name, zone.rules, zone.currency, zone.differentialBp, zone.anchor, zone.catchAll])).toEqual(
      before.groups.map((group) => [group.suggestion.name, [{ country: group.country }], group.suggestion.currency, group.suggestion.differentialBp, false, false]),
    );
    expect(fixed.body.data.zoneCheck).toMatchObject({ total: 0, groups: [] });
    const zones = (await call<Data<Schemas['PayZone'][]>>(admin, '/api/bands/pay-zones')).body.data;
    expect(zones.map((zone) => [zone.name, zone.rules])).toEqual([
      ['Everywhere', []],
      ['United Kingdom', [{ country: 'GB' }]],
      ['Germany', [{ country: 'DE' }]],
    ]);
    expect((await call<Data<Check>>(admin, '/api/bands/zone-check')).body.data).toMatchObject({ total: 0, groups: [] });

    // Nothing left to add: a second click makes nothing.
    const again = await call<Data<Schemas['SuggestedZonesResult']>>(admin, '/api/bands/zone-check/suggested-zones', { method: 'POST', json: {} });
    expect(again.body.data.created).toEqual([]);

    // Built again, the Londoners' bands are the UK zone's, in pounds; the build no longer warns.
    const rebuilt = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${setId}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 10 } } });
    expect(rebuilt.body.data.zoneCheck).toMatchObject({ total: 0, groups: [] });
    const ukZone = zones.find((zone) => zone.name === 'United Kingdom') as Schemas['PayZone'];
    const ukBands = rebuilt.body.data.bandSet.bands.filter((band) => band.payZoneId === ukZone.id);
    expect(ukBands.length).toBeGreaterThan(0);
    expect(ukBands.every((band) => band.mid.currency === 'GBP')).toBe(true);
  });

  it('refuses a country that is not two capital letters', async () => {
    const reply = await call(admin, '/api/bands/zone-check/suggested-zones', { method: 'POST', json: { countries: ['gb'] } });
    expect(reply.status).toBe(400);
  });
});

/*
 * Every workflow has a way out, for band-set publication: while a set waits for its approver, an
 * author (bands edit over all zones) may withdraw it to draft, and the approver may send it back with
 * a comment; everyone else is refused, and neither applies to a set that is not waiting.
 */
describe('band-set publication: withdraw and send back', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let approver: TestUser;
  let otherAuthor: TestUser;
  let zoneLimited: TestUser;

  async function submitted(name: string): Promise<BandSetDetail> {
    const created = await call<Data<BandSetDetail>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name, currency: 'USD' } });
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${created.body.data.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const published = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${created.body.data.id}/publish`, { method: 'POST', ifMatch: built.body.data.bandSet.version, json: { comment: 'For 2027' } });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.data.status).toBe('pendingApproval');
    return published.body.data;
  }

  const history = async (id: string) =>
    (await call<Data<Schemas['BandSetHistoryEntry'][]>>(admin, `/api/bands/band-sets/${id}/history`)).body.data.map((entry) => [entry.action, entry.from, entry.to, entry.comment, entry.actor.userId]);

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Way Out Bands Co');
    admin = company.users.admin as TestUser;
    approver = company.users.analyst as TestUser;
    await switchOnBands(db, company.id);
    const authors = await call<Data<Schemas['Role']>>(admin, '/api/roles', { method: 'POST', json: { name: 'Band authors', permissions: { bands: [{ authority: 'edit', scope: 'all' }] } } });
    otherAuthor = await createTestUser(db, { companyId: company.id, roleIds: [authors.body.data.id] });
    const zoned = await call<Data<Schemas['Role']>>(admin, '/api/roles', { method: 'POST', json: { name: 'Zone editors', permissions: { bands: [{ authority: 'edit', scope: 'zones' }] } } });
    expect(zoned.status, JSON.stringify(zoned.body)).toBe(200);
    zoneLimited = await createTestUser(db, { companyId: company.id, roleIds: [zoned.body.data.id] });
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(201);
    const settings = await call(admin, '/api/workflow-settings', { method: 'PUT', ifMatch: 0, json: { bandPublicationApproverUserIds: [approver.id] } });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  });

  it('lets an author withdraw a submitted set back to draft, recorded in the history; the approver then has nothing to decide', async () => {
    const set = await submitted('Withdrawn 2027');
    // Not for the approver who only views bands, nor for an editor limited to some zones.
    const byApprover = await call<ErrorBody>(approver, `/api/bands/band-sets/${set.id}/withdraw`, { method: 'POST', ifMatch: set.version, json: {} });
    expect(byApprover.status).toBe(403);
    expect((await call(zoneLimited, `/api/bands/band-sets/${set.id}/withdraw`, { method: 'POST', ifMatch: set.version, json: {} })).status).toBe(403);
    // A stale version moves nothing.
    expect((await call(admin, `/api/bands/band-sets/${set.id}/withdraw`, { method: 'POST', ifMatch: set.version - 1, json: {} })).status).toBe(409);

    // Another author may take it back too (the submitter may be away).
    const withdrawn = await call<Data<BandSetDetail>>(otherAuthor, `/api/bands/band-sets/${set.id}/withdraw`, { method: 'POST', ifMatch: set.version, json: { comment: 'One more job to add' } });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(withdrawn.body.data).toMatchObject({ status: 'draft', publishedAt: null, version: set.version + 1 });
    expect(withdrawn.headers.get('etag')).toBe(`"${set.version + 1}"`);
    expect(await history(set.id)).toEqual([
      ['submit', 'draft', 'pendingApproval', 'For 2027', admin.id],
      ['withdraw', 'pendingApproval', 'draft', 'One more job to add', otherAuthor.id],
    ]);
    const approval = await call<Data<Schemas['BandSetApproval']>>(approver, `/api/band-set-approvals/${set.id}`);
    expect(approval.body.data).toMatchObject({ status: 'draft', awaiting: [] });
    // From draft there is nothing to withdraw or send back: 409.
    const again = await call<ErrorBody>(admin, `/api/bands/band-sets/${set.id}/withdraw`, { method: 'POST', ifMatch: set.version + 1, json: {} });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_transition');
    expect((await call(approver, `/api/band-set-approvals/${set.id}/reject`, { method: 'POST', ifMatch: set.version + 1, json: { comment: 'Too late' } })).status).toBe(409);
  });

  it('lets the approver send it back with a comment, and nobody else', async () => {
    const set = await submitted('Sent back 2027');
    expect((await call(admin, `/api/band-set-approvals/${set.id}/reject`, { method: 'POST', ifMatch: set.version, json: { comment: 'Not mine to send back' } })).status).toBe(403);
    const noReason = await call<ErrorBody>(approver, `/api/band-set-approvals/${set.id}/reject`, { method: 'POST', ifMatch: set.version, json: { comment: ' ' } });
    expect(noReason.status).toBe(400);
    const back = await call<Data<Schemas['BandSetApproval']>>(approver, `/api/band-set-approvals/${set.id}/reject`, { method: 'POST', ifMatch: set.version, json: { comment: 'Engineering mids look low' } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.data.status).toBe('draft');
    expect(await history(set.id)).toEqual([
      ['submit', 'draft', 'pendingApproval', 'For 2027', admin.id],
      ['reject', 'pendingApproval', 'draft', 'Engineering mids look low', approver.id],
    ]);
  });

  it('refuses to withdraw a live set (409) and answers 404 for another company’s set', async () => {
    const set = await submitted('Approved 2027');
    expect((await call(approver, `/api/band-set-approvals/${set.id}/approve`, { method: 'POST', ifMatch: set.version, json: {} })).status).toBe(200);
    const live = (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${set.id}`)).body.data;
    expect(live.status).toBe('live');
    const refused = await call<ErrorBody>(admin, `/api/bands/band-sets/${set.id}/withdraw`, { method: 'POST', ifMatch: live.version, json: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('invalid_transition');
    const other = await createTestCompany(db, 'Other Bands Co');
    await switchOnBands(db, other.id);
    expect((await call(other.users.admin as TestUser, `/api/bands/band-sets/${set.id}/withdraw`, { method: 'POST', ifMatch: live.version, json: {} })).status).toBe(404);
  });
});
