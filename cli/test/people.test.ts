import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi.js';
import { type TestCompany, type TestUser, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { insertEmployee, insertGrant, insertPay } from '../../api/src/team/test/fixtures.js';
import { freshConfigHome, freshRequest, paybench } from './support.js';

type Schemas = components['schemas'];

const pairsOf = (stdout: string): Record<string, string> => Object.fromEntries(stdout.trim().split('\n').map((line) => line.split(/\s{2,}/) as [string, string]));
const rowsOf = (stdout: string): string[][] => stdout.trim().split('\n').map((line) => line.split(/\s{2,}/));

/*
 * Hand-checked figures. Mia manages Ada and Ben. Ada earns 100,000.00 USD from 2024-01-01 and
 * 104,000.00 from 2026-01-01, with a 10% bonus target (10,000.00) from 2024-01-01: on 2025-06-30
 * her total cash is 110,000.00. Her grant of 4,800 RSUs starts vesting on 2022-01-01 over 48 months
 * with a 12-month cliff, monthly: 1,200 at the cliff (2023-01-01), then 100 a month, so on
 * 2024-01-01 2,400 (50%) have vested, the next 100 vest on 2024-02-01 and the last on 2026-01-01,
 * 37 vesting dates in all.
 */
describe('paybench employee records, candidates and offer letters', { timeout: 300_000 }, () => {
  let company: TestCompany;
  let admin: TestUser;
  let env: Record<string, string>;
  const numbers = { mia: '', ada: '' };
  let grantNumber = '';

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'CLI People Co');
    admin = company.users.admin as TestUser;
    const mia = await insertEmployee(db, company.id, { firstName: 'Mia', lastName: 'Manager', title: 'Engineering manager' });
    const ada = await insertEmployee(db, company.id, { firstName: 'Ada', lastName: 'Anchor', managerId: mia, title: 'Engineer', department: 'Platform' });
    await insertEmployee(db, company.id, { firstName: 'Ben', lastName: 'Baker', managerId: mia, title: 'Designer', department: 'Design' });
    await insertPay(db, company.id, ada, [
      { type: 'base_salary', amount: 100_000_00, effectiveDate: '2024-01-01' },
      { type: 'bonus_target', amount: 10_000_00, effectiveDate: '2024-01-01', percentOfBaseBp: 1000 },
      { type: 'base_salary', amount: 104_000_00, effectiveDate: '2026-01-01', reason: 'merit' },
    ]);
    const grant = await insertGrant(db, company.id, ada, { type: 'rsu', shares: 4800, vestingStartDate: '2022-01-01', cliffMonths: 12, vestingMonths: 48, frequency: 'monthly' });
    grantNumber = (await db('equity_grants').where({ id: grant }).first<{ grant_number: string }>()).grant_number;
    const number = async (id: string) => (await db('employees').where({ id }).first<{ employee_number: string }>()).employee_number;
    numbers.mia = await number(mia);
    numbers.ada = await number(ada);
    env = { PAYBENCH_TOKEN: admin.token, XDG_CONFIG_HOME: freshConfigHome() };
  });

  it('lists a manager’s direct reports by the manager’s employee number', () => {
    const run = paybench(['employees', 'reports', numbers.mia], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const rows = rowsOf(run.stdout);
    expect(rows[0]).toEqual(['EMPLOYEE', 'NAME', 'TITLE', 'DEPARTMENT', 'STATUS']);
    expect(rows.slice(1).map((row) => row.slice(1, 4)).sort()).toEqual([
      ['Ada Anchor', 'Engineer', 'Platform'],
      ['Ben Baker', 'Designer', 'Design'],
    ]);
    const json = JSON.parse(paybench(['employees', 'reports', numbers.ada, '--json'], env).stdout) as unknown[];
    expect(json).toEqual([]);
  });

  it('prints the package in force on a date', () => {
    const run = paybench(['employees', 'pay', numbers.ada, '--as-of', '2025-06-30'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(pairsOf(run.stdout)).toMatchObject({
      'As of': '2025-06-30',
      'Base salary': '100,000.00 USD, since 2024-01-01',
      'Bonus target': '10,000.00 USD (10% of base), since 2024-01-01',
      Commission: 'none',
      'Total cash': '110,000.00 USD',
    });
    const later = JSON.parse(paybench(['employees', 'pay', numbers.ada, '--as-of', '2026-06-30', '--json'], env).stdout) as Schemas['CurrentCompensation'];
    expect(later.baseSalary).toMatchObject({ amount: { amount: 104_000_00, currency: 'USD' }, effectiveDate: '2026-01-01' });
    const bad = paybench(['employees', 'pay', numbers.ada, '--as-of', '30/06/2025'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--as-of must be a date such as 2026-12-31, not "30/06/2025".');
  });

  it('prints a grant’s vesting schedule as of a date, the grant by its cap-table id or the only one', () => {
    const run = paybench(['grants', 'vesting', numbers.ada, grantNumber, '--as-of', '2024-01-01'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [pairs, table] = run.stdout.split(/\n(?=DATE)/);
    expect(pairsOf(pairs ?? '')).toMatchObject({ 'As of': '2024-01-01', Vested: '2400 shares (50%), 2400 unvested', 'Next vesting': '2024-02-01', 'Fully vested on': '2026-01-01' });
    const rows = rowsOf(table ?? '');
    expect(rows[0]).toEqual(['DATE', 'SHARES', 'CUMULATIVE', 'VESTED']);
    expect(rows.slice(1, 3)).toEqual([
      ['2023-01-01', '1200', '1200', 'yes'],
      ['2023-02-01', '100', '1300', 'yes'],
    ]);
    expect(rows).toHaveLength(1 + 37);
    expect(rows.at(-1)).toEqual(['2026-01-01', '100', '4800']);
    const only = JSON.parse(paybench(['grants', 'vesting', numbers.ada, '--as-of', '2024-01-01', '--json'], env).stdout) as Schemas['EquityVestingSchedule'];
    expect(only.vesting).toMatchObject({ vestedShares: 2400, unvestedShares: 2400 });
    const unknown = paybench(['grants', 'vesting', numbers.ada, 'G-NOPE'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('This employee has no grant "G-NOPE".');
  });

  it('deletes a saved column mapping by its name', async () => {
    const saved = await freshRequest('/api/people-imports/mappings', { method: 'PUT', token: admin.token, json: { kind: 'employees', name: 'Old payroll', mapping: { employeeId: 'Ref', firstName: 'Given', lastName: 'Surname' } } });
    expect(saved.status).toBe(200);
    const run = paybench(['employees', 'mappings', 'delete', 'Old payroll'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Deleted the mapping Old payroll.\n');
    const left = await freshRequest<{ data: { name: string }[] }>('/api/people-imports/mappings?kind=employees', { token: admin.token });
    expect(left.body.data.map((mapping) => mapping.name)).toEqual([]);
    const gone = paybench(['employees', 'mappings', 'delete', 'Old payroll'], env);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('No saved employees mapping is called "Old payroll".');
  });

  it('shows, corrects and removes a candidate by e-mail, and previews an offer letter', async () => {
    const db = await testDb();
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    expect((await freshRequest(`/api/internal/companies/${company.id}/release-flags/offer_letters`, { method: 'PUT', token: support.token, json: { enabled: true } })).status).toBe(200);
    const email = `lin-${company.id.slice(-6)}@candidates.test`;
    const created = await freshRequest<{ data: Schemas['Candidate'] }>('/api/candidates', { method: 'POST', token: admin.token, json: { email, firstName: 'Lin', lastName: 'Okafr', title: 'Engineer' } });
    expect(created.status).toBe(201);

    const shown = paybench(['candidates', 'show', email], env);
    expect(shown.stderr).toBe('');
    expect(pairsOf(shown.stdout)).toMatchObject({ Name: 'Lin Okafr', 'E-mail': email, Title: 'Engineer', Status: 'active' });
    const fixed = paybench(['candidates', 'update', email, '--last-name', 'Okafor', '--title', 'Senior engineer'], env);
    expect(fixed.stderr).toBe('');
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toBe(`Updated Lin Okafor <${email}>.\n`);
    const stored = await freshRequest<{ data: Schemas['Candidate'] }>(`/api/candidates/${created.body.data.id}`, { token: admin.token });
    expect(stored.body.data).toMatchObject({ lastName: 'Okafor', title: 'Senior engineer', version: created.body.data.version + 1 });
    const nothing = paybench(['candidates', 'update', email], env);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Say what to change');

    // The letter as Lin sees it: 125,000 base with a 10% bonus target is 137,500 total cash.
    const offer = await freshRequest<{ data: { id: string } }>('/api/offers', {
      method: 'POST',
      token: admin.token,
      json: { candidateId: created.body.data.id, jobFamilyId: 'software_engineering', levelId: 'p3', locationId: 'us_sf_bay_area', startDate: '2030-03-02', expiresOn: '2030-02-01', currency: 'USD', package: { base: 125_000_00, bonusTargetPercent: 10 } },
    });
    expect(offer.status).toBe(201);
    const letter = paybench(['offers', 'letter', offer.body.data.id], env);
    expect(letter.stderr).toBe('');
    expect(letter.code).toBe(0);
    expect(letter.stdout).toMatch(/^Candidate\s+Lin Okafor$/m);
    expect(letter.stdout).toMatch(/^Start date\s+2030-03-02$/m);
    const packages = rowsOf(letter.stdout.slice(letter.stdout.indexOf('PACKAGE')));
    expect(packages[0]).toEqual(['PACKAGE', 'BASE', 'BONUS TARGET', 'VARIABLE', 'SIGN-ON', 'TOTAL CASH']);
    expect(packages[1]?.slice(1)).toEqual(['125,000 USD', '12,500 USD', '–', '–', '137,500 USD']);
    // Reading the letter as the company records no view.
    const after = await freshRequest<{ data: { state: string } }>(`/api/offers/${offer.body.data.id}`, { token: admin.token });
    expect(after.body.data.state).toBe('draft');

    const offerless = await freshRequest<{ data: Schemas['Candidate'] }>('/api/candidates', { method: 'POST', token: admin.token, json: { email: `kai-${company.id.slice(-6)}@candidates.test`, firstName: 'Kai', lastName: 'Kim' } });
    const removed = paybench(['candidates', 'delete', offerless.body.data.email], env);
    expect(removed.stderr).toBe('');
    expect(removed.code).toBe(0);
    expect((await freshRequest(`/api/candidates/${offerless.body.data.id}`, { token: admin.token })).status).toBe(404);
    const listed = JSON.parse(paybench(['candidates', 'list', '--json'], env).stdout) as Schemas['Candidate'][];
    expect(listed.map((candidate) => candidate.email)).toEqual([email]);
  });

  it('answers another company’s employee or candidate as not found, exit 1', async () => {
    const other = await createTestCompany(await testDb(), 'CLI Other People Co');
    const stranger = { ...env, PAYBENCH_TOKEN: (other.users.admin as TestUser).token };
    const reports = paybench(['employees', 'reports', numbers.mia], stranger);
    expect(reports.code).toBe(1);
    expect(reports.stderr).toContain('404');
  });
});
