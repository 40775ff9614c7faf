import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { jobEnded, until } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { insertEmployee, insertGrant, insertPay, insertSmallTeam, monthsAgo } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Insight = Schemas['DataLabInsight'];
type InsightList = Schemas['DataLabInsightList'];
type Bookmark = Schemas['DataLabBookmark'];

/*
 * The data lab over HTTP, in a company of its own. Figures worked out by hand:
 * - The live band of Software Engineering P3 (one catch-all zone): $100,000 / $120,000 / $140,000.
 *   Below its minimum: Ivy Inside ($95,000) and Olga Outside ($80,000). Above its maximum: Ines
 *   Iverson ($155,000; (155 − 140) ÷ 140 = +10.7%).
 * - The lead (a custom role: data lab, and employees and their pay of their own reports) is Marco
 *   Manager; their reach: Marco, Ines, Jon, Kai, Lea (the small team), Ivy and Mia. Olga, Hal, Nora,
 *   the equity group and the other half of the small team are outside it.
 * - Compression: Hal Hire started 60 days ago at $130,000; Ivy (started 2019) and Olga (2021) are
 *   paid less; Ines ($155,000) is not.
 * - Pay equity at Software Engineering P2: five men at $100,000 and five women at $90,000, median
 *   $95,000; women's gap (90 ÷ 95) ÷ (100 ÷ 95) − 1 = −10.0%.
 * - Equity refresh: Ivy's and Olga's only grants started 46 months ago and vest over 48: fully
 *   vested in about two months.
 * - Stale pay in the lead's reach: Jon and Kai (base unchanged since 2023-01-01), Marco and Lea (no
 *   base at all).
 */

const USD = (dollars: number) => ({ amount: dollars * 100, currency: 'USD' });
const OUTSIDE_NAMES = ['Olga', 'Hal', 'Nora', 'Hana', 'Pia', 'Quinn', 'Rosa', 'Equity'];

