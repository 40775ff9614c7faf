import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';
import { type TestCompany, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { request } from '../../test/http.js';

type Report = components['schemas']['PayEquityReport'];

/*
 * A company (USD, full time 40 h × 52 = 2,080 h a year), 2026, every base effective 2025-01-01,
 * pay records being full-time-equivalent annual rates:
 *   North GmbH
 *     W1 woman  base 52,000, FTE 1, 40 h a week recorded      → 52,000 ÷ (40 × 52 = 2,080)          = 25.00 an hour
 *     W2 woman  base 52,000, FTE 0.5, no hours; one-off bonus 2,600 paid 2026-03-15
 *               hours 0.5 × 2,080 = 1,040; base 52,000 × 0.5 = 26,000 ÷ 1,040                    = 25.00 an hour
 *               total (26,000 + 2,600) ÷ 1,040 = 27.50 an hour; annual FTE total 52,000 + 2,600 ÷ 0.5 = 57,200
 *     W3 woman  base 62,400, FTE 0.8, 30 h a week recorded    → 62,400 × 0.8 = 49,920 ÷ (30 × 52 = 1,560) = 32.00 an hour
 *     M1 man    base 62,400, FTE 1, no hours                  → 62,400 ÷ 2,080                      = 30.00 an hour
 *     M2 man    base 72,800, FTE 1, 35 h a week recorded      → 72,800 ÷ (35 × 52 = 1,820)          = 40.00 an hour
 *     M3 man    base 52,000, FTE 1, left 2026-09-30 (a leaver: in the figures, not in the head count) = 25.00 an hour
 *   South Ltd: W4 woman 40,000, M4 man 50,000, M5 man 60,000 (one woman: withheld at minimum 3)
 *   No legal entity recorded: N0 man 45,000
 */
let company: TestCompany;
const admin = () => bearer(company.users.admin!);
const query = 'year=2026&minimumGroup=3';

beforeAll(async () => {
  const db = await testDb();
  company = await createTestCompany(db, 'Two Entities Co');
  const support = await createTestUser(db, { companyId: null, internalAdmin: true });
  expect((await request(`/api/internal/companies/${company.id}/release-flags/pay_equity`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
  const person = async (key: string, gender: string, entity: string | null, base: number, contract: { fte?: number; weeklyHours?: number; leftOn?: string; oneOff?: number } = {}) => {
    const id = await insertEmployee(db, company.id, { firstName: key, lastName: 'Person', demographics: { gender } });
    await insertPay(db, company.id, id, [
      { type: 'base_salary', amount: base * 100, effectiveDate: '2025-01-01' },
      ...(contract.oneOff ? [{ type: 'one_off_bonus', amount: contract.oneOff * 100, effectiveDate: '2026-03-15' }] : []),
    ]);
    await db('employees').where({ id }).update({
      legal_entity: entity,
      fte: contract.fte ?? 1,
      weekly_hours: contract.weeklyHours ?? null,
      ...(contract.fte && contract.fte < 1 ? { employment_type: 'part_time' } : {}),
      ...(contract.leftOn ? { status: 'terminated', termination_date: contract.leftOn } : {}),
    });
  };
  await person('W1', 'woman', 'North GmbH', 52_000, { weeklyHours: 40 });
  await person('W2', 'woman', 'North GmbH', 52_000, { fte: 0.5, oneOff: 2_600 });
  await person('W3', 'woman', 'North GmbH', 62_400, { fte: 0.8, weeklyHours: 30 });
  await person('M1', 'man', 'North GmbH', 62_400);
  await person('M2', 'man', 'North GmbH', 72_800, { weeklyHours: 35 });
  await person('M3', 'man', 'North GmbH', 52_000, { leftOn: '2026-09-30' });
  await person('W4', 'woman', 'South Ltd', 40_000);
  await person('M4', 'man', 'South Ltd', 50_000);
  await person('M5', 'man', 'South Ltd', 60_000);
  await person('N0', 'man', null, 45_000);
}, 120_000);

describe('the report per legal entity', () => {
  it('lists every legal entity with its head count on the reference date and what the Directive and the UK ask of it', async () => {
    const reply = await request<{ data: Report }>(`/api/pay-equity/report?${query}`, { headers: admin() });
    expect(reply.status).toBe(200);
    expect(reply.body.data.legalEntity).toBeNull();
    // North: six workers in the year, M3 left on 30 September → five on 31 December; on 5 April all six.
    expect(reply.body.data.legalEntities).toEqual([
      { name: 'North GmbH', workers: 5, directive: 'not_required', ukRelevantEmployees: 6, ukRequired: false },
      { name: 'South Ltd', workers: 3, directive: 'not_required', ukRelevantEmployees: 3, ukRequired: false },
      { name: null, workers: 1, directive: 'not_required', ukRelevantEmployees: 1, ukRequired: false },
    ]);
    // The group view: everyone, 4 women (W1–W4) and 6 men (M1–M5, N0).
    expect(reply.body.data.counts).toEqual({ female: 4, male: 6, other: 0, unknown: 0 });
    expect(reply.body.data.method[0]).toContain('group view');
  });

  it('reports one entity: annual pay annualised to full time, hourly pay from contractual hours', async () => {
    const reply = await request<{ data: Report }>(`/api/pay-equity/report?${query}&legalEntity=${encodeURIComponent('North GmbH')}`, { headers: admin() });
    expect(reply.status).toBe(200);
    const report = reply.body.data;
    expect(report.legalEntity).toBe('North GmbH');
    // The leaver M3 counts in the figures: 3 women, 3 men.
    expect(report.workers).toBe(6);
    expect(report.counts).toEqual({ female: 3, male: 3, other: 0, unknown: 0 });
    // Annual (full-time rates): women 52,000, 57,200, 62,400 → mean 171,600 / 3 = 57,200, median 57,200;
    // men 62,400, 72,800, 52,000 → mean 187,200 / 3 = 62,400, median 62,400. Gap 5,200 / 62,400 = 8.333 %.
    expect(report.annual.total.female).toEqual({ count: 3, mean: 57_200, median: 57_200 });
    expect(report.annual.total.male).toEqual({ count: 3, mean: 62_400, median: 62_400 });
    expect(report.annual.total.meanGap).toBe(8.33);
    expect(report.annual.total.medianGap).toBe(8.33);
    // Hourly: women 25, 27.5, 32 → mean 84.5 / 3 = 28.1667, median 27.5; men 30, 40, 25 → mean 95 / 3 = 31.6667, median 30.
    // Mean gap (31.6667 − 28.1667) / 31.6667 = 3.5 / 31.6667 = 11.05 %; median (30 − 27.5) / 30 = 8.33 %.
    expect(report.hourly.total.female.mean).toBeCloseTo(28.1667, 3);
    expect(report.hourly.total.female.median).toBe(27.5);
    expect(report.hourly.total.male.mean).toBeCloseTo(31.6667, 3);
    expect(report.hourly.total.meanGap).toBe(11.05);
    expect(report.hourly.total.medianGap).toBe(8.33);
    // Hourly basic wage: women 25, 25, 32 → 27.3333; men 31.6667 → 4.3333 / 31.6667 = 13.68 %.
    expect(report.hourly.base.meanGap).toBe(13.68);
    // (e) W2 alone receives a variable component: 1 of 3 women, 0 of 3 men.
    expect(report.receivingVariable).toEqual({ female: 33.33, male: 0 });
    // UK, the same employer on 5 April: hourly base × FTE ÷ contractual hours, as above → 13.68 %;
    // bonus: W2's 2,600 (as paid) in the 12 months to 5 April.
    expect(report.uk.counts).toEqual({ female: 3, male: 3, other: 0, unknown: 0 });
    expect(report.uk.hourly.meanGap).toBe(13.68);
    expect(report.uk.receivingBonus).toEqual({ female: 33.33, male: 0 });
    expect(report.method[0]).toContain('North GmbH');
  });

  it('withholds a small entity’s figures and refuses an entity no worker has', async () => {
    const south = await request<{ data: Report }>(`/api/pay-equity/report?${query}&legalEntity=South%20Ltd`, { headers: admin() });
    expect(south.status).toBe(200);
    expect(south.body.data.counts).toEqual({ female: 1, male: 2, other: 0, unknown: 0 });
    expect(south.body.data.annual.total.meanGap).toBeNull();
    const unknown = await request<{ error: { details?: { field: string }[] } }>(`/api/pay-equity/report?${query}&legalEntity=Nowhere%20AG`, { headers: admin() });
    expect(unknown.status).toBe(400);
  });

  it('exports one entity’s report, naming the employer', async () => {
    const reply = await request<string>(`/api/pay-equity/report/file?${query}&legalEntity=North%20GmbH&format=csv`, { headers: admin() });
    expect(reply.status).toBe(200);
    expect(String(reply.body)).toContain('Employer,,,,,,,,,,North GmbH');
    expect(reply.headers.get('content-disposition')).toContain('pay-gap-report-2026-north-gmbh.csv');
  });
});
