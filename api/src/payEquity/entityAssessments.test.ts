import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';
import { type TestCompany, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { request } from '../../test/http.js';

type Report = components['schemas']['PayEquityReport'];
type Assessment = components['schemas']['PayEquityAssessment'];
type Adjusted = components['schemas']['PayEquityAdjustedGap'];

/*
 * Article 10 per employer. One category (Software Engineering · P3), everyone full time at 40 h,
 * base salary only (USD, effective 2025-01-01), reference year 2026, publication minimum 3:
 *   Alpha GmbH  women 88,000  90,000  92,000 (mean 90,000)   men 98,000 100,000 102,000 (mean 100,000)
 *               gap (100,000 − 90,000) ÷ 100,000 = 10.00 %                       → flagged
 *   Beta SAS    women 99,000 100,000 101,000 (mean 100,000)  men 94,000  95,000  96,000 (mean  95,000)
 *               gap (95,000 − 100,000) ÷ 95,000 = −5.263… % → −5.26 % (women paid more) → flagged
 *   group view  women mean 570,000 ÷ 6 = 95,000; men mean 585,000 ÷ 6 = 97,500
 *               gap 2,500 ÷ 97,500 = 2.564… % → 2.56 %                            → not flagged
 * Hourly pay is annual ÷ 2,080 for everyone, so the hourly gaps are the same.
 * The group's small gap hides two employers' gaps of 5 % or more: the trigger is judged per employer.
 */
let company: TestCompany;
const admin = () => bearer(company.users.admin!);
const ALPHA = 'Alpha GmbH';
const BETA = 'Beta SAS';

beforeAll(async () => {
  const db = await testDb();
  company = await createTestCompany(db, 'Two Employers Co');
  const support = await createTestUser(db, { companyId: null, internalAdmin: true });
  expect((await request(`/api/internal/companies/${company.id}/release-flags/pay_equity`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
  const person = async (key: string, gender: string, entity: string, base: number) => {
    const id = await insertEmployee(db, company.id, { firstName: key, lastName: 'Worker', levelId: 'p3', jobFamilyId: 'software_engineering', demographics: { gender } });
    await insertPay(db, company.id, id, [{ type: 'base_salary', amount: base * 100, effectiveDate: '2025-01-01' }]);
    await db('employees').where({ id }).update({ legal_entity: entity });
  };
  for (const [index, base] of [88_000, 90_000, 92_000].entries()) await person(`AW${index}`, 'woman', ALPHA, base);
  for (const [index, base] of [98_000, 100_000, 102_000].entries()) await person(`AM${index}`, 'man', ALPHA, base);
  for (const [index, base] of [99_000, 100_000, 101_000].entries()) await person(`BW${index}`, 'woman', BETA, base);
  for (const [index, base] of [94_000, 95_000, 96_000].entries()) await person(`BM${index}`, 'man', BETA, base);
}, 120_000);

const report = async (entity?: string) => {
  const reply = await request<{ data: Report }>(`/api/pay-equity/report?year=2026&minimumGroup=3${entity ? `&legalEntity=${encodeURIComponent(entity)}` : ''}`, { headers: admin() });
  expect(reply.status).toBe(200);
  const category = reply.body.data.categories.find((entry) => entry.categoryId.startsWith('software_engineering'));
  expect(category).toBeDefined();
  return category!;
};

const flag = (legalEntity: string | undefined, categoryId: string) =>
  request<{ data: Assessment }>('/api/pay-equity/assessments', { method: 'POST', headers: admin(), json: { year: 2026, categoryId, minimumGroup: 3, ...(legalEntity ? { legalEntity } : {}) } });

describe('the Article 10 trigger per legal entity', () => {
  let categoryId = '';

  it('judges the 5 % gap within each employer, not on the group', async () => {
    const group = await report();
    categoryId = group.categoryId;
    expect(group.annual?.total.meanGap).toBe(2.56);
    expect(group).toMatchObject({ flagged: false, unexplained: false, assessment: null });
    const alpha = await report(ALPHA);
    expect(alpha.annual?.total).toMatchObject({ meanGap: 10, medianGap: 10, female: { count: 3, mean: 90_000, median: 90_000 }, male: { count: 3, mean: 100_000, median: 100_000 } });
    expect(alpha.hourly?.total.meanGap).toBe(10);
    expect(alpha).toMatchObject({ flagged: true, unexplained: true, assessment: null });
    const beta = await report(BETA);
    expect(beta.annual?.total.meanGap).toBe(-5.26);
    expect(beta).toMatchObject({ flagged: true, unexplained: true, assessment: null });
  });

  it('flags a category per employer, once each, the group view refusing a gap under 5 %', async () => {
    const groupFlag = await flag(undefined, categoryId);
    expect(groupFlag.status).toBe(400);
    expect(JSON.stringify(groupFlag.body)).toContain('under 5 %');
    const alpha = await flag(ALPHA, categoryId);
    expect(alpha.status).toBe(201);
    expect(alpha.body.data).toMatchObject({ legalEntity: ALPHA, categoryId, gap: 10, status: 'open', year: 2026 });
    const beta = await flag(BETA, categoryId);
    expect(beta.status).toBe(201);
    expect(beta.body.data).toMatchObject({ legalEntity: BETA, gap: -5.26 });
    const twice = await flag(ALPHA, categoryId);
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'already_flagged', message: `This category is already flagged for that year of ${ALPHA}.` });
    expect((await flag('Gamma BV', categoryId)).status).toBe(400);

    const listed = await request<{ data: Assessment[] }>(`/api/pay-equity/assessments?year=2026&legalEntity=${encodeURIComponent(ALPHA)}`, { headers: admin() });
    expect(listed.body.data.map((entry) => [entry.legalEntity, entry.gap])).toEqual([[ALPHA, 10]]);
    const all = await request<{ data: Assessment[] }>('/api/pay-equity/assessments?year=2026', { headers: admin() });
    expect(all.body.data.map((entry) => entry.legalEntity)).toEqual([ALPHA, BETA]);

    // The assessment document names its employer.
    const db = await testDb();
    const versions = (await db('document_versions').where({ company_id: company.id, subject_type: 'payEquityAssessment', subject_id: alpha.body.data.id }).select('content')) as { content: string }[];
    expect(versions).toHaveLength(1);
    expect(versions[0]!.content).toContain(`Joint pay assessment — ${alpha.body.data.categoryName} (${ALPHA}, 2026)`);
    expect(versions[0]!.content).toContain(`In the 2026 pay gap report of ${ALPHA}`);
  });

  it('counts a justified gap as explained, for its employer only', async () => {
    const alpha = (await request<{ data: Assessment[] }>(`/api/pay-equity/assessments?legalEntity=${encodeURIComponent(ALPHA)}`, { headers: admin() })).body.data[0]!;
    const justified = await request<{ data: Assessment }>(`/api/pay-equity/assessments/${alpha.id}`, {
      method: 'PATCH',
      headers: { ...admin(), 'If-Match': `"${alpha.version}"` },
      json: { status: 'justified', justification: 'The three men hold the on-call allowance consolidated into base since 2024, paid for on-call duty the women do not do.' },
    });
    expect(justified.status).toBe(200);
    expect(await report(ALPHA)).toMatchObject({ flagged: true, unexplained: false, assessment: { id: alpha.id, status: 'justified' } });
    expect(await report(BETA)).toMatchObject({ flagged: true, unexplained: true, assessment: { status: 'open' } });
    // The report files say it too, per employer.
    const file = (entity: string) => request<string>(`/api/pay-equity/report/file?year=2026&minimumGroup=3&format=csv&legalEntity=${encodeURIComponent(entity)}`, { headers: admin() });
    expect((await file(ALPHA)).body).toContain('Gap of 5 % or more, explained: assessment justified');
    expect((await file(BETA)).body).toMatch(/Gap of 5 % or more, not justified: joint pay assessment \(open, due \d{4}-\d{2}-\d{2}\)/);
  });
});

describe('the adjusted gap per legal entity', () => {
  // Everyone shares level, family, place and start: with `level` as the control the regression is
  // ln(pay) = a + b × woman, so b = mean ln(women's pay) − mean ln(men's pay), e^b the ratio of
  // the geometric means, and a woman's predicted pay is the men's geometric mean.
  const independent = (women: number[], men: number[]) => {
    const meanLog = (values: number[]) => values.reduce((sum, value) => sum + Math.log(value), 0) / values.length;
    const b = meanLog(women) - meanLog(men);
    const predicted = Math.exp(meanLog(men));
    return { b, gap: Math.round((1 - Math.exp(b)) * 10_000) / 100, cost: Math.round(women.reduce((sum, pay) => sum + Math.max(0, predicted - pay), 0)) };
  };
  const adjusted = async (entity?: string) =>
    request<{ data: Adjusted }>(`/api/pay-equity/adjusted-gap?year=2026&controls=level${entity ? `&legalEntity=${encodeURIComponent(entity)}` : ''}`, { headers: admin() });

  it('is fitted within the chosen employer, checked by hand and by the geometric means', async () => {
    const alpha = await adjusted(ALPHA);
    expect(alpha.status).toBe(200);
    // Alpha: e^b = (88 × 90 × 92 ÷ (98 × 100 × 102))^(1/3) = (728,640 ÷ 999,600)^(1/3) = 0.72893…^(1/3) = 0.899972…
    // → adjusted gap (1 − 0.899972) × 100 = 10.00 %. Men's geometric mean (98,000 × 100,000 × 102,000)^(1/3)
    // = 100,000 × 0.9996^(1/3) = 99,986.66; raises 11,986.66 + 9,986.66 + 7,986.66 = 29,959.99 → 29,960.
    expect(alpha.body.data).toMatchObject({ legalEntity: ALPHA, n: 6, adjustedGap: 10, costToClose: { total: 29_960, people: 3 } });
    expect(alpha.body.data.coefficient).toBeCloseTo(independent([88_000, 90_000, 92_000], [98_000, 100_000, 102_000]).b, 10);
    // Beta: e^b = (99 × 100 × 101 ÷ (94 × 95 × 96))^(1/3) = (999,900 ÷ 857,280)^(1/3) = 1.16636…^(1/3) = 1.052635…
    // → −5.26 %; every woman is paid above the men's geometric mean 94,996.49: nothing to close.
    const beta = await adjusted(BETA);
    expect(beta.body.data).toMatchObject({ legalEntity: BETA, n: 6, adjustedGap: -5.26, costToClose: { total: 0, people: 0 } });
    // The group: all twelve together, 2.67 % and 22,379 — neither employer's figure.
    const group = await adjusted();
    const check = independent([88_000, 90_000, 92_000, 99_000, 100_000, 101_000], [98_000, 100_000, 102_000, 94_000, 95_000, 96_000]);
    expect(check).toMatchObject({ gap: 2.67, cost: 22_379 });
    expect(group.body.data).toMatchObject({ legalEntity: null, n: 12, adjustedGap: check.gap, costToClose: { total: check.cost } });
    expect((await adjusted('Gamma BV')).status).toBe(400);
  });

  it('exports the chosen employer’s adjusted gap as CSV and XLSX', async () => {
    const csv = await request<string>(`/api/pay-equity/adjusted-gap/file?year=2026&controls=level&format=csv&legalEntity=${encodeURIComponent(ALPHA)}`, { headers: admin() });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain('adjusted-pay-gap-2026-alpha-gmbh.csv');
    const lines = csv.body.split(/\r?\n/);
    expect(lines[0]).toBe('Figure,Value,Lower 95 %,Upper 95 %,Sex,Pay,Predicted,Residual,Raise,Note');
    expect(lines[1]).toBe(`Employer,${ALPHA},,,,,,,,Reference year 2026`);
    expect(lines.find((line) => line.startsWith('Adjusted gap %,'))?.split(',')[1]).toBe('10');
    expect(lines.find((line) => line.startsWith('Cost to close,'))?.split(',')[1]).toBe('29960');
    // The admin sees everyone's pay: the six people of Alpha, none of Beta.
    expect(lines.filter((line) => /^AW\d|^AM\d/.test(line))).toHaveLength(6);
    expect(lines.some((line) => line.startsWith('BW'))).toBe(false);
    const xlsx = await request<string>(`/api/pay-equity/adjusted-gap/file?year=2026&format=xlsx&legalEntity=${encodeURIComponent(BETA)}`, { headers: admin() });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
    // Without the demographics permission: nothing by gender.
    const analyst = await request(`/api/pay-equity/adjusted-gap/file?year=2026&format=csv`, { headers: bearer(company.users.analyst!) });
    expect([403]).toContain(analyst.status);
  });
});