describe('the data lab', () => {
  let db: Knex;
  let company: TestCompany;
  let other: TestCompany;
  let support: TestUser;
  let admin: TestUser;
  let analyst: TestUser;
  let employee: TestUser;
  let lead: TestUser;
  let nora = '';

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: string } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': init.ifMatch } : {}) },
      ...(init.json !== undefined ? { json: init.json } : {}),
    });

  const user = (of: TestCompany, key: string): TestUser => {
    const found = of.users[key];
    if (!found) throw new Error(`no ${key} in the test company`);
    return found;
  };

  const insights = async (who: TestUser, include: 'open' | 'all' = 'open'): Promise<InsightList> => {
    const reply = await call<Data<InsightList>>(who, `/api/data-lab/insights?include=${include}`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data;
  };
  const byKey = (list: InsightList): Record<string, Insight> => Object.fromEntries(list.insights.map((insight) => [insight.key, insight]));
  const names = (insight: Insight | undefined): string[] => insight?.people.map((person) => person.name) ?? [];

  const recompute = async () => {
    const reply = await call<Data<Schemas['BackgroundJob']>>(admin, '/api/data-lab/insights/recompute', { method: 'POST' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    expect((await jobEnded(admin, reply.body.data.id, 60_000)).status).toBe('succeeded');
  };

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Data Lab Co');
    other = await createTestCompany(db, 'Other Lab Co');
    support = await createTestUser(db, { companyId: null, internalAdmin: true });
    [admin, analyst, employee] = [user(company, 'admin'), user(company, 'analyst'), user(company, 'employee')];

    const role = await call<Data<{ id: string }>>(admin, '/api/roles', {
      method: 'POST',
      json: { name: 'Team lead', permissions: { dataLab: [{ authority: 'view', scope: 'all' }], team: [{ authority: 'view', scope: 'reports' }], employeeCompensation: [{ authority: 'view', scope: 'reports' }] } },
    });
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    lead = await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] });
    const team = await insertSmallTeam(db, company.id, lead.id);

    expect((await call(support, `/api/internal/companies/${company.id}/release-flags/bands`, { method: 'PUT', json: { enabled: true } })).status).toBe(200);
    expect((await call(admin, '/api/bands/pay-zones')).status).toBe(200);
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(201);
    const set = await call<Data<Schemas['BandSetDetail']>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Lab bands', currency: 'USD' } });
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${set.body.data.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const band = built.body.data.bandSet.bands.find((b) => b.levelId === 'p3');
    if (!band) throw new Error('no P3 band built');
    const edited = await call(admin, `/api/bands/band-sets/${set.body.data.id}/bands/${band.id}`, { method: 'PATCH', ifMatch: `"${band.version}"`, json: { min: USD(100_000), mid: USD(120_000), max: USD(140_000) } });
    expect(edited.status).toBe(200);
    const current = await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${set.body.data.id}`);
    expect((await call(admin, `/api/bands/band-sets/${set.body.data.id}/publish`, { method: 'POST', ifMatch: `"${current.body.data.version}"`, json: {} })).status).toBe(200);

    const recent = monthsAgo(2);
    const hired = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
    const ivy = await insertEmployee(db, company.id, { firstName: 'Ivy', lastName: 'Inside', managerId: team.managerEmployeeId, startDate: '2019-05-01' });
    await insertPay(db, company.id, ivy, [{ type: 'base_salary', amount: 9_500_000, effectiveDate: recent }]);
    await insertGrant(db, company.id, ivy, { type: 'rsu', shares: 400, vestingStartDate: monthsAgo(46) });
    const mia = await insertEmployee(db, company.id, { firstName: 'Mia', lastName: 'Nolevel', managerId: team.managerEmployeeId, levelId: null });
    await insertPay(db, company.id, mia, [{ type: 'base_salary', amount: 11_000_000, effectiveDate: recent }]);
    const olga = await insertEmployee(db, company.id, { firstName: 'Olga', lastName: 'Outside' });
    await insertPay(db, company.id, olga, [{ type: 'base_salary', amount: 8_000_000, effectiveDate: recent }]);
    await insertGrant(db, company.id, olga, { type: 'rsu', shares: 400, vestingStartDate: monthsAgo(46) });
    const hal = await insertEmployee(db, company.id, { firstName: 'Hal', lastName: 'Hire', startDate: hired });
    await insertPay(db, company.id, hal, [{ type: 'base_salary', amount: 13_000_000, effectiveDate: hired }]);
    nora = await insertEmployee(db, company.id, { firstName: 'Nora', lastName: 'Nofamily', jobFamilyId: null, levelId: null });
    await insertPay(db, company.id, nora, [{ type: 'base_salary', amount: 10_000_000, effectiveDate: recent }]);
    for (let index = 0; index < 10; index += 1) {
      const gender = index < 5 ? 'man' : 'woman';
      const id = await insertEmployee(db, company.id, { firstName: 'Equity', lastName: `${gender}-${index}`, levelId: 'p2', demographics: { gender } });
      await insertPay(db, company.id, id, [{ type: 'base_salary', amount: gender === 'man' ? 10_000_000 : 9_000_000, effectiveDate: recent }]);
    }
  });

  it('says which features the company has; insights answer 404 until internal admins add them', async () => {
    const before = await call<Data<Schemas['DataLabSubscription']>>(analyst, '/api/data-lab/subscription');
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({ companyId: company.id, companyName: 'Data Lab Co', features: { insights: false, agent: false, pulseSurveys: false }, updatedAt: null });
    const refused = await call(admin, '/api/data-lab/insights');
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe("Insights is not part of Data Lab Co's data-lab subscription.");
    expect((await call(admin, `/api/internal/companies/${company.id}/data-lab-subscription`, { method: 'PUT', json: { insights: true, agent: true, pulseSurveys: false } })).status).toBe(403);

    const set = await call<Data<Schemas['DataLabSubscription']>>(support, `/api/internal/companies/${company.id}/data-lab-subscription`, { method: 'PUT', json: { insights: true, agent: true, pulseSurveys: false } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.features).toEqual({ insights: true, agent: true, pulseSurveys: false });
    const after = await call<Data<Schemas['DataLabSubscription']>>(analyst, '/api/data-lab/subscription');
    expect(after.body.data.features).toEqual({ insights: true, agent: true, pulseSurveys: false });
    expect(after.body.data.updatedAt).not.toBeNull();
    expect((await call<Data<Schemas['DataLabSubscription']>>(support, `/api/internal/companies/${other.id}/data-lab-subscription`)).body.data.features.insights).toBe(false);
    expect((await call(employee, '/api/data-lab/insights')).status).toBe(403);
  });

  it('computes each insight in the background with the hand-checked answer', async () => {
    await recompute();
    const list = await insights(admin);
    expect(list.computedAt).not.toBeNull();
    const found = byKey(list);

    expect(found.belowBandMin?.title).toBe('2 employees paid below their band minimum');
    expect(found.belowBandMin?.severity).toBe('high');
    expect(found.belowBandMin?.people).toEqual([
      { employeeId: expect.any(String), name: 'Ivy Inside', detail: 'Base $95,000, band minimum $100,000 (−5.0%)' },
      { employeeId: expect.any(String), name: 'Olga Outside', detail: 'Base $80,000, band minimum $100,000 (−20.0%)' },
    ]);
    expect(found.belowBandMin?.link).toMatch(/^\/bands\/sets\//);
    expect(found.aboveBandMax?.people.map((p) => [p.name, p.detail])).toEqual([['Ines Iverson', 'Base $155,000, band maximum $140,000 (+10.7%)']]);

    expect(names(found.compression)).toEqual(['Ivy Inside', 'Olga Outside']);
    expect(found.compression?.people[0]?.detail).toBe('Started 2019-05-01, base $95,000; 1 hire of the last 12 months at the same job family and level is paid more');

    expect(found.payEquityGap?.title).toBe('Women are paid 10.0% less than men in the same job and level');
    expect(found.payEquityGap?.valueLabel).toBe('−10.0%');
    expect(found.payEquityGap?.people).toEqual([]);
    expect(found.payEquityGap?.table.rows.map((row) => [row.label, ...row.cells])).toEqual([
      ['Men', '5', '105.3%', 'Reference'],
      ['Women', '5', '94.7%', '−10.0%'],
    ]);

    expect(names(found.equityRefresh)).toEqual(['Ivy Inside', 'Olga Outside']);
    expect(found.equityRefresh?.people[0]?.detail).toMatch(/^Fully vested on \d{4}-\d{2}-\d{2}; no grant vests after that$/);
    expect(names(found.unmappedJobs)).toEqual(['Nora Nofamily']);
    expect(names(found.missingLevels)).toEqual(['Mia Nolevel']);
    expect(names(found.stalePay)).toEqual(expect.arrayContaining(['Jon Jansen', 'Kai Kowalski', 'Lea Lindqvist', 'Marco Manager']));

    // Pay vs market: the company's median of SE P3 in the Bay Area (80, 95, 130, 155 → 112,500) against the market's p50, read here through the offers' market call.
    const market = await call<Data<Schemas['OfferInsights']>>(admin, '/api/benchmarking/offer-insights', { method: 'POST', json: { jobFamilyId: 'software_engineering', level: { type: 'level', id: 'p3' }, locationId: 'us_sf_bay_area', currency: 'local' } });
    expect(market.status, JSON.stringify(market.body)).toBe(200);
    const row = found.marketPosition?.table.rows.find((r) => r.label.startsWith('Software Engineering P3 · '));
    expect(row?.cells.slice(0, 2)).toEqual(['4', '$112,500']);
    const cell = market.body.data.base;
    const p50 = cell.percentiles?.find((p) => p.percentile === 50)?.value;
    if (cell.status === 'published' && p50 !== undefined) {
      const gap = ((112_500 - p50) / p50) * 100;
      expect(row?.cells[2]).toBe(`$${Math.round(p50).toLocaleString('en-US')}`);
      expect(row?.cells[3]).toBe(`${gap > 0 ? '+' : '−'}${Math.abs(Math.round(gap * 10) / 10).toFixed(1)}%`);
      expect(row?.cells[4]).toBe(`${cell.sample.companies} companies, ${cell.sample.employees} employees`);
    } else {
      expect(row?.cells[2]).toBe('Insufficient data');
    }
    expect(found.marketPosition?.method).toContain('through the privacy rules');
  });

  it('never names anyone outside the reader’s reach, and leaves out insights with nobody in it', async () => {
    const leadList = await insights(lead);
    const found = byKey(leadList);
    expect(found.belowBandMin?.title).toBe('1 employee paid below their band minimum');
    expect(found.belowBandMin?.value).toBe(1);
    expect(names(found.belowBandMin)).toEqual(['Ivy Inside']);
    expect(names(found.compression)).toEqual(['Ivy Inside']);
    expect(names(found.equityRefresh)).toEqual(['Ivy Inside']);
    expect(names(found.aboveBandMax)).toEqual(['Ines Iverson']);
    expect(names(found.missingLevels)).toEqual(['Mia Nolevel']);
    expect(names(found.stalePay)).toEqual(['Jon Jansen', 'Kai Kowalski', 'Lea Lindqvist', 'Marco Manager']);
    // Nobody in reach lacks a job family; the whole company's figures need a whole-company reach.
    expect(Object.keys(found).sort()).toEqual(['aboveBandMax', 'belowBandMin', 'compression', 'equityRefresh', 'missingLevels', 'stalePay']);
    const text = JSON.stringify(leadList);
    for (const name of OUTSIDE_NAMES) expect(text).not.toContain(name);

    // The positive control: the same insights name those people for a reader who may see them.
    const adminText = JSON.stringify(await insights(admin));
    for (const name of ['Olga Outside', 'Nora Nofamily', 'Hana Head', 'Pia Peer', 'Quinn Quist', 'Rosa Romero']) expect(adminText).toContain(name);

    // The analyst reads everyone's pay but not demographics: no pay-equity insight.
    const analystKeys = Object.keys(byKey(await insights(analyst)));
    expect(analystKeys).toContain('marketPosition');
    expect(analystKeys).not.toContain('payEquityGap');
    // A dismissal of an insight the reader cannot see is 404, as for one that does not exist.
    expect((await call(lead, '/api/data-lab/insights/unmappedJobs/state', { method: 'PUT', json: { state: 'dismissed' } })).status).toBe(404);
  });

  it('dismisses, snoozes and reopens for the reader only', async () => {
    const dismissed = await call<Data<Insight>>(lead, '/api/data-lab/insights/belowBandMin/state', { method: 'PUT', json: { state: 'dismissed' } });
    expect(dismissed.status, JSON.stringify(dismissed.body)).toBe(200);
    expect(dismissed.body.data.state).toBe('dismissed');
    const snoozed = await call<Data<Insight>>(lead, '/api/data-lab/insights/aboveBandMax/state', { method: 'PUT', json: { state: 'snoozed', snoozeDays: 3 } });
    expect(snoozed.body.data.state).toBe('snoozed');
    const until3 = Date.parse(snoozed.body.data.snoozedUntil ?? '');
    expect(Math.abs(until3 - (Date.now() + 3 * 86_400_000))).toBeLessThan(60_000);

    const open = await insights(lead);
    expect(open.hiddenCount).toBe(2);
    expect(Object.keys(byKey(open))).not.toContain('belowBandMin');
    expect(Object.keys(byKey(open))).not.toContain('aboveBandMax');
    expect(byKey(await insights(lead, 'all')).belowBandMin?.state).toBe('dismissed');
    expect(byKey(await insights(admin)).belowBandMin?.state).toBe('open');

    expect((await call<Data<Insight>>(lead, '/api/data-lab/insights/belowBandMin/state', { method: 'PUT', json: { state: 'open' } })).body.data.state).toBe('open');
    expect(Object.keys(byKey(await insights(lead)))).toContain('belowBandMin');
    expect((await call(lead, '/api/data-lab/insights/belowBandMin/state', { method: 'PUT', json: { state: 'dismissed', snoozeDays: 3 } })).status).toBe(400);
  });

  it('recomputes after a change to the data, and schedules the nightly run', async () => {
    const nightly = (await db('jobs').where({ company_id: company.id, type: 'dataLabNightlyInsights', status: 'queued' })) as { run_after: string | Date }[];
    expect(nightly).toHaveLength(1);
    const runAfter = new Date(nightly[0]?.run_after ?? '');
    expect(runAfter.getUTCHours()).toBe(3);
    expect(runAfter.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);

    // Nora gets a job family and level: the change's event queues a recomputation, and she is mapped.
    const read = await call<Data<Schemas['Employee']>>(admin, `/api/employees/${nora}`);
    const changed = await call(admin, `/api/employees/${nora}`, { method: 'PATCH', ifMatch: `"${read.body.data.version}"`, json: { jobFamilyId: 'software_engineering', levelId: 'p3' } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await until(async () => !('unmappedJobs' in byKey(await insights(admin))), 60_000, 500);
    expect(names(byKey(await insights(admin)).belowBandMin)).toEqual(['Ivy Inside', 'Olga Outside']);
  });

  it('answers another company’s reader from their own company only', async () => {
    const outsider = user(other, 'admin');
    const refused = await call(outsider, '/api/data-lab/insights');
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe("Insights is not part of Other Lab Co's data-lab subscription.");
    expect((await call(support, `/api/internal/companies/${other.id}/data-lab-subscription`, { method: 'PUT', json: { insights: true, agent: false, pulseSurveys: false } })).status).toBe(200);
    const theirs = await insights(outsider);
    expect(JSON.stringify(theirs)).not.toContain('Ivy');
    expect((await call(outsider, '/api/data-lab/insights/belowBandMin/state', { method: 'PUT', json: { state: 'dismissed' } })).status).toBe(404);
    expect((await call(support, `/api/internal/companies/no-such-company/data-lab-subscription`)).status).toBe(404);
  });
  it('keeps bookmarks: save, list, rename under If-Match, share inside the company, delete', async () => {
    const saved = await call<Data<Bookmark>>(lead, '/api/data-lab/bookmarks', { method: 'POST', json: { kind: 'insight', name: 'Below band', target: 'belowBandMin' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.headers.get('etag')).toBe('"1"');
    expect(saved.body.data).toMatchObject({ kind: 'insight', name: 'Below band', link: '/paybench-data-lab?insight=belowBandMin', shared: false, ownedByMe: true, version: 1 });

    const sharing = await call(lead, '/api/data-lab/bookmarks', { method: 'POST', json: { kind: 'teamAnalytics', name: 'Mine', target: '/team/analytics', shared: true } });
    expect(sharing.status).toBe(403);
    expect(sharing.body.message).toBe('Sharing a bookmark with the company needs data-lab edit access.');
    const wrong = await call(lead, '/api/data-lab/bookmarks', { method: 'POST', json: { kind: 'explorerQuery', name: 'Wrong', target: '/team/analytics' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('An explorer query is an address starting with /benchmarkingsurvey/data-explorer');
    expect((await call(lead, '/api/data-lab/bookmarks', { method: 'POST', json: { kind: 'insight', name: 'Gone', target: 'noSuchInsight' } })).status).toBe(400);

    const query = '/benchmarkingsurvey/data-explorer/results?jobFamilies=software_engineering';
    const shared = await call<Data<Bookmark>>(admin, '/api/data-lab/bookmarks', { method: 'POST', json: { kind: 'explorerQuery', name: 'Engineering market', target: query, shared: true } });
    expect(shared.status).toBe(201);

    const seenByAnalyst = await call<Data<Bookmark[]>>(analyst, '/api/data-lab/bookmarks');
    expect(seenByAnalyst.body.data.map((b) => [b.name, b.shared, b.ownedByMe, b.link])).toEqual([['Engineering market', true, false, query]]);
    expect(seenByAnalyst.body.data[0]?.ownerName).toBe(`Test ${admin.email.split('@')[0]}`);
    expect((await call(analyst, `/api/data-lab/bookmarks/${shared.body.data.id}`, { method: 'PATCH', ifMatch: '"1"', json: { name: 'Mine now' } })).status).toBe(403);
    expect((await call(analyst, `/api/data-lab/bookmarks/${saved.body.data.id}`, { method: 'DELETE' })).status).toBe(404);

    const renamed = await call<Data<Bookmark>>(lead, `/api/data-lab/bookmarks/${saved.body.data.id}`, { method: 'PATCH', ifMatch: '"1"', json: { name: 'Below band minimum' } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Below band minimum', version: 2 });
    const stale = await call(lead, `/api/data-lab/bookmarks/${saved.body.data.id}`, { method: 'PATCH', ifMatch: '"1"', json: { name: 'Again' } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('Someone else changed this bookmark first. Reload and try again.');
    expect((await call(lead, `/api/data-lab/bookmarks/${saved.body.data.id}`, { method: 'PATCH', json: { name: 'Again' } })).status).toBe(428);

    const leadList = await call<Data<Bookmark[]>>(lead, '/api/data-lab/bookmarks');
    expect(leadList.body.data.map((b) => b.name)).toEqual(['Engineering market', 'Below band minimum']);

    // Another company's people (with insights of their own) never see, change or delete them; people without the data lab cannot list them.
    const outsider = user(other, 'admin');
    expect((await call<Data<Bookmark[]>>(outsider, '/api/data-lab/bookmarks')).body.data).toEqual([]);
    expect((await call(outsider, `/api/data-lab/bookmarks/${shared.body.data.id}`, { method: 'PATCH', ifMatch: '"1"', json: { name: 'Taken' } })).status).toBe(404);
    expect((await call(outsider, `/api/data-lab/bookmarks/${shared.body.data.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await call(employee, '/api/data-lab/bookmarks')).status).toBe(403);

    const deleted = await call<Data<Bookmark>>(lead, `/api/data-lab/bookmarks/${saved.body.data.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect((await call<Data<Bookmark[]>>(lead, '/api/data-lab/bookmarks')).body.data.map((b) => b.name)).toEqual(['Engineering market']);
  });

});
