import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';
import { type TestCompany, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { request } from '../../test/http.js';
import { categoryPayLevelsFor } from './categoryLevels.js';
import { addMonths } from '../people/vesting.js';
import { jobEnded } from '../../test/waiting.js';

type Report = components['schemas']['PayEquityReport'];
type Evaluation = components['schemas']['PayEquityEvaluation'];
type Assessment = components['schemas']['PayEquityAssessment'];

/*
 * A company (USD) with, in 2026:
 *   software_engineering|p3|tr_p (A):
 *     W1 woman   base 100,000 + bonus target 10,000          = 110,000   on leave over 5 April 2026
 *     W2 woman   base  90,000 + one-off bonus 5,000 (2026-03-15) = 95,000  part-time (pay recorded full-time equivalent)
 *     W3 woman   base  80,000 EUR at the company's rate 1.25 =  100,000
 *     M1 man     base 120,000 + commission 12,000            = 132,000
 *     M2 man     base 110,000 (one-off 3,000 on 2025-11-01: not in 2026) = 110,000
 *     M3 man     base 100,000, left 2026-06-30 (a leaver: counted) = 100,000
 *     N1 non_binary base 95,000 (another gender)   X1 no gender recorded, base 105,000
 *   sales|p2|tr_p (B): M4 70,000, M5 75,000, M6 80,000 — no women
 *   not counted: L0 left 2025-12-31, C0 a contractor.
 * Every base is effective 2025-01-01.
 */
let company: TestCompany;
let otherCompany: TestCompany;
const ids: Record<string, string> = {};
const admin = () => bearer(company.users.admin!);
const query = 'year=2026&minimumGroup=3';
const A = 'software_engineering|p3|tr_p';
const B = 'sales|p2|tr_p';

async function enable(target: TestCompany, support: { token: string }) {
  const reply = await request(`/api/internal/companies/${target.id}/release-flags/pay_equity`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
  expect(reply.status).toBe(200);
}

beforeAll(async () => {
  const db = await testDb();
  company = await createTestCompany(db, 'Equal Pay Co');
  otherCompany = await createTestCompany(db, 'Other Equal Co');
  const support = await createTestUser(db, { companyId: null, internalAdmin: true });
  await enable(company, support);
  await enable(otherCompany, support);
  await db('company_exchange_rates').insert({ id: newId(), company_id: company.id, base_currency: 'EUR', quote_currency: 'USD', rate: '1.25', effective_date: '2024-01-01', note: '', created_by: null, created_at: new Date().toISOString() });
  const person = async (key: string, options: { gender?: string | null; level?: string; family?: string; currency?: string; pay: { type: string; amount: number; effectiveDate?: string; currency?: string }[] }) => {
    ids[key] = await insertEmployee(db, company.id, {
      firstName: key,
      lastName: 'Person',
      jobFamilyId: options.family ?? 'software_engineering',
      levelId: options.level ?? 'p3',
      currency: options.currency ?? 'USD',
      demographics: options.gender === undefined ? {} : { gender: options.gender },
    });
    await insertPay(db, company.id, ids[key]!, options.pay.map((record) => ({ type: record.type, amount: record.amount * 100, currency: record.currency ?? options.currency ?? 'USD', effectiveDate: record.effectiveDate ?? '2025-01-01' })));
  };
  await person('W1', { gender: 'woman', pay: [{ type: 'base_salary', amount: 100_000 }, { type: 'bonus_target', amount: 10_000 }] });
  await person('W2', { gender: 'woman', pay: [{ type: 'base_salary', amount: 90_000 }, { type: 'one_off_bonus', amount: 5_000, effectiveDate: '2026-03-15' }] });
  await person('W3', { gender: 'Female', currency: 'EUR', pay: [{ type: 'base_salary', amount: 80_000 }] });
  await person('M1', { gender: 'man', pay: [{ type: 'base_salary', amount: 120_000 }, { type: 'commission', amount: 12_000 }] });
  await person('M2', { gender: 'male', pay: [{ type: 'base_salary', amount: 110_000 }, { type: 'one_off_bonus', amount: 3_000, effectiveDate: '2025-11-01' }] });
  await person('M3', { gender: 'man', pay: [{ type: 'base_salary', amount: 100_000 }] });
  await person('N1', { gender: 'non_binary', pay: [{ type: 'base_salary', amount: 95_000 }] });
  await person('X1', { gender: null, pay: [{ type: 'base_salary', amount: 105_000 }] });
  await person('M4', { gender: 'man', family: 'sales', level: 'p2', pay: [{ type: 'base_salary', amount: 70_000 }] });
  await person('M5', { gender: 'man', family: 'sales', level: 'p2', pay: [{ type: 'base_salary', amount: 75_000 }] });
  await person('M6', { gender: 'man', family: 'sales', level: 'p2', pay: [{ type: 'base_salary', amount: 80_000 }] });
  await person('L0', { gender: 'woman', pay: [{ type: 'base_salary', amount: 10_000 }] });
  await person('C0', { gender: 'woman', pay: [{ type: 'base_salary', amount: 10_000 }] });
  await db('employees').where({ id: ids.W2 }).update({ employment_type: 'part_time' });
  await db('employees').where({ id: ids.W1 }).update({ leave_start_date: '2026-03-01', leave_end_date: '2026-05-31' });
  await db('employees').where({ id: ids.M3 }).update({ status: 'terminated', termination_date: '2026-06-30' });
  await db('employees').where({ id: ids.L0 }).update({ status: 'terminated', termination_date: '2025-12-31' });
  await db('employees').where({ id: ids.C0 }).update({ employment_type: 'contractor' });
}, 120_000);

describe('the 2026 report over HTTP', () => {
  let report: Report;
  beforeAll(async () => {
    const reply = await request<{ data: Report }>(`/api/pay-equity/report?${query}`, { headers: admin() });
    expect(reply.status).toBe(200);
    report = reply.body.data;
  });

  it('counts leavers of the year and part-timers, not earlier leavers or contractors; other and unrecorded genders apart', () => {
    expect(report.workers).toBe(11);
    expect(report.counts).toEqual({ female: 3, male: 6, other: 1, unknown: 1 });
    expect(report.currency).toBe('USD');
    expect(report.annualHours).toBe(2080); // 40 × 52
  });

  it('(a) and (c): mean and median gap of total pay, the EUR pay converted at the company rate', () => {
    // Women 110,000 95,000 100,000 → mean 101,666.67, median 100,000.
    // Men 132,000 110,000 100,000 70,000 75,000 80,000 → mean 567,000 / 6 = 94,500; median (80,000 + 100,000) / 2 = 90,000.
    expect(report.annual.total.female.mean).toBeCloseTo(101_666.667, 2);
    expect(report.annual.total.female.median).toBe(100_000);
    expect(report.annual.total.male.mean).toBe(94_500);
    expect(report.annual.total.male.median).toBe(90_000);
    expect(report.annual.total.meanGap).toBe(-7.58); // (94,500 − 101,666.67) / 94,500 = −7.584 %
    expect(report.annual.total.medianGap).toBe(-11.11); // (90,000 − 100,000) / 90,000
    expect(report.hourly.total.male.mean).toBeCloseTo(94_500 / 2080, 6); // 45.43 an hour
    expect(report.hourly.total.meanGap).toBe(-7.58);
  });

  it('(b)/(d) withheld with one man receiving; (e) shares receiving', () => {
    // Receiving: W1 10,000, W2 5,000 (one-off in 2026), M1 12,000 (M2's one-off was in 2025). One man < 3: withheld.
    expect(report.variable.annual.male.count).toBe(1);
    expect(report.variable.annual.meanGap).toBeNull();
    expect(report.receivingVariable).toEqual({ female: 66.67, male: 16.67 }); // 2 of 3, 1 of 6
  });

  it('(f) quartiles of the nine women and men', () => {
    // 70k M4, 75k M5, 80k M6 | 95k W2, 100k W3 | 100k M3, 110k W1 | 110k M2, 132k M1 (9 = 3 + 2 + 2 + 2; ties woman first).
    expect(report.quartiles.map((band) => [band.female, band.male])).toEqual([[0, 3], [2, 0], [1, 1], [0, 2]]);
  });

  it('(g) category A published and flagged, category B (no women) withheld', () => {
    const a = report.categories.find((category) => category.categoryId === A)!;
    // Women mean 101,666.67; men 132,000 110,000 100,000 → 114,000: 12,333.33 / 114,000 = 10.82 %.
    expect(a.annual!.total.meanGap).toBe(10.82);
    expect(a.annual!.total.medianGap).toBe(9.09); // (110,000 − 100,000) / 110,000
    // Base: women 100,000 90,000 100,000 → 96,666.67; men 110,000: 13,333.33 / 110,000 = 12.12 %.
    expect(a.annual!.base.meanGap).toBe(12.12);
    expect(a.counts).toEqual({ female: 3, male: 3, other: 1, unknown: 1 });
    expect(a.flagged).toBe(true);
    expect(a.categoryName).toContain('Software Engineering');
    const b = report.categories.find((category) => category.categoryId === B)!;
    expect(b).toMatchObject({ suppressed: true, reason: 'below_minimum', annual: null, flagged: false });
  });

  it('the UK figures on 5 April 2026: W1 on leave is not full-pay, her bonus counts', () => {
    expect(report.uk.snapshotDate).toBe('2026-04-05');
    expect(report.uk.counts).toEqual({ female: 3, male: 6, other: 1, unknown: 1 });
    expect(report.uk.fullPayCounts.female).toBe(2);
    // Two full-pay women (W2, W3) are fewer than the minimum of 3: the hourly gap is withheld, not guessed.
    expect(report.uk.hourly.female).toEqual({ count: 2, mean: null, median: null });
    expect(report.uk.hourly.meanGap).toBeNull();
    expect(report.uk.quartiles).toEqual([]);
    // Bonus in the 12 months to 5 April: W1 10,000, W2 5,000; M1 12,000, M2 3,000 (2025-11-01): 2 of 3 women, 2 of 6 men.
    expect(report.uk.receivingBonus).toEqual({ female: 66.67, male: 33.33 });
  });

  it('exports the report as CSV, XLSX and PDF with the method', async () => {
    const csvReply = await request<string>(`/api/pay-equity/report/file?${query}&format=csv`, { headers: admin() });
    expect(csvReply.status).toBe(200);
    const text = String(csvReply.body);
    expect(text).toContain('(a)(c) Pay gap,annual,3,6');
    expect(text).toContain('-7.58');
    expect(text).toContain('Method');
    const pdf = await request<string>(`/api/pay-equity/report/file?${query}&format=pdf`, { headers: admin() });
    expect(pdf.status).toBe(200);
    const xlsx = await request<string>(`/api/pay-equity/report/file?${query}&format=xlsx`, { headers: admin() });
    expect(xlsx.status).toBe(200);
  });

  it('refuses a reference date outside the year with a 400', async () => {
    const reply = await request(`/api/pay-equity/report?year=2026&asOf=2025-12-31`, { headers: admin() });
    expect(reply.status).toBe(400);
  });
});

describe('who may see it', () => {
  it('needs payEquity view and demographics; the module is off for a company without it', async () => {
    expect((await request(`/api/pay-equity/report?${query}`, { headers: bearer(company.users.analyst!) })).status).toBe(403);
    expect((await request(`/api/pay-equity/report?${query}`, { headers: bearer(company.users.compensation_planner!) })).status).toBe(200);
    const db = await testDb();
    const plain = await createTestCompany(db, 'No Equity Co');
    expect((await request(`/api/pay-equity/report?${query}`, { headers: bearer(plain.users.admin!) })).status).toBe(404);
  });
});

describe('Article 10: flagging a category and recording its justification', () => {
  let assessment: Assessment;
  it('flags category A (10.82 %) with a six-month clock and two reminders, refuses the withheld B', async () => {
    const reply = await request<{ data: Assessment }>('/api/pay-equity/assessments', { method: 'POST', headers: admin(), json: { year: 2026, categoryId: A, minimumGroup: 3 } });
    expect(reply.status).toBe(201);
    assessment = reply.body.data;
    expect(assessment).toMatchObject({ categoryId: A, gap: 10.82, status: 'open', version: 1 });
    const flagged = new Date(`${assessment.flaggedOn}T00:00:00Z`);
    const due = new Date(`${assessment.dueDate}T00:00:00Z`);
    expect((due.getUTCFullYear() - flagged.getUTCFullYear()) * 12 + due.getUTCMonth() - flagged.getUTCMonth()).toBe(6);
    const db = await testDb();
    const jobs = (await db('jobs').where({ company_id: company.id, type: 'payEquityAssessmentReminder' }).orderBy('run_after').select('id', 'run_after')) as { id: string; run_after: string }[];
    expect(jobs).toHaveLength(2);
    // A month before the due date, then on it.
    expect(new Date(jobs[0]!.run_after).toISOString().slice(0, 10)).toBe(addMonths(assessment.dueDate, -1));
    expect(new Date(jobs[1]!.run_after).toISOString().slice(0, 10)).toBe(assessment.dueDate);
    // The first reminder's day come: everyone holding payEquity edit (the admin and the compensation planner) is written to.
    await db('jobs').where({ id: jobs[0]!.id }).update({ run_after: new Date().toISOString() });
    expect((await jobEnded(company.users.admin!, jobs[0]!.id)).status).toBe('succeeded');
    const mails = (await db('outbox_emails').where({ company_id: company.id }).where('subject', 'like', 'Joint pay assessment due%').select('to_address')) as { to_address: string }[];
    expect(mails.map((mail) => mail.to_address).sort()).toEqual([company.users.admin!.email, company.users.compensation_planner!.email].sort());
    expect((await request('/api/pay-equity/assessments', { method: 'POST', headers: admin(), json: { year: 2026, categoryId: B, minimumGroup: 3 } })).status).toBe(400);
    expect((await request('/api/pay-equity/assessments', { method: 'POST', headers: admin(), json: { year: 2026, categoryId: A, minimumGroup: 3 } })).status).toBe(409);
  });

  it('records the justification at the version read, audited; a stale version is 409; another company’s id 404', async () => {
    const justified = await request<{ data: Assessment }>(`/api/pay-equity/assessments/${assessment.id}`, {
      method: 'PATCH',
      headers: { ...admin(), 'If-Match': '"1"' },
      json: { status: 'justified', justification: 'M1 leads the on-call rota, a documented responsibility.' },
    });
    expect(justified.status).toBe(200);
    expect(justified.body.data).toMatchObject({ status: 'justified', version: 2 });
    const stale = await request(`/api/pay-equity/assessments/${assessment.id}`, { method: 'PATCH', headers: { ...admin(), 'If-Match': '"1"' }, json: { status: 'closed' } });
    expect(stale.status).toBe(409);
    const without = await request(`/api/pay-equity/assessments/${assessment.id}`, { method: 'PATCH', headers: { ...admin(), 'If-Match': '"2"' }, json: { status: 'remediation' } });
    expect(without.status).toBe(400); // a remediation needs its plan
    const elsewhere = await request(`/api/pay-equity/assessments/${assessment.id}`, { method: 'PATCH', headers: { ...bearer(otherCompany.users.admin!), 'If-Match': '"2"' }, json: { status: 'closed' } });
    expect(elsewhere.status).toBe(404);
    const db = await testDb();
    const audit = (await db('audit_events').where({ company_id: company.id, subject_id: assessment.id }).select('action')) as { action: string }[];
    expect(audit.map((entry) => entry.action).sort()).toEqual(['payEquity.assessment.flagged', 'payEquity.assessment.updated']);
    // The assessment document: a version when flagged and one when justified, each kept as it was.
    const versions = (await db('document_versions').where({ company_id: company.id, subject_type: 'payEquityAssessment', subject_id: assessment.id }).orderBy('created_at').select('content')) as { content: string }[];
    expect(versions).toHaveLength(2);
    expect(versions[0]!.content).toContain('No justification recorded yet.');
    expect(versions[1]!.content).toContain('M1 leads the on-call rota');
  });
});

describe('Article 4: the job evaluation forms the categories', () => {
  const scores = (skills: number, effort: number, responsibility: number, conditions: number) => ({ skills, effort, responsibility, working_conditions: conditions });
  it('lists the jobs unscored, then saves scores under If-Match so equal points make one category', async () => {
    const first = await request<{ data: Evaluation }>('/api/pay-equity/evaluation', { headers: admin() });
    expect(first.status).toBe(200);
    expect(first.body.data.version).toBe(0);
    expect(first.body.data.jobs.map((job) => job.jobId).sort()).toEqual([B, A].sort());
    const factors = first.body.data.factors; // 35 / 20 / 35 / 10, five levels each
    // A: 35 × 4/5 × 10 = 280, 20 × 3/5 × 10 = 120, 35 × 3/5 × 10 = 210, 10 × 2/5 × 10 = 40 → 650.
    // B: 35 × 3/5 × 10 = 210, 120, 35 × 4/5 × 10 = 280, 40 → 650: work of equal value.
    const body = { factors, jobs: [{ jobId: A, scores: scores(4, 3, 3, 2), evidence: 'Designs systems' }, { jobId: B, scores: scores(3, 3, 4, 2), evidence: 'Owns a quota' }] };
    const saved = await request<{ data: Evaluation }>('/api/pay-equity/evaluation', { method: 'PUT', headers: { ...admin(), 'If-Match': '"0"' }, json: body });
    expect(saved.status).toBe(200);
    expect(saved.body.data.version).toBe(1);
    expect(saved.body.data.jobs.map((job) => [job.jobId, job.points, job.categoryId])).toEqual(expect.arrayContaining([[A, 650, 'points:650'], [B, 650, 'points:650']]));
    expect((await request('/api/pay-equity/evaluation', { method: 'PUT', headers: { ...admin(), 'If-Match': '"0"' }, json: body })).status).toBe(409);
    const badWeights = { ...body, factors: factors.map((factor) => ({ ...factor, weight: 30 })) };
    expect((await request('/api/pay-equity/evaluation', { method: 'PUT', headers: { ...admin(), 'If-Match': '"1"' }, json: badWeights })).status).toBe(400);
    // One category of nine women and men: the company's own figures, −7.58 %.
    const reply = await request<{ data: Report }>(`/api/pay-equity/report?${query}`, { headers: admin() });
    expect(reply.body.data.categories.map((category) => category.categoryId)).toEqual(['points:650']);
    expect(reply.body.data.categories[0]!.annual!.total.meanGap).toBe(-7.58);
    const csv = await request<string>('/api/pay-equity/evaluation/file?format=csv', { headers: admin() });
    expect(String(csv.body)).toContain('Owns a quota');
  });

  it('gives a worker their own pay and their category’s levels by sex (for the right to information)', async () => {
    const db = await testDb();
    const levels = await categoryPayLevelsFor(db, { companyId: company.id, employeeId: ids.W2!, asOf: '2026-12-31' });
    expect(levels?.own).toEqual({ annual: 95_000, hourly: 95_000 / 2080, currency: 'USD' });
    expect(levels?.category.categoryId).toBe('points:650');
    // 3 women < 5: withheld; 6 men: mean 94,500, median 90,000.
    expect(levels?.category.bySex.female).toBeNull();
    expect(levels?.category.bySex.male).toMatchObject({ count: 6, meanAnnual: 94_500, medianAnnual: 90_000 });
  });
});

describe('the adjusted gap over HTTP', () => {
  type Adjusted = components['schemas']['PayEquityAdjustedGap'];
  it('fits women and men with the chosen controls and shows each person to whoever sees everyone’s pay', async () => {
    const reply = await request<{ data: Adjusted }>('/api/pay-equity/adjusted-gap?year=2026&controls=family', { headers: admin() });
    expect(reply.status).toBe(200);
    const fit = reply.body.data;
    expect(fit.n).toBe(9); // three women and six men; another gender and none recorded are not in the fit
    expect(fit.decomposition.explained + fit.decomposition.unexplained).toBeCloseTo(fit.decomposition.raw, 10);
    expect(fit.decomposition.unexplained).toBeCloseTo(-fit.coefficient, 10);
    expect(fit.people).toHaveLength(9);
    expect(fit.people.find((entry) => entry.employeeId === ids.W2)?.name).toBe('W2 Person');
    // Pay equity and demographics without everyone's pay: the figures, not the people.
    const role = await request<{ data: { id: string } }>('/api/roles', {
      method: 'POST',
      headers: admin(),
      json: { name: 'Pay equity reader', permissions: { payEquity: [{ authority: 'view', scope: 'all' }], demographics: [{ authority: 'view', scope: 'all' }] } },
    });
    expect(role.status).toBe(200);
    const reader = await createTestUser(await testDb(), { companyId: company.id, roleIds: [role.body.data.id] });
    const seen = await request<{ data: Adjusted }>('/api/pay-equity/adjusted-gap?year=2026&controls=family', { headers: bearer(reader) });
    expect(seen.status).toBe(200);
    expect(seen.body.data.adjustedGap).toBe(fit.adjustedGap);
    expect(seen.body.data.people).toEqual([]);
    const analyst = await request('/api/pay-equity/adjusted-gap?year=2026', { headers: bearer(company.users.analyst!) });
    expect(analyst.status).toBe(403);
    const bad = await request('/api/pay-equity/adjusted-gap?year=2026&controls=shoe_size', { headers: admin() });
    expect(bad.status).toBe(400);
  });
});

describe('the demo company', () => {
  type Adjusted = components['schemas']['PayEquityAdjustedGap'];
  it('gives meaningful figures, and its fit satisfies the normal equations of the intercept and the woman indicator', async () => {
    const db = await testDb();
    const user = (await db('users').where({ email: 'admin@acme.test' }).first()) as { id: string; company_id: string } | undefined;
    if (!user) return; // a server started without the demo
    const token = await createTestUser(db, { companyId: user.company_id, roleIds: [((await db('roles').where({ company_id: user.company_id, key: 'admin' }).first()) as { id: string }).id] });
    const support = await createTestUser(db, { companyId: null, internalAdmin: true });
    await request(`/api/internal/companies/${user.company_id}/release-flags/pay_equity`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    const report = await request<{ data: Report }>('/api/pay-equity/report?year=2026', { headers: bearer(token) });
    expect(report.status).toBe(200);
    expect(report.body.data.counts.female).toBeGreaterThan(50);
    expect(report.body.data.counts.male).toBeGreaterThan(50);
    expect(report.body.data.categories.some((category) => !category.suppressed)).toBe(true);
    const reply = await request<{ data: Adjusted }>('/api/pay-equity/adjusted-gap?year=2026&controls=level,family,location,tenure', { headers: bearer(token) });
    const fit = reply.body.data;
    // Independently of the solver: ln(pay) = ln(predicted) + b × woman + residual for everyone, and the
    // residuals sum to zero over the women and over the men (Xᵀe = 0 for the intercept and the woman columns).
    let women = 0;
    let men = 0;
    for (const entry of fit.people) {
      expect(Math.log(entry.pay)).toBeCloseTo(Math.log(entry.predicted) + (entry.sex === 'female' ? fit.coefficient : 0) + entry.residual, 8);
      if (entry.sex === 'female') women += entry.residual;
      else men += entry.residual;
    }
    expect(Math.abs(women)).toBeLessThan(1e-6);
    expect(Math.abs(men)).toBeLessThan(1e-6);
    expect(fit.adjustedGapInterval[0]).toBeLessThanOrEqual(fit.adjustedGap);
    expect(fit.adjustedGapInterval[1]).toBeGreaterThanOrEqual(fit.adjustedGap);
    // eslint-disable-next-line no-console -- the demo figures the docs quote
    console.log(`demo 2026: raw mean gap ${report.body.data.annual.total.meanGap} %, adjusted ${fit.adjustedGap} % [${fit.adjustedGapInterval.join(', ')}], explained ${fit.decomposition.explainedShare} %, cost to close ${fit.costToClose.total} ${fit.currency} for ${fit.costToClose.people}`);
  });
});
