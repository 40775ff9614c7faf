import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { pdfText } from '../documents/test/pdfText.js';
import { insertEmployee, insertGrant, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Statement = Schemas['TotalRewardsStatement'];
type Settings = Schemas['CommunicateSettings'];

// Hand-checked figures (asOf 2024-09-30):
// - 4,800 options, strike $1.00, 48 months from 2023-03-15 with a 12-month cliff, monthly: 1,200 vest
//   on 2024-03-15, then 100 on the 15th of each month; on 2024-09-30 eighteen months have passed, so
//   1,800 are vested and 3,000 are not. At $5.00 a share: vested 1,800 × (5 − 1) = $7,200.00, unvested
//   3,000 × 4 = $12,000.00.
// - The ECB reference rate on 2024-09-30 is 1 EUR = 1.1196 USD (api/reference-data/eurofxref-hist.csv):
//   a base salary of €60,000.00 is $67,176.00; €6,000.00 of bonus is $6,717.60; $7,200.00 is
//   €6,430.87 (720,000 ÷ 1.1196 = 643,086.8 cents).
// - The next 12 months (to 2025-09-30) vest 1,200 more options: $4,800.00, which is €4,287.25.
const AS_OF = '2024-09-30';
const GRANT_START = '2023-03-15';

async function switchOnTotalRewards(db: Knex, companyId: string): Promise<void> {
  const support = await createTestUser(db, { companyId, internalAdmin: true });
  const reply = await request(`/api/internal/companies/${companyId}/release-flags/total_rewards`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
  expect(reply.status).toBe(200);
}

describe('total rewards statements and communicate settings', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let employee: TestUser;
  let manager: TestUser;
  let planner: TestUser;
  let other: TestCompany;
  const ids = { emil: '', manager: '', report: '', outsider: '', usPerson: '' };

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: string } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': init.ifMatch } : {}) },
      ...(init.json !== undefined ? { json: init.json } : {}),
    });

  const statementOf = async (user: TestUser, url = `/api/total-rewards/statement?asOf=${AS_OF}`): Promise<Statement> => {
    const reply = await call<Data<Statement>>(user, url);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data;
  };

  /** The PDF's bytes (read as bytes: it is no text). */
  const pdfOf = async (user: TestUser, url: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> => {
    const reply = await fetch(`${baseUrl()}${url}`, { headers: bearer(user) });
    return { status: reply.status, headers: reply.headers, bytes: Buffer.from(await reply.arrayBuffer()) };
  };

  const settingsNow = async (): Promise<Settings> => {
    const reply = await call<Data<Settings>>(admin, '/api/total-rewards/settings');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('etag')).toBe(`"${reply.body.data.version}"`);
    return reply.body.data;
  };

  const save = async (json: Schemas['CommunicateSettingsDraft']) => {
    const current = await settingsNow();
    const reply = await call<Data<Settings>>(admin, '/api/total-rewards/settings', { method: 'PATCH', ifMatch: `"${current.version}"`, json });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data;
  };

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Total Rewards Co');
    other = await createTestCompany(db, 'Total Rewards Elsewhere');
    admin = company.users.admin as TestUser;
    employee = company.users.employee as TestUser;
    manager = company.users.people_manager as TestUser;
    planner = company.users.compensation_planner as TestUser;
    await switchOnTotalRewards(db, company.id);
    await switchOnTotalRewards(db, other.id);

    const settings = await request<Data<Schemas['CompanySettings']>>('/api/company/settings', { headers: bearer(admin) });
    const shares = await request('/api/company/settings', {
      method: 'PATCH',
      headers: { ...bearer(admin), 'If-Match': `"${settings.body.data.version}"` },
      json: { currency: 'USD', sharePrice: 5, exercisePrice: 1 },
    });
    expect(shares.status).toBe(200);

    const id = company.id;
    ids.manager = await insertEmployee(db, id, { firstName: 'Mara', lastName: 'Manager', userId: manager.id, levelId: 'm4' });
    ids.emil = await insertEmployee(db, id, {
      firstName: 'Emil',
      lastName: 'Employee',
      userId: employee.id,
      managerId: ids.manager,
      currency: 'EUR',
      countryCode: 'DE',
      locationId: null,
      department: 'Engineering',
      startDate: GRANT_START,
    });
    await insertPay(db, id, ids.emil, [
      { type: 'base_salary', amount: 6_000_000, currency: 'EUR', effectiveDate: GRANT_START },
      { type: 'bonus_target', amount: 600_000, currency: 'EUR', effectiveDate: GRANT_START, percentOfBaseBp: 1000 },
      // A raise after the statement's day is not in force on it.
      { type: 'base_salary', amount: 6_600_000, currency: 'EUR', effectiveDate: '2025-04-01', reason: 'promotion' },
    ]);
    await insertGrant(db, id, ids.emil, { type: 'option', shares: 4800, exercisePrice: 100, vestingStartDate: GRANT_START, cliffMonths: 12, vestingMonths: 48 });
    ids.report = await insertEmployee(db, id, { firstName: 'Rui', lastName: 'Report', managerId: ids.manager });
    await insertPay(db, id, ids.report, [{ type: 'base_salary', amount: 9_000_000, effectiveDate: '2022-01-01' }]);
    ids.outsider = await insertEmployee(db, id, { firstName: 'Olga', lastName: 'Outsider', department: 'Sales' });
    ids.usPerson = ids.outsider;
    await insertPay(db, id, ids.outsider, [{ type: 'base_salary', amount: 8_000_000, effectiveDate: '2022-01-01' }]);
  });

  it('gives the employee their own statement with hand-checked vesting, value and currency', async () => {
    const statement = await statementOf(employee);
    expect(statement.viewer).toBe('self');
    expect(statement.sectionOrder).toEqual(['overview', 'timeline', 'compensation', 'salary', 'bonus', 'variablePay', 'equity', 'futureGrants', 'futureModeling', 'benefits', 'aboutUs', 'learningHub']);
    expect(statement.employee).toMatchObject({ firstName: 'Emil', tenure: { years: 1, months: 6, text: '1 year and 6 months' } });
    expect(statement.appearance.bannerText).toBe('Thank you, Emil, for 1 year and 6 months with Total Rewards Co.');

    // The salary in EUR, shown in USD at the ECB rate of the day, which the statement names.
    expect(statement.exchange).toMatchObject({ local: 'EUR', company: 'USD', rate: 1.1196, date: AS_OF });
    expect(statement.exchange.rates).toContainEqual(expect.objectContaining({ base: 'EUR', currency: 'USD', rate: 1.1196, date: AS_OF }));
    const base = statement.salary?.items[0];
    expect(base?.amount).toEqual({ local: { amount: 6_000_000, currency: 'EUR' }, company: { amount: 6_717_600, currency: 'USD' } });
    expect(base?.history).toHaveLength(1);
    const bonus = statement.bonus?.items[0];
    expect(bonus).toMatchObject({ target: 'percent', percentOfBase: 10, amount: { local: { amount: 600_000 }, company: { amount: 671_760 } } });
    expect(statement.compensation?.totalCash).toEqual({ local: { amount: 6_600_000, currency: 'EUR' }, company: { amount: 7_389_360, currency: 'USD' } });

    // 4,800 options: 1,800 vested on the day, at $5.00 less the $1.00 strike.
    const grant = statement.equity?.grants[0];
    expect(grant).toMatchObject({
      grantType: 'option',
      shares: 4800,
      strikePrice: { perShare: 1, currency: 'USD' },
      cliffDate: '2024-03-15',
      vestedShares: 1800,
      unvestedShares: 3000,
      vestedPercent: 37.5,
      nextVestingDate: '2024-10-15',
      fullyVestedDate: '2027-03-15',
      isUnderwater: false,
    });
    expect(grant?.value?.vested).toEqual({ local: { amount: 643_087, currency: 'EUR' }, company: { amount: 720_000, currency: 'USD' } });
    expect(grant?.value?.unvested.company).toEqual({ amount: 1_200_000, currency: 'USD' });
    expect(grant?.schedule[0]).toEqual({ date: '2024-03-15', shares: 1200, cumulativeShares: 1200, vested: true });
    expect(grant?.schedule.filter((event) => event.vested)).toHaveLength(7);
    expect(statement.equity?.price).toEqual({ perShare: 5, currency: 'USD', source: 'company_share_price' });

    // The overview: a year of cash, and the options vesting in the next 12 months.
    const overview = statement.overview;
    expect(overview?.breakdown.map((part) => [part.group, part.amount.company?.amount])).toEqual([
      ['base', 6_717_600],
      ['annualBonus', 671_760],
      ['option', 480_000],
    ]);
    expect(overview?.breakdown[2]?.amount.local).toEqual({ amount: 428_725, currency: 'EUR' });
    expect(overview?.total).toEqual({ local: { amount: 7_028_725, currency: 'EUR' }, company: { amount: 7_869_360, currency: 'USD' } });

    // Still to vest by year, and what the simulator needs.
    expect(statement.futureGrants?.years.map((year) => [year.year, year.shares, year.value?.company?.amount])).toEqual([
      [2024, 300, 120_000],
      [2025, 1200, 480_000],
      [2026, 1200, 480_000],
      [2027, 300, 120_000],
    ]);
    expect(statement.futureModeling).toMatchObject({
      price: { perShare: 5, currency: 'USD' },
      multiples: [1, 2, 3, 5, 10],
      customPriceAllowed: true,
      checkpoints: [AS_OF, '2025-09-30', '2026-09-30', '2027-09-30', '2028-09-30'],
      grants: [{ shares: 4800, strikePerShare: 1, vestedAt: [1800, 3000, 4200, 4800, 4800] }],
    });

    // Hire, pay set, the grant; the raise of 2025 is not in force yet.
    expect(statement.timeline?.events.map((event) => [event.date, event.kind, event.payType])).toEqual([
      [GRANT_START, 'hire', null],
      [GRANT_START, 'pay_change', 'base_salary'],
      [GRANT_START, 'pay_change', 'bonus_target'],
      [GRANT_START, 'grant', null],
    ]);
    expect(statement.learningHub?.articles.map((article) => article.topic)).toEqual(['options', 'rsus', 'cliff', 'vesting', 'liquidity']);
  });

  it('lets nobody read another person’s statement, and admins and managers preview within their reach', async () => {
    for (const target of [ids.report, ids.outsider, ids.manager]) {
      const reply = await call(employee, `/api/total-rewards/statements/${target}`);
      expect(reply.status).toBe(404);
      expect(reply.body.code).toBe('not_found');
      expect((await call(employee, `/api/total-rewards/statements/${target}/pdf`)).status).toBe(404);
    }
    // Their own id is their own statement.
    expect((await statementOf(employee, `/api/total-rewards/statements/${ids.emil}?asOf=${AS_OF}`)).viewer).toBe('self');
    // A manager previews their reports (whose pay they see), not others.
    expect((await statementOf(manager, `/api/total-rewards/statements/${ids.report}`)).viewer).toBe('preview');
    expect((await call(manager, `/api/total-rewards/statements/${ids.outsider}`)).status).toBe(404);
    // Admins and planners reach everyone; another company's admin reaches no one here.
    expect((await statementOf(admin, `/api/total-rewards/statements/${ids.outsider}`)).employee.firstName).toBe('Olga');
    expect((await statementOf(planner, `/api/total-rewards/statements/${ids.emil}?asOf=${AS_OF}`)).equity?.grants[0]?.vestedShares).toBe(1800);
    expect((await call(other.users.admin as TestUser, `/api/total-rewards/statements/${ids.emil}`)).status).toBe(404);
    // Someone without an employee record has no statement of their own.
    expect((await call(admin, '/api/total-rewards/statement')).status).toBe(404);

    const picker = await call<Data<Schemas['TotalRewardsPreviewEmployee'][]>>(manager, '/api/total-rewards/preview-employees');
    expect(picker.body.data.map((row) => row.firstName).sort()).toEqual(['Mara', 'Emil', 'Rui'].sort());
    const search = await call<Data<Schemas['TotalRewardsPreviewEmployee'][]>>(admin, '/api/total-rewards/preview-employees?search=olg');
    expect(search.body.data.map((row) => row.id)).toEqual([ids.outsider]);
    expect((await call<Data<unknown[]>>(employee, '/api/total-rewards/preview-employees')).body.data).toHaveLength(1);
  });

  it('keeps the settings versioned: stale writes are 409, a missing version 428, and only admins change them', async () => {
    const first = await settingsNow();
    const change = { sections: { aboutUs: { enabled: true, title: 'About Total Rewards Co', text: 'We make statements.\n\nAnd we mean them.' } } };
    const saved = await call<Data<Settings>>(admin, '/api/total-rewards/settings', { method: 'PATCH', ifMatch: `"${first.version}"`, json: change });
    expect(saved.status).toBe(200);
    expect(saved.headers.get('etag')).toBe(`"${first.version + 1}"`);
    expect(saved.body.data.sections.aboutUs.title).toBe('About Total Rewards Co');
    expect(saved.body.data.sections.overview).toEqual(first.sections.overview);

    const stale = await call(admin, '/api/total-rewards/settings', { method: 'PATCH', ifMatch: `"${first.version}"`, json: { sections: { aboutUs: { enabled: true, title: 'Lost', text: '' } } } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    expect(stale.headers.get('etag')).toBe(`"${first.version + 1}"`);
    expect((await settingsNow()).sections.aboutUs.title).toBe('About Total Rewards Co');

    expect((await call(admin, '/api/total-rewards/settings', { method: 'PATCH', json: change })).status).toBe(428);
    expect((await call(admin, '/api/total-rewards/settings', { method: 'PATCH', ifMatch: '"1"', json: {} })).status).toBe(400);
    // Reading them is for the whole company's statements; changing them needs edit.
    expect((await call(employee, '/api/total-rewards/settings')).status).toBe(403);
    expect((await call(planner, '/api/total-rewards/settings')).status).toBe(200);
    expect((await call(planner, '/api/total-rewards/settings', { method: 'PATCH', ifMatch: '"1"', json: change })).status).toBe(403);
  });

  it('checks what the contract cannot: the banner’s variables, colours, images, ids and groups', async () => {
    const current = await settingsNow();
    const patch = (json: unknown) => call(admin, '/api/total-rewards/settings', { method: 'PATCH', ifMatch: `"${current.version}"`, json });
    const appearance = { ...current.appearance, bannerText: 'Hello {{firstName}} from {{salary}}' };
    const unknown = await patch({ appearance });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0]).toMatchObject({ field: 'body.appearance.bannerText' });
    expect(unknown.body.errors?.[0]?.message).toContain('{{salary}} is not a variable of this document');
    expect((await patch({ appearance: { ...current.appearance, bannerText: 'Hi {{{firstName}}}' } })).status).toBe(400);
    expect((await patch({ appearance: { ...current.appearance, brandColor: 'red' } })).status).toBe(400);
    const notPng = `data:image/png;base64,${Buffer.from('<svg onload="alert(1)"/>').toString('base64')}`;
    const image = await patch({ appearance: { ...current.appearance, logo: notPng } });
    expect(image.status).toBe(400);
    expect(image.body.errors?.[0]).toEqual({ field: 'body.appearance.logo', message: 'is not a PNG image' });
    const groups = await patch({ benefits: [{ id: 'b1', name: 'Gym', description: '', annualValue: null, userGroupIds: ['nobody'] }] });
    expect(groups.status).toBe(400);
    expect(groups.body.errors?.[0]).toEqual({ field: 'body.benefits[0].userGroupIds', message: 'nobody is not a user group' });
    const custom = await patch({ equityDisplay: { show: 'value', price: 'custom', customPricePerShare: null } });
    expect(custom.body.errors?.[0]?.field).toBe('body.equityDisplay.customPricePerShare');
    expect((await patch({ futureModeling: { multiples: [1, 11], customPriceAllowed: false } })).status).toBe(400);
    expect((await settingsNow()).version).toBe(current.version);
  });

  it('gives each employee the benefits of their user groups', async () => {
    await save({
      userGroups: [
        { id: 'germany', name: 'Germany', rules: { countries: ['DE'], departments: [], employmentTypes: [] } },
        { id: 'us-sales', name: 'US sales', rules: { countries: ['US'], departments: ['sales'], employmentTypes: ['full_time'] } },
      ],
      benefits: [
        { id: 'health-de', name: 'Private health insurance', description: 'For you and your family.', annualValue: { amount: 240_000, currency: 'EUR' }, userGroupIds: ['germany'] },
        { id: '401k', name: '401(k) match', description: '4% of base.', annualValue: { amount: 320_000, currency: 'USD' }, userGroupIds: ['us-sales'] },
        { id: 'lunch', name: 'Lunch', description: 'Every day, in every office.', annualValue: null, userGroupIds: [] },
      ],
    });
    const emil = await statementOf(employee);
    expect(emil.benefits?.items.map((item) => item.id)).toEqual(['health-de', 'lunch']);
    expect(emil.benefits?.total).toEqual({ local: { amount: 240_000, currency: 'EUR' }, company: { amount: 268_704, currency: 'USD' } });
    expect(emil.overview?.breakdown.at(-1)).toMatchObject({ group: 'benefits', amount: { company: { amount: 268_704 } } });
    const olga = await statementOf(admin, `/api/total-rewards/statements/${ids.usPerson}?asOf=${AS_OF}`);
    expect(olga.benefits?.items.map((item) => item.id)).toEqual(['401k', 'lunch']);
    const rui = await statementOf(admin, `/api/total-rewards/statements/${ids.report}?asOf=${AS_OF}`);
    expect(rui.benefits?.items.map((item) => item.id)).toEqual(['lunch']);
    // A group a benefit still names cannot be removed on its own.
    const current = await settingsNow();
    const removal = await call(admin, '/api/total-rewards/settings', { method: 'PATCH', ifMatch: `"${current.version}"`, json: { userGroups: [] } });
    expect(removal.status).toBe(400);
    expect(removal.body.errors?.[0]?.field).toBe('body.userGroups');
  });

  it('leaves a section switched off out of every employee’s statement, and previews drafts without saving them', async () => {
    const before = await settingsNow();
    // The settings' live preview: equity off for this answer only.
    const equityOff = { ...before.sections.equity, enabled: false };
    const preview = await call<Data<Statement>>(admin, `/api/total-rewards/statements/${ids.emil}/preview`, { method: 'POST', json: { settings: { sections: { equity: equityOff } }, asOf: AS_OF } });
    expect(preview.status).toBe(200);
    expect(preview.body.data.viewer).toBe('preview');
    expect(preview.body.data.equity).toBeUndefined();
    expect((await settingsNow()).version).toBe(before.version);
    expect((await call(employee, `/api/total-rewards/statements/${ids.emil}/preview`, { method: 'POST', json: {} })).status).toBe(403);
    const badDraft = await call(admin, `/api/total-rewards/statements/${ids.emil}/preview`, { method: 'POST', json: { settings: { benefits: [{ id: 'x', name: 'X', description: '', annualValue: null, userGroupIds: ['ghost'] }] } } });
    expect(badDraft.body.errors?.[0]?.field).toBe('body.settings.benefits[0].userGroupIds');

    await save({ sections: { equity: equityOff, benefits: { ...before.sections.benefits, enabled: false } } });
    const statement = await statementOf(employee);
    expect(statement.equity).toBeUndefined();
    expect(statement.benefits).toBeUndefined();
    expect(statement.sectionOrder).not.toContain('equity');
    expect(statement.sectionOrder).not.toContain('benefits');
    expect(statement.overview?.breakdown.map((part) => part.group)).toEqual(['base', 'annualBonus']);
    expect(statement.timeline?.events.some((event) => event.kind === 'grant')).toBe(false);
    expect(statement.futureModeling?.annualBenefits).toBeNull();
    const pdf = pdfText((await pdfOf(employee, `/api/total-rewards/statement/pdf?asOf=${AS_OF}`)).bytes);
    expect(pdf).toContain('Base salary');
    expect(pdf).not.toContain('Vested shares');
    expect(pdf).not.toContain('Private health insurance');
    await save({ sections: { equity: before.sections.equity, benefits: before.sections.benefits } });
    expect((await statementOf(employee)).equity?.grants).toHaveLength(1);
  });

  it('downloads the statement as a PDF whose text says the figures', async () => {
    await save({ equityDisplay: { show: 'value', price: 'company_share_price', customPricePerShare: null } });
    const { status, headers, bytes } = await pdfOf(employee, `/api/total-rewards/statement/pdf?asOf=${AS_OF}&currency=company`);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/pdf');
    expect(headers.get('content-disposition')).toContain('total-rewards-emil-employee-2024-09-30.pdf');
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(bytes);
    expect(text).toContain('Total rewards statement: Emil Employee');
    expect(text).toContain('1 EUR = 1.1196 USD');
    expect(text).toContain('$67,176');
    expect(text).toContain('Vested shares');
    expect(text).toContain('1,800 (37.5%)');
    expect(text).toContain('$7,200');
    expect(text).toContain('At 3x the share price ($15.00)');
    expect(text).toContain('$67,200');
    // Windows-1252 puts the euro sign at 0x80.
    const localText = pdfText((await pdfOf(employee, `/api/total-rewards/statement/pdf?asOf=${AS_OF}`)).bytes).replaceAll('\x80', '€');
    expect(localText).toContain('€60,000');
    expect(localText).toContain('Amounts in EUR');
  });

  it('answers odd input without a server error', async () => {
    const early = await statementOf(employee, '/api/total-rewards/statement?asOf=1990-01-01');
    expect(early.exchange.rate).toBeNull();
    expect(early.salary?.items).toEqual([]);
    expect((await call(employee, '/api/total-rewards/statement?asOf=2024-02-30')).status).toBe(400);
    expect((await call(employee, '/api/total-rewards/statement/pdf?currency=yen')).status).toBe(400);
    expect((await call(admin, '/api/total-rewards/statements/not-an-employee')).status).toBe(404);
    const offTheScale = await call(admin, `/api/total-rewards/statements/${ids.emil}/preview`, { method: 'POST', json: { settings: { equityDisplay: { show: 'value', price: 'custom', customPricePerShare: 1e7 } } } });
    expect(offTheScale.status).toBe(400);
  });

  it('is not there while the company does not have total rewards', async () => {
    const off = await createTestCompany(db, 'No Total Rewards');
    const reply = await call(off.users.admin as TestUser, '/api/total-rewards/settings');
    expect(reply.status).toBe(404);
    expect(reply.body.message).toBe('Total rewards is not switched on for your company.');
  });
});
