import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type Employee = components['schemas']['Employee'];
type CompensationRecord = components['schemas']['CompensationRecord'];
type CurrentCompensation = components['schemas']['CurrentCompensation'];
type EquityGrant = components['schemas']['EquityGrant'];
type Schedule = components['schemas']['EquityVestingSchedule'];
type OwnRecord = components['schemas']['OwnEmployeeRecord'];
type Candidate = components['schemas']['Candidate'];
type Page = components['schemas']['Page'];

/**
 * One company with an org tree:
 *   Cora (CEO)
 *   ├── Mia (the people manager's own record)
 *   │   ├── Eve (the employee's own record)
 *   │   ├── Ian
 *   │   └── Lou (manages Kim)
 *   │       └── Kim
 *   └── Oto (outside Mia's organisation)
 */
describe('people records', () => {
  let company: TestCompany;
  let admin: Record<string, string>;
  const ids: Record<string, string> = {};

  const as = (user: TestUser | undefined) => bearer(user as TestUser);
  const get = <T>(url: string, user: TestUser | undefined) => request<{ data: T; page?: Page } & ErrorBody>(url, { headers: as(user) });
  const send = <T>(method: string, url: string, json: unknown, headers: Record<string, string> = admin) =>
    request<{ data: T } & ErrorBody>(url, { method, headers, json });
  const namesOf = (employees: Employee[]) => employees.map((employee) => employee.firstName).sort();

  beforeAll(async () => {
    company = await createTestCompany(await testDb(), 'People Co');
    admin = as(company.users.admin);
    const hire = async (key: string, body: Record<string, unknown>) => {
      const reply = await send<Employee>('POST', '/api/employees', { employeeNumber: `PC-${key}`, firstName: key, lastName: 'Person', ...body });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      ids[key] = reply.body.data.id;
      const pay = await send<CompensationRecord>('POST', `/api/employees/${reply.body.data.id}/compensation`, {
        type: 'base_salary',
        amount: { amount: 100_000_00 + Object.keys(ids).length * 1_000_00, currency: 'USD' },
        effectiveDate: '2024-01-01',
        reason: 'hire',
      });
      expect(pay.status).toBe(201);
    };
    await hire('Cora', { title: 'CEO', levelId: 'e9', jobFamilyId: 'business_operations', locationId: 'us_sf_bay_area' });
    await hire('Mia', { managerId: ids.Cora, email: company.users.people_manager?.email, levelId: 'm4', jobFamilyId: 'software_engineering', department: 'Engineering', demographics: { gender: 'woman', birthYear: 1985 } });
    await hire('Eve', { managerId: ids.Mia, email: company.users.employee?.email.toUpperCase(), levelId: 'p3', jobFamilyId: 'software_engineering', department: 'Engineering', locationId: 'de_berlin' });
    await hire('Ian', { managerId: ids.Mia, levelId: 'p2', jobFamilyId: 'software_engineering', department: 'Engineering', title: 'Software Engineer' });
    await hire('Lou', { managerId: ids.Mia, levelId: 'm3', jobFamilyId: 'infrastructure_engineering', department: 'Engineering' });
    await hire('Kim', { managerId: ids.Lou, levelId: 'p4', jobFamilyId: 'infrastructure_engineering', department: 'Engineering', employmentType: 'contractor' });
    await hire('Oto', { managerId: ids.Cora, levelId: 'p3', jobFamilyId: 'sales', department: 'Sales', locationId: 'gb_london' });
  });

  describe('reach', () => {
    it('gives a people manager their own management subtree, with pay', async () => {
      const reply = await get<Employee[]>('/api/employees?limit=500', company.users.people_manager);
      expect(reply.status).toBe(200);
      expect(namesOf(reply.body.data)).toEqual(['Eve', 'Ian', 'Kim', 'Lou', 'Mia']);
      expect(reply.body.data.every((employee) => employee.compensation?.baseSalary?.amount.currency === 'USD')).toBe(true);
      expect(reply.body.data.some((employee) => 'demographics' in employee)).toBe(false);
    });

    it('answers 404 for anyone outside the subtree, as for an unknown id', async () => {
      const manager = company.users.people_manager;
      expect((await get<Employee>(`/api/employees/${ids.Kim}`, manager)).status).toBe(200);
      for (const outside of [ids.Oto, ids.Cora]) {
        const reply = await get<Employee>(`/api/employees/${outside}`, manager);
        expect(reply.status).toBe(404);
        expect(reply.body).toMatchObject({ code: 'not_found', title: 'Not found' });
        expect((await get(`/api/employees/${outside}/compensation`, manager)).status).toBe(404);
        expect((await get(`/api/employees/${outside}/equity-grants`, manager)).status).toBe(404);
      }
      expect((await get(`/api/employees/${ids.Cora}/direct-reports`, manager)).status).toBe(404);
    });

    it('lists direct reports', async () => {
      const reply = await get<Employee[]>(`/api/employees/${ids.Mia}/direct-reports`, company.users.people_manager);
      expect(namesOf(reply.body.data)).toEqual(['Eve', 'Ian', 'Lou']);
    });

    it('lets an employee read only their own record, with their own pay', async () => {
      const employee = company.users.employee;
      expect((await get('/api/employees', employee)).status).toBe(403);
      expect((await get(`/api/employees/${ids.Eve}`, employee)).status).toBe(403);
      expect((await get(`/api/employees/${ids.Eve}/compensation`, employee)).status).toBe(403);
      const me = await get<OwnRecord>('/api/employees/me', employee);
      expect(me.status).toBe(200);
      expect(me.body.data.employee).toMatchObject({ id: ids.Eve, firstName: 'Eve', email: employee?.email, userId: employee?.id, currency: 'EUR', countryCode: 'DE' });
      expect(me.body.data.employee.compensation?.baseSalary?.amount).toEqual({ amount: 103_000_00, currency: 'USD' });
      expect(me.body.data.employee).not.toHaveProperty('demographics');
    });

    it('says so when the caller has no employee record', async () => {
      const reply = await get('/api/employees/me', company.users.analyst);
      expect(reply.status).toBe(404);
      expect(reply.body.message).toBe('Your sign-in is not linked to an employee record.');
    });

    it('shows pay and demographics only with their permissions: absent, never zero', async () => {
      const analyst = await get<Employee[]>('/api/employees?limit=500', company.users.analyst);
      expect(analyst.body.data).toHaveLength(7);
      expect(analyst.body.data.every((employee) => employee.compensation !== undefined && !('demographics' in employee))).toBe(true);
      const planner = await get<Employee>(`/api/employees/${ids.Mia}`, company.users.compensation_planner);
      expect(planner.body.data.demographics).toEqual({ gender: 'woman', birthYear: 1985 });

      const db = await testDb();
      const role = await send<{ id: string }>('POST', '/api/roles', { name: 'Org chart reader', permissions: { team: [{ authority: 'view', scope: 'all' }] } });
      const reader = await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] });
      const reply = await get<Employee[]>('/api/employees?limit=500', reader);
      expect(reply.body.data).toHaveLength(7);
      for (const employee of reply.body.data) {
        expect(employee).not.toHaveProperty('compensation');
        expect(employee).not.toHaveProperty('performanceRating');
        expect(employee).not.toHaveProperty('demographics');
      }
      expect((await get(`/api/employees/${ids.Oto}/compensation/current`, reader)).status).toBe(403);
    });

    it('limits pay to the pay reach when it is narrower than the team reach', async () => {
      const db = await testDb();
      const role = await send<{ id: string }>('POST', '/api/roles', {
        name: 'Team lead with org view',
        permissions: { team: [{ authority: 'view', scope: 'all' }], employeeCompensation: [{ authority: 'view', scope: 'reports' }] },
      });
      const lead = await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] });
      const link = await get<Employee>(`/api/employees/${ids.Lou}`, company.users.admin);
      await send('PATCH', `/api/employees/${ids.Lou}`, { userId: lead.id }, { ...admin, 'If-Match': `"${link.body.data.version}"` });
      const reply = await get<Employee[]>('/api/employees?limit=500', lead);
      const withPay = reply.body.data.filter((employee) => employee.compensation).map((employee) => employee.firstName).sort();
      expect(reply.body.data).toHaveLength(7);
      expect(withPay).toEqual(['Kim', 'Lou']);
      expect((await get(`/api/employees/${ids.Kim}/compensation`, lead)).status).toBe(200);
      expect((await get(`/api/employees/${ids.Mia}/compensation`, lead)).status).toBe(404);
    });
  });

  describe('the employee list', () => {
    it('searches and filters', async () => {
      const list = async (query: string) => namesOf((await get<Employee[]>(`/api/employees?${query}`, company.users.admin)).body.data);
      expect(await list('search=pc-k')).toEqual(['Kim']);
      expect(await list(`search=${encodeURIComponent(company.users.employee?.email ?? '')}`)).toEqual(['Eve']);
      expect(await list('department=engineering')).toEqual(['Eve', 'Ian', 'Kim', 'Lou', 'Mia']);
      expect(await list('family=software_engineering')).toEqual(['Eve', 'Ian', 'Mia']);
      expect(await list('family=bg_engineering')).toEqual(['Eve', 'Ian', 'Kim', 'Lou', 'Mia']);
      expect(await list('location=150')).toEqual(['Eve', 'Oto']);
      expect(await list('location=gb_london')).toEqual(['Oto']);
      expect(await list('level=p4')).toEqual(['Kim']);
      expect(await list(`manager=${ids.Mia}`)).toEqual(['Eve', 'Ian', 'Lou']);
      expect(await list('employmentType=contractor')).toEqual(['Kim']);
    });

    it('refuses filters that are not in the catalog, naming them', async () => {
      const reply = await get('/api/employees?level=x9&location=mars', company.users.admin);
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual([
        { field: 'query.location', message: 'mars is not a location of the market catalog' },
        { field: 'query.level', message: 'x9 is not a level of the market catalog' },
      ]);
    });

    it('pages by name with an opaque cursor', async () => {
      const seen: string[] = [];
      let cursor: string | null | undefined;
      do {
        const reply = await get<Employee[]>(`/api/employees?limit=3${cursor ? `&cursor=${cursor}` : ''}`, company.users.admin);
        expect(reply.body.page?.limit).toBe(3);
        seen.push(...reply.body.data.map((employee) => employee.firstName));
        cursor = reply.body.page?.nextCursor;
      } while (cursor);
      expect(seen).toEqual(['Cora', 'Eve', 'Ian', 'Kim', 'Lou', 'Mia', 'Oto']);
      expect((await get('/api/employees?cursor=bogus', company.users.admin)).body.errors).toEqual([{ field: 'query.cursor', message: 'is not a valid cursor' }]);
    });
  });

  describe('changes', () => {
    it('links a new employee to the company user with the same e-mail, lower-cased', async () => {
      const eve = await get<Employee>(`/api/employees/${ids.Eve}`, company.users.admin);
      expect(eve.body.data).toMatchObject({ email: company.users.employee?.email, userId: company.users.employee?.id, track: 'tr_p', currency: 'EUR' });
    });

    it('refuses a stale or missing version and changes nothing', async () => {
      const first = await get<Employee>(`/api/employees/${ids.Ian}`, company.users.admin);
      const etag = first.headers.get('etag');
      expect(etag).toBe(`"${first.body.data.version}"`);
      const ok = await send<Employee>('PATCH', `/api/employees/${ids.Ian}`, { title: 'Senior Software Engineer', levelId: 'p4' }, { ...admin, 'If-Match': etag ?? '' });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({ title: 'Senior Software Engineer', levelId: 'p4', version: first.body.data.version + 1 });
      expect(ok.headers.get('etag')).toBe(`"${first.body.data.version + 1}"`);
      const stale = await send('PATCH', `/api/employees/${ids.Ian}`, { title: 'Overwritten' }, { ...admin, 'If-Match': etag ?? '' });
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({ code: 'version_conflict', message: 'Someone else changed this employee first. Reload and try again.' });
      // The refusal names the version now stored, so the client can read again and retry with it.
      expect(stale.headers.get('etag')).toBe(`"${first.body.data.version + 1}"`);
      const missing = await send('PATCH', `/api/employees/${ids.Ian}`, { title: 'Overwritten' });
      expect(missing.status).toBe(428);
      expect((await get<Employee>(`/api/employees/${ids.Ian}`, company.users.admin)).body.data.title).toBe('Senior Software Engineer');
    });

    it('refuses a manager that would make a reporting cycle, with a clear field error', async () => {
      const mia = await get<Employee>(`/api/employees/${ids.Mia}`, company.users.admin);
      const ifMatch = { ...admin, 'If-Match': `"${mia.body.data.version}"` };
      const cycle = await send('PATCH', `/api/employees/${ids.Mia}`, { managerId: ids.Kim }, ifMatch);
      expect(cycle.status).toBe(400);
      expect(cycle.body.errors).toEqual([{ field: 'body.managerId', message: 'would make a reporting cycle: Kim Person already reports to Mia Person (through Lou Person)' }]);
      const direct = await send('PATCH', `/api/employees/${ids.Mia}`, { managerId: ids.Eve }, ifMatch);
      expect(direct.body.errors).toEqual([{ field: 'body.managerId', message: 'would make a reporting cycle: Eve Person already reports to Mia Person' }]);
      const self = await send('PATCH', `/api/employees/${ids.Mia}`, { managerId: ids.Mia }, ifMatch);
      expect(self.body.errors).toEqual([{ field: 'body.managerId', message: 'Mia Person cannot be their own manager' }]);
      expect((await get<Employee>(`/api/employees/${ids.Mia}`, company.users.admin)).body.data.managerId).toBe(ids.Cora);
    });

    it('names every invalid field of a new employee', async () => {
      const reply = await send('POST', '/api/employees', {
        employeeNumber: 'PC-Bad',
        firstName: 'Bad',
        lastName: 'Data',
        jobFamilyId: 'astronautics',
        levelId: 'x9',
        currency: 'XYZ',
        managerId: 'no-such-employee',
      });
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual([
        { field: 'body.jobFamilyId', message: 'astronautics is not a job family of the market catalog' },
        { field: 'body.levelId', message: 'x9 is not a level of the market catalog' },
        { field: 'body.currency', message: 'XYZ is not a current ISO 4217 currency' },
        { field: 'body.managerId', message: 'no-such-employee is not an employee you may assign people to' },
      ]);
      const contract = await send('POST', '/api/employees', { employeeNumber: '', firstName: 'No', lastName: 'Number', countryCode: 'germany' });
      expect(contract.body.errors).toEqual([
        { field: 'body.employeeNumber', message: 'must NOT have fewer than 1 characters' },
        { field: 'body.countryCode', message: 'must match pattern "^[A-Z]{2}$"' },
      ]);
    });

    it('refuses a taken employee number or e-mail with 409', async () => {
      const reply = await send('POST', '/api/employees', { employeeNumber: 'PC-Kim', firstName: 'Kim', lastName: 'Again', email: company.users.employee?.email });
      expect(reply.status).toBe(409);
      expect(reply.body.errors).toEqual([
        { field: 'body.employeeNumber', message: "PC-Kim is already Kim Person's employee number" },
        { field: 'body.email', message: `${company.users.employee?.email} is already Eve Person's e-mail` },
      ]);
    });

    it('needs the demographics permission to write demographics', async () => {
      const db = await testDb();
      const role = await send<{ id: string }>('POST', '/api/roles', { name: 'HR admin without demographics', permissions: { team: [{ authority: 'edit', scope: 'all' }] } });
      const hr = await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] });
      const reply = await send('POST', '/api/employees', { employeeNumber: 'PC-Demo', firstName: 'D', lastName: 'G', demographics: { gender: 'man' } }, as(hr));
      expect(reply.status).toBe(403);
      expect(reply.body.message).toBe('Changing demographics needs the demographics permission (edit).');
    });

    it('terminates an employee, moving their reports to the manager named', async () => {
      const lou = await get<Employee>(`/api/employees/${ids.Lou}`, company.users.admin);
      const ifMatch = { ...admin, 'If-Match': `"${lou.body.data.version}"` };
      const refused = await send('POST', `/api/employees/${ids.Lou}/terminate`, { terminationDate: '2025-03-31' }, ifMatch);
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([{ field: 'body.reassignReportsTo', message: 'is required: Lou Person has 1 active direct report' }]);
      const below = await send('POST', `/api/employees/${ids.Lou}/terminate`, { terminationDate: '2025-03-31', reassignReportsTo: ids.Kim }, ifMatch);
      expect(below.body.errors?.[0]?.message).toBe('would make a reporting cycle: Kim Person already reports to Lou Person');
      const done = await send<Employee>('POST', `/api/employees/${ids.Lou}/terminate`, { terminationDate: '2025-03-31', reassignReportsTo: ids.Mia }, ifMatch);
      expect(done.status).toBe(200);
      expect(done.body.data).toMatchObject({ status: 'terminated', terminationDate: '2025-03-31' });
      expect(done.headers.get('etag')).toBe(`"${lou.body.data.version + 1}"`);
      expect((await get<Employee>(`/api/employees/${ids.Kim}`, company.users.admin)).body.data.managerId).toBe(ids.Mia);
      const again = await send('POST', `/api/employees/${ids.Lou}/terminate`, { terminationDate: '2025-04-01' }, { ...admin, 'If-Match': `"${done.body.data.version}"` });
      expect(again.status).toBe(409);
      const active = await get<Employee[]>('/api/employees?limit=500', company.users.admin);
      expect(namesOf(active.body.data)).not.toContain('Lou');
      const everyone = await get<Employee[]>('/api/employees?limit=500&status=all', company.users.admin);
      expect(namesOf(everyone.body.data)).toContain('Lou');
    });

    it('lets only team editors change records', async () => {
      expect((await send('POST', '/api/employees', { employeeNumber: 'X', firstName: 'X', lastName: 'Y' }, as(company.users.analyst))).status).toBe(403);
      expect((await send('POST', '/api/employees', { employeeNumber: 'X', firstName: 'X', lastName: 'Y' }, as(company.users.people_manager))).status).toBe(403);
    });
  });

  describe('compensation history', () => {
    const url = () => `/api/employees/${ids.Oto}/compensation`;

    it('adds dated records and answers the package in force on a date', async () => {
      const raise = await send<CompensationRecord>('POST', url(), { type: 'base_salary', amount: { amount: 120_000_00, currency: 'GBP' }, effectiveDate: '2025-04-01', reason: 'merit' });
      expect(raise.status).toBe(201);
      expect(raise.body.data).toMatchObject({ type: 'base_salary', amount: { amount: 120_000_00, currency: 'GBP' }, effectiveDate: '2025-04-01', reason: 'merit', source: 'manual', version: 1 });
      await send('POST', url(), { type: 'bonus_target', amount: { amount: 12_000_00, currency: 'GBP' }, percentOfBase: 10, effectiveDate: '2025-04-01' });
      await send('POST', url(), { type: 'commission', amount: { amount: 60_000_00, currency: 'GBP' }, percentOfBase: 50, effectiveDate: '2025-04-01' });
      await send('POST', url(), { type: 'benefits', amount: { amount: 6_000_00, currency: 'GBP' }, effectiveDate: '2024-01-01' });

      const before = await get<CurrentCompensation>(`${url()}/current?asOf=2025-03-31`, company.users.analyst);
      expect(before.body.data.baseSalary?.amount).toEqual({ amount: 107_000_00, currency: 'USD' });
      expect(before.body.data.bonusTarget).toBeNull();
      const after = await get<CurrentCompensation>(`${url()}/current?asOf=2025-04-01`, company.users.analyst);
      expect(after.body.data).toMatchObject({
        asOf: '2025-04-01',
        currency: 'GBP',
        baseSalary: { amount: { amount: 120_000_00, currency: 'GBP' }, percentOfBase: null, effectiveDate: '2025-04-01' },
        bonusTarget: { amount: { amount: 12_000_00, currency: 'GBP' }, percentOfBase: 10 },
        commission: { amount: { amount: 60_000_00, currency: 'GBP' }, percentOfBase: 50 },
        variablePay: null,
        benefits: { amount: { amount: 6_000_00, currency: 'GBP' } },
        totalCash: { amount: 192_000_00, currency: 'GBP' },
      });
      const history = await get<CompensationRecord[]>(`${url()}?type=base_salary`, company.users.analyst);
      expect(history.body.data.map((row) => row.effectiveDate)).toEqual(['2025-04-01', '2024-01-01']);
    });

    it('names what is wrong with a record', async () => {
      const bad = await send('POST', url(), { type: 'base_salary', amount: { amount: -5, currency: 'ABC' }, percentOfBase: 12.345, effectiveDate: '2025-05-01' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([
        { field: 'body.amount.amount', message: 'must not be negative' },
        { field: 'body.amount.currency', message: 'ABC is not a current ISO 4217 currency' },
        { field: 'body.percentOfBase', message: 'is for targets stated against base, not for the base salary itself' },
        { field: 'body.percentOfBase', message: 'must have at most two decimals' },
      ]);
      const shape = await send('POST', url(), { type: 'salary', amount: { amount: 1.5, currency: 'usd' }, effectiveDate: '2025-13-01' });
      expect(shape.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'body.type', message: 'must be one of: base_salary, bonus_target, variable_pay, commission, benefits, one_off_bonus' },
          { field: 'body.amount.amount', message: 'must be integer' },
          { field: 'body.amount.currency', message: 'must match pattern "^[A-Z]{3}$"' },
          { field: 'body.effectiveDate', message: 'must match format "date"' },
        ]),
      );
      const twice = await send('POST', url(), { type: 'base_salary', amount: { amount: 1, currency: 'GBP' }, effectiveDate: '2025-04-01' });
      expect(twice.status).toBe(409);
      expect(twice.body.message).toBe('Oto Person already has a base salary record effective 2025-04-01; correct that record instead.');
    });

    it('corrects a record with its version, refusing a stale one', async () => {
      const [latest] = (await get<CompensationRecord[]>(`${url()}?type=base_salary`, company.users.admin)).body.data;
      const target = `${url()}/${latest?.id}`;
      const fixed = await send<CompensationRecord>('PATCH', target, { amount: { amount: 121_000_00, currency: 'GBP' } }, { ...admin, 'If-Match': '"1"' });
      expect(fixed.status).toBe(200);
      expect(fixed.body.data).toMatchObject({ amount: { amount: 121_000_00, currency: 'GBP' }, version: 2 });
      const stale = await send('PATCH', target, { amount: { amount: 1, currency: 'GBP' } }, { ...admin, 'If-Match': '"1"' });
      expect(stale.status).toBe(409);
      const moved = await send('PATCH', target, { effectiveDate: '2024-01-01' }, { ...admin, 'If-Match': '"2"' });
      expect(moved.status).toBe(409);
      expect(moved.body.code).toBe('record_exists');
    });

    it('deletes a record entered by mistake', async () => {
      const added = await send<CompensationRecord>('POST', url(), { type: 'variable_pay', amount: { amount: 5_00, currency: 'GBP' }, effectiveDate: '2025-06-01' });
      const removed = await send<CompensationRecord>('DELETE', `${url()}/${added.body.data.id}`, undefined);
      expect(removed.status).toBe(200);
      expect(removed.body.data.id).toBe(added.body.data.id);
      expect((await send('DELETE', `${url()}/${added.body.data.id}`, undefined)).status).toBe(404);
    });

    it('lets a people manager read their reports’ pay but not change it', async () => {
      const manager = company.users.people_manager;
      expect((await get(`/api/employees/${ids.Eve}/compensation`, manager)).status).toBe(200);
      const write = await send('POST', `/api/employees/${ids.Eve}/compensation`, { type: 'base_salary', amount: { amount: 1, currency: 'USD' }, effectiveDate: '2025-01-01' }, as(manager));
      expect(write.status).toBe(403);
    });
  });

  describe('equity grants', () => {
    beforeAll(async () => {
      const settings = await get<{ version: number }>('/api/company/settings', company.users.admin);
      const reply = await send('PATCH', '/api/company/settings', { sharePrice: 18.4, exercisePrice: 6.25 }, { ...admin, 'If-Match': `"${settings.body.data.version}"` });
      expect(reply.status).toBe(200);
    });
    const url = () => `/api/employees/${ids.Eve}/equity-grants`;

    it('records an option at the company’s current strike and values its vesting', async () => {
      const created = await send<EquityGrant>('POST', url(), { grantType: 'option', shares: 4_800, grantDate: '2023-03-15', grantNumber: 'PC-OPT-1' });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ grantNumber: 'PC-OPT-1', exercisePrice: { amount: 625, currency: 'USD' }, vestingMonths: 48, cliffMonths: 12, vestingFrequency: 'monthly', vestingStartDate: '2023-03-15' });
      const atCliff = await get<Schedule>(`${url()}/${created.body.data.id}/vesting?asOf=2024-03-15`, company.users.admin);
      expect(atCliff.body.data.vesting).toMatchObject({
        vestedShares: 1_200,
        unvestedShares: 3_600,
        vestedPercent: 25,
        nextVestingDate: '2024-04-15',
        fullyVestedDate: '2027-03-15',
        sharePrice: 18.4,
        isUnderwater: false,
        // 1,200 × ($18.40 − $6.25)
        value: { vested: { amount: 1_458_000, currency: 'USD' }, unvested: { amount: 4_374_000, currency: 'USD' }, total: { amount: 5_832_000, currency: 'USD' } },
      });
      expect(atCliff.body.data.events).toHaveLength(37);
      expect(atCliff.body.data.events[0]).toEqual({ date: '2024-03-15', shares: 1_200, cumulativeShares: 1_200, vested: true });
      expect(atCliff.body.data.events[1]).toEqual({ date: '2024-04-15', shares: 100, cumulativeShares: 1_300, vested: false });
      const before = await get<EquityGrant[]>(`${url()}?asOf=2024-03-14`, company.users.people_manager);
      expect(before.body.data[0]?.vesting.vestedShares).toBe(0);
    });

    it('values an underwater option at zero, never less', async () => {
      const created = await send<EquityGrant>('POST', url(), { grantType: 'option', shares: 1_000, grantDate: '2020-01-01', exercisePrice: { amount: 25_00, currency: 'USD' }, vestingFrequency: 'quarterly' });
      expect(created.body.data.vesting).toMatchObject({ vestedShares: 1_000, isUnderwater: true, value: { vested: { amount: 0 }, unvested: { amount: 0 }, total: { amount: 0 } } });
      expect(created.body.data.grantNumber).toMatch(/^G-[0-9A-F]{10}$/);
    });

    it('names what is wrong with a grant', async () => {
      const reply = await send('POST', url(), { grantType: 'rsu', shares: 10, grantDate: '2024-01-01', exercisePrice: { amount: 100, currency: 'EUR' }, vestingMonths: 12, cliffMonths: 24 });
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual([
        { field: 'body.exercisePrice', message: 'is only for options, not for RSU' },
        { field: 'body.exercisePrice.currency', message: "must be the company's share currency (USD)" },
        { field: 'body.cliffMonths', message: 'must not be more than vestingMonths (12)' },
      ]);
      const taken = await send('POST', url(), { grantType: 'rsu', shares: 10, grantDate: '2024-01-01', grantNumber: 'PC-OPT-1' });
      expect(taken.status).toBe(409);
    });

    it('changes a grant with its version and deletes it', async () => {
      const created = await send<EquityGrant>('POST', url(), { grantType: 'rsu', shares: 400, grantDate: '2024-06-01', reason: 'refresher', cliffMonths: 0, vestingFrequency: 'annually' });
      const target = `${url()}/${created.body.data.id}`;
      const changed = await send<EquityGrant>('PATCH', target, { shares: 800 }, { ...admin, 'If-Match': '"1"' });
      expect(changed.body.data).toMatchObject({ shares: 800, version: 2, reason: 'refresher' });
      expect((await send('PATCH', target, { shares: 900 }, { ...admin, 'If-Match': '"1"' })).status).toBe(409);
      expect((await send('DELETE', target, undefined)).status).toBe(200);
      expect((await get(`${target}/vesting`, company.users.admin)).status).toBe(404);
    });

    it('stops vesting at termination', async () => {
      const grant = await send<EquityGrant>('POST', `/api/employees/${ids.Lou}/equity-grants`, { grantType: 'rsu', shares: 4_800, grantDate: '2023-01-01' });
      expect(grant.body.data.vesting).toMatchObject({ vestedShares: 2_600, vestingEndedOn: '2025-03-31', nextVestingDate: null });
    });

    it('shows the caller their own grants on their record', async () => {
      const me = await get<OwnRecord>('/api/employees/me?asOf=2025-03-15', company.users.employee);
      expect(me.body.data.equityGrants.map((grant) => [grant.grantNumber, grant.vesting.vestedShares])).toEqual([
        [expect.stringMatching(/^G-/), 1_000],
        ['PC-OPT-1', 2_400],
      ]);
      expect(me.body.data.employee.compensation?.asOf).toBe('2025-03-15');
    });
  });

  describe('candidates', () => {
    let candidate: Candidate;

    it('adds a candidate with a lower-cased e-mail that is unique in the company', async () => {
      const reply = await send<Candidate>('POST', '/api/candidates', { email: 'Jo.Doe@Example.TEST', firstName: 'Jo', lastName: 'Doe', title: 'Staff Engineer', levelId: 'p5', locationId: 'ca_toronto', source: 'referral' });
      expect(reply.status).toBe(201);
      candidate = reply.body.data;
      expect(candidate).toMatchObject({ email: 'jo.doe@example.test', currency: 'CAD', countryCode: 'CA', status: 'active', version: 1 });
      const twice = await send('POST', '/api/candidates', { email: 'jo.doe@example.test', firstName: 'Jo', lastName: 'Again' });
      expect(twice.status).toBe(409);
      expect(twice.body.errors).toEqual([{ field: 'body.email', message: 'jo.doe@example.test is already a candidate of this company' }]);
    });

    it('lists, reads and changes candidates with the offers permission', async () => {
      const list = await get<Candidate[]>('/api/candidates?search=staff', company.users.people_manager);
      expect(list.body.data.map((row) => row.email)).toEqual(['jo.doe@example.test']);
      const one = await get<Candidate>(`/api/candidates/${candidate.id}`, company.users.analyst);
      expect(one.headers.get('etag')).toBe('"1"');
      const changed = await send<Candidate>('PATCH', `/api/candidates/${candidate.id}`, { status: 'hired', hiredEmployeeId: ids.Ian }, { ...admin, 'If-Match': '"1"' });
      expect(changed.body.data).toMatchObject({ status: 'hired', hiredEmployeeId: ids.Ian, version: 2 });
      expect((await send('PATCH', `/api/candidates/${candidate.id}`, { status: 'archived' }, { ...admin, 'If-Match': '"1"' })).status).toBe(409);
      expect((await send('POST', '/api/candidates', { email: 'x@example.test', firstName: 'X', lastName: 'Y' }, as(company.users.people_manager))).status).toBe(403);
      expect((await get('/api/candidates', company.users.employee)).status).toBe(403);
      expect((await send('DELETE', `/api/candidates/${candidate.id}`, undefined)).status).toBe(200);
      expect((await get(`/api/candidates/${candidate.id}`, company.users.admin)).status).toBe(404);
    });
  });
});
