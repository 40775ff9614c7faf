import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { insertEmployee, insertPay } from './test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };

async function switchOnTeamView(db: Awaited<ReturnType<typeof testDb>>, companyId: string): Promise<void> {
  const support = await createTestUser(db, { companyId, internalAdmin: true });
  const reply = await request(`/api/internal/companies/${companyId}/release-flags/team_view`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
  expect(reply.status).toBe(200);
}

/** A USD company paying 100,000 USD, 80,000 EUR and 50,000 GBP a year. */
async function payingCompany(name: string): Promise<TestCompany> {
  const db = await testDb();
  const company = await createTestCompany(db, name);
  await switchOnTeamView(db, company.id);
  const ana = await insertEmployee(db, company.id, { firstName: 'Ana', lastName: 'Dollar' });
  await insertPay(db, company.id, ana, [{ type: 'base_salary', amount: 10_000_000, effectiveDate: '2025-01-01' }]);
  const eva = await insertEmployee(db, company.id, { firstName: 'Eva', lastName: 'Euro', locationId: 'de_berlin', countryCode: 'DE', currency: 'EUR' });
  await insertPay(db, company.id, eva, [{ type: 'base_salary', amount: 8_000_000, currency: 'EUR', effectiveDate: '2025-01-01' }]);
  const gus = await insertEmployee(db, company.id, { firstName: 'Gus', lastName: 'Pound', locationId: 'gb_london', countryCode: 'GB', currency: 'GBP' });
  await insertPay(db, company.id, gus, [{ type: 'base_salary', amount: 5_000_000, currency: 'GBP', effectiveDate: '2025-01-01' }]);
  return company;
}

const payrollOf = async (user: TestUser) => {
  const reply = await request<Data<Schemas['TeamOverview']>>('/api/team/employees/overview', { headers: bearer(user) });
  expect(reply.status).toBe(200);
  const payroll = reply.body.data.payroll;
  if (!payroll) throw new Error('no payroll in the overview');
  return payroll;
};

// The bundled ECB rates of 9 May 2025: 1 EUR = 1.1252 USD = 0.8477 GBP, so 50,000 GBP is
// 5,000,000 × 1.1252 / 0.8477 = 6,636,781.88 cents → 6,636,782. Both rate dates are before today
// (December 2026) by more than 30 days, so both are flagged.
const GBP_AT_ECB = 6_636_782;

describe("the company's own exchange rates in its payroll", () => {
  let own: TestCompany;
  let plain: TestCompany;

  beforeAll(async () => {
    own = await payingCompany('Own Rates Co');
    plain = await payingCompany('Reference Rates Co');
    const set = await request('/api/company/exchange-rates', {
      method: 'POST',
      headers: bearer(own.users.admin!),
      json: { base: 'EUR', quote: 'USD', rate: '1.25', effectiveDate: '2026-01-01', note: 'Budget rate 2026' },
    });
    expect(set.status).toBe(201);
  });

  it("converts euros at the company's round rate and pounds at the reference rates, and says which", async () => {
    const payroll = await payrollOf(own.users.admin!);
    // 80,000 EUR × 1.25 = 100,000 USD exactly; the ECB rate would have made it 90,016.
    expect(payroll.byCurrency.find((line) => line.currency === 'EUR')?.convertedAnnualBase).toEqual({ amount: 10_000_000, currency: 'USD' });
    expect(payroll.byCurrency.find((line) => line.currency === 'GBP')?.convertedAnnualBase).toEqual({ amount: GBP_AT_ECB, currency: 'USD' });
    expect(payroll.annualBase).toEqual({ amount: 10_000_000 + 10_000_000 + GBP_AT_ECB, currency: 'USD' });
    expect(payroll.rateSource.source).toBe('company_and_reference');
    expect(payroll.rateSource.stale).toBe(true);
    expect(payroll.rateSource.label).toBe(
      "Converted at your company's rate of 1 January 2026 — older than 30 days; where it has set no rate, at the ECB reference rates of 9 May 2025 — older than 30 days.",
    );
    expect(payroll.rates).toContainEqual({ base: 'EUR', currency: 'USD', rate: 1.25, date: '2026-01-01', source: 'Company override' });
  });

  it('uses the reference rates for a company without its own, and names their date as stored', async () => {
    const payroll = await payrollOf(plain.users.admin!);
    // 80,000 EUR × 1.1252 = 90,016 USD.
    expect(payroll.byCurrency.find((line) => line.currency === 'EUR')?.convertedAnnualBase).toEqual({ amount: 9_001_600, currency: 'USD' });
    expect(payroll.annualBase.amount).toBe(10_000_000 + 9_001_600 + GBP_AT_ECB);
    expect(payroll.rateSource.source).toBe('reference');
    expect(payroll.rateSource.label).toBe('Converted at the ECB reference rates of 9 May 2025 — older than 30 days; your company has set no rate of its own for these currencies.');
  });

  it("another company's rate changes nothing here", async () => {
    const payroll = await payrollOf(plain.users.admin!);
    expect(payroll.rates.every((rate) => rate.source === 'European Central Bank')).toBe(true);
  });
});
