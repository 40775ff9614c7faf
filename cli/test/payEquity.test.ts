import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { freshConfigHome, paybench } from './support.js';

/*
 * One category (software engineering, P3) of three women and three men, all full-time in USD:
 * women 90,000 100,000 110,000 → mean and median 100,000; men 100,000 110,000 120,000 → 110,000.
 * Gap (110,000 − 100,000) / 110,000 = 9.09 %, mean and median, annual and hourly.
 */
describe('paybench pay-equity report', () => {
  let company: TestCompany;
  let env: Record<string, string>;

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'CLI Equal Pay Co');
    const support = await createTestUser(db, { companyId: null, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/pay_equity`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    const people: [string, number][] = [['woman', 90_000], ['woman', 100_000], ['woman', 110_000], ['man', 100_000], ['man', 110_000], ['man', 120_000]];
    for (const [gender, base] of people) {
      const id = await insertEmployee(db, company.id, { firstName: gender, lastName: String(base), demographics: { gender } });
      await insertPay(db, company.id, id, [{ type: 'base_salary', amount: base * 100, effectiveDate: '2025-01-01' }]);
      await db('employees').where({ id }).update({ legal_entity: 'CLI Equal Pay GmbH' });
    }
    // A second employer: one man at 200,000, outside the GmbH's figures.
    const other = await insertEmployee(db, company.id, { firstName: 'man', lastName: 'Ltd', demographics: { gender: 'man' } });
    await insertPay(db, company.id, other, [{ type: 'base_salary', amount: 200_000 * 100, effectiveDate: '2025-01-01' }]);
    await db('employees').where({ id: other }).update({ legal_entity: 'CLI Equal Pay Ltd' });
    env = { PAYBENCH_TOKEN: company.users.admin!.token, XDG_CONFIG_HOME: freshConfigHome() };
  });

  it('prints the report of one legal entity as JSON over HTTP', () => {
    const run = paybench(['pay-equity', 'report', '--year', '2026', '--format', 'json', '--minimum-group', '3', '--legal-entity', 'CLI Equal Pay GmbH'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { counts: { female: number; male: number }; annual: { total: { meanGap: number; medianGap: number } }; hourly: { total: { meanGap: number } } };
    expect(report.counts).toMatchObject({ female: 3, male: 3 });
    expect(report.annual.total).toMatchObject({ meanGap: 9.09, medianGap: 9.09 });
    expect(report.hourly.total.meanGap).toBe(9.09);
    // Every entity together: men 100,000 110,000 120,000 200,000 → mean 132,500; (132,500 − 100,000) / 132,500 = 24.53 %.
    const group = paybench(['pay-equity', 'report', '--year', '2026', '--format', 'json', '--minimum-group', '3'], env);
    const all = JSON.parse(group.stdout) as { legalEntity: string | null; counts: { male: number }; annual: { total: { meanGap: number } } };
    expect(all).toMatchObject({ legalEntity: null, counts: { male: 4 }, annual: { total: { meanGap: 24.53 } } });
    expect(paybench(['pay-equity', 'report', '--year', '2026', '--legal-entity', 'Nowhere AG'], env).code).toBe(2);
  });

  it('prints one legal entity’s adjusted gap, and writes it as CSV', () => {
    // With level as the only control (the same for all): e^b = (90 × 100 × 110 ÷ (100 × 110 × 120))^(1/3)
    // = 0.75^(1/3) = 0.908560 → (1 − 0.908560) × 100 = 9.14 %. Men's geometric mean
    // (100,000 × 110,000 × 120,000)^(1/3) = 109,696.13: raises 19,696.13 + 9,696.13 = 29,392.26 → 29,392.
    const run = paybench(['pay-equity', 'adjusted-gap', '--year', '2026', '--format', 'json', '--controls', 'level', '--legal-entity', 'CLI Equal Pay GmbH'], env);
    expect(run.stderr).toBe('');
    const gap = JSON.parse(run.stdout) as { legalEntity: string; n: number; adjustedGap: number; costToClose: { total: number; people: number } };
    expect(gap).toMatchObject({ legalEntity: 'CLI Equal Pay GmbH', n: 6, adjustedGap: 9.14, costToClose: { total: 29_392, people: 2 } });
    const summary = paybench(['pay-equity', 'adjusted-gap', '--year', '2026', '--controls', 'level', '--legal-entity', 'CLI Equal Pay GmbH'], env);
    expect(summary.stdout).toContain('9.14 %');
    const csv = paybench(['pay-equity', 'adjusted-gap', '--year', '2026', '--format', 'csv', '--controls', 'level', '--legal-entity', 'CLI Equal Pay GmbH'], env);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toContain('Employer,CLI Equal Pay GmbH');
    expect(csv.stdout).toContain('Adjusted gap %,9.14');
    expect(paybench(['pay-equity', 'adjusted-gap', '--year', '2026', '--threshold', '90'], env).code).toBe(2);
  });

  it('writes the CSV and the PDF', () => {
    const csv = paybench(['pay-equity', 'report', '--year', '2026', '--format', 'csv', '--minimum-group', '3', '--legal-entity', 'CLI Equal Pay GmbH'], env);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toContain('(a)(c) Pay gap,annual,3,3');
    expect(csv.stdout).toContain('9.09');
    const pdf = paybench(['pay-equity', 'report', '--year', '2026', '--format', 'pdf'], env);
    expect(pdf.code).toBe(0);
    expect(pdf.stdout.startsWith('%PDF')).toBe(true);
  });

  it('refuses a bad year or format with exit 2, and a person without the permission with exit 1', () => {
    expect(paybench(['pay-equity', 'report', '--year', 'soon'], env).code).toBe(2);
    expect(paybench(['pay-equity', 'report', '--year', '2026', '--format', 'doc'], env).code).toBe(2);
    const analyst = paybench(['pay-equity', 'report', '--year', '2026', '--format', 'json'], { ...env, PAYBENCH_TOKEN: company.users.analyst!.token });
    expect(analyst.code).toBe(1);
  });
});

/*
 * The job evaluation of Article 4: one job (software engineering P3) scored skills 4, effort 3,
 * responsibility 3, working conditions 2 of five levels under the default weights 35/20/35/10:
 * 35 × 4/5 × 10 + 20 × 3/5 × 10 + 35 × 3/5 × 10 + 10 × 2/5 × 10 = 280 + 120 + 210 + 40 = 650 points.
 */
describe('paybench pay-equity evaluation', () => {
  let env: Record<string, string>;

  beforeAll(async () => {
    const db = await testDb();
    const company = await createTestCompany(db, 'CLI Evaluation Co');
    const support = await createTestUser(db, { companyId: null, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/pay_equity`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    for (const [gender, base] of [['woman', 100_000], ['man', 104_000]] as const) {
      const id = await insertEmployee(db, company.id, { firstName: gender, lastName: String(base), jobFamilyId: 'software_engineering', levelId: 'p3', demographics: { gender } });
      await insertPay(db, company.id, id, [{ type: 'base_salary', amount: base * 100, effectiveDate: '2025-01-01' }]);
    }
    const admin = bearer(company.users.admin!);
    const first = await request<{ data: { version: number; factors: unknown[]; jobs: { jobId: string }[] } }>('/api/pay-equity/evaluation', { headers: admin });
    const jobId = first.body.data.jobs[0]!.jobId;
    const scores = { skills: 4, effort: 3, responsibility: 3, working_conditions: 2 };
    const saved = await request('/api/pay-equity/evaluation', { method: 'PUT', headers: { ...admin, 'If-Match': `"${first.body.data.version}"` }, json: { factors: first.body.data.factors, jobs: [{ jobId, scores, evidence: 'Designs systems' }] } });
    expect(saved.status).toBe(200);
    env = { PAYBENCH_TOKEN: company.users.admin!.token, XDG_CONFIG_HOME: freshConfigHome() };
  });

  it('writes the job evaluation as CSV and PDF, and refuses another format with exit 2', () => {
    const csv = paybench(['pay-equity', 'evaluation'], env);
    expect(csv.stderr).toBe('');
    expect(csv.code).toBe(0);
    const lines = csv.stdout.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines[0]).toBe('Job,Job id,Employees,Skills,Effort,Responsibility,Working conditions,Points,Category,Evidence');
    expect(lines[1]).toMatch(/,2,4,3,3,2,650,.*,Designs systems$/);
    const pdf = paybench(['pay-equity', 'evaluation', '--format', 'pdf'], env);
    expect(pdf.code).toBe(0);
    expect(pdf.stdout.startsWith('%PDF')).toBe(true);
    const doc = paybench(['pay-equity', 'evaluation', '--format', 'doc'], env);
    expect(doc.code).toBe(2);
    expect(doc.stderr).toContain('--format must be csv, xlsx or pdf, not "doc".');
  });
});
