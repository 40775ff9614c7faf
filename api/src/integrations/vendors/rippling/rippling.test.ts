import { describe, expect, it } from 'vitest';
import type { components } from '../../../contract-types.js';
import { suggestMapping } from '../../../hris/mapping.js';
import { vendorSyncFixture } from '../test/syncFixture.js';
import { RIPPLING_COLUMNS } from './connector.js';
import { type RipplingPerson, RipplingTestServer } from './testServer.js';

type Integration = components['schemas']['Integration'];
type Connector = components['schemas']['IntegrationConnector'];

describe('Rippling: the mapping suggestion on its worker fields', () => {
  it('maps the worker, user, department and compensation fields onto people fields', () => {
    expect(suggestMapping(RIPPLING_COLUMNS, 'employees')).toEqual({
      employeeId: 'id',
      firstName: 'given_name',
      lastName: 'family_name',
      email: 'work_email',
      title: 'title',
      department: 'department',
      managerEmployeeId: 'manager_id',
      country: 'country',
      location: 'work_location',
      currency: 'currency',
      startDate: 'start_date',
      employmentType: 'employment_type',
      status: 'status',
      terminationDate: 'end_date',
      legalEntity: 'legal_entity',
      baseSalary: 'annual_salary',
      bonusTargetPercent: 'target_bonus_percent',
      gender: 'gender',
    });
  });
});

describe('Rippling sync against a server speaking its REST API', () => {
  const rippling = new RipplingTestServer();
  const fixture = vendorSyncFixture({ kind: 'rippling', companyName: 'Rippling Co', vendor: rippling });
  let connection: Integration;
  const person = (id: string, givenName: string, extra: Partial<RipplingPerson> = {}): RipplingPerson => ({
    id,
    number: `R${id}`,
    givenName,
    familyName: 'Doe',
    title: 'Engineer',
    department: 'Engineering',
    managerId: 'w-1',
    workLocationId: 'wl-1',
    country: 'US',
    startDate: '2022-05-02',
    endDate: null,
    status: 'ACTIVE',
    employmentType: 'SALARIED_FT',
    legalEntity: 'Acme Corp',
    salary: 140_000,
    currency: 'USD',
    bonusPercent: 10,
    gender: 'FEMALE',
    ...extra,
  });
  const config = (extra: Record<string, string> = {}) => ({ apiUrl: fixture.baseUrl, apiToken: rippling.apiToken, ...extra });

  it('is available, and a connection test names what is wrong: the token, its scope, redacted pay', async () => {
    rippling.people.push(person('w-1', 'Riley', { title: 'CEO', managerId: null, salary: 250_000, bonusPercent: null }));
    for (let n = 2; n <= 130; n += 1) rippling.people.push(person(`w-${n}`, `P${n}`, { salary: 100_000 + n }));
    rippling.people.push(person('w-131', 'Lee', { workLocationId: 'wl-2', country: 'GB', currency: 'GBP', salary: 80_000, employmentType: 'HOURLY_PT' }));
    rippling.people.push(person('w-132', 'Quinn', { status: 'TERMINATED', endDate: '2024-06-30', workLocationId: null }));
    rippling.people.push(person('w-133', 'Hana', { status: 'HIRED', startDate: '2099-01-04', employmentType: 'CONTRACTOR' }));
    rippling.people.push(person('w-134', 'Draft', { status: 'INIT' }));

    const catalogue = await fixture.api<{ data: Connector[] }>('/api/integration-connectors');
    expect(catalogue.body.data.find((connector) => connector.kind === 'rippling')).toMatchObject({ available: true, availabilityNote: null, category: 'hris' });

    const wrong = await fixture.connect('Wrong token', config({ apiToken: 'nope' }));
    expect(wrong.body.data).toMatchObject({ status: 'error', statusMessage: 'Rippling refused the credentials (401): Invalid token. Check the API key or token and enter it again.' });
    const noScope = await fixture.connect('No scope', config({ apiToken: rippling.noWorkersToken }));
    expect(noScope.body.data.statusMessage).toBe(
      'Rippling denied access to the workers (403): The token does not have the scope workers.read. The API token needs read access to workers, users, departments, work locations, legal entities, employment types and compensation (Settings › Company settings › API tokens).',
    );
    const noPay = await fixture.connect('No pay', config({ apiToken: rippling.noPayToken }));
    expect(noPay.body.data).toMatchObject({ status: 'error', statusMessage: 'Rippling redacts compensation for this API token: give it read access to compensation (Settings › Company settings › API tokens).' });

    rippling.rateLimitNext = 1;
    const reply = await fixture.connect('Rippling', config());
    expect(reply.status).toBe(201);
    connection = reply.body.data;
    expect(connection).toMatchObject({ status: 'connected', statusMessage: 'Connected to Rippling: workers, their work locations and compensation can be read.', secretsSet: ['apiToken'] });
    expect(JSON.stringify(connection)).not.toContain(rippling.apiToken);
  });

  it('a dry run writes nothing; the sync follows next_link over every page and writes people, pay and leavers', async () => {
    const dry = await fixture.sync(connection.id, { dryRun: true });
    expect(dry).toMatchObject({ status: 'planned', rowCount: 133, plan: { create: 133 }, conflicts: [] });
    expect(await fixture.db('employees').where({ company_id: fixture.company.id })).toEqual([]);

    rippling.calls.length = 0;
    const run = await fixture.sync(connection.id);
    expect(run).toMatchObject({ status: 'applied', rowCount: 133, plan: { create: 133, update: 0 } });
    const ceo = await fixture.employee('w-1');
    expect(ceo).toMatchObject({ first_name: 'Riley', title: 'CEO', manager_id: null, legal_entity: 'Acme Corp', currency: 'USD', start_date: '2022-05-02' });
    expect(await fixture.employee('w-2')).toMatchObject({ manager_id: ceo.id, department: 'Engineering', employment_type: 'full_time', email: 'p2@rippling.test' });
    expect(await fixture.employee('w-131')).toMatchObject({ employment_type: 'part_time', currency: 'GBP' });
    expect(await fixture.employee('w-132')).toMatchObject({ status: 'terminated', termination_date: '2024-06-30' });
    expect(await fixture.employee('w-133')).toMatchObject({ status: 'active', employment_type: 'contractor', start_date: '2099-01-04' });
    expect(await fixture.employee('w-134')).toBeUndefined();
    expect(await fixture.payOf('w-1')).toEqual([{ amount: 25_000_000, currency: 'USD', effective_date: '2022-05-02' }]);
    expect(await fixture.payOf('w-131')).toEqual([{ amount: 8_000_000, currency: 'GBP', effective_date: '2022-05-02' }]);
    // 134 workers in pages of 100: the second page by the first one's next_link.
    const pages = rippling.calls.filter((call) => call.startsWith('GET /workers'));
    expect(pages).toHaveLength(2);
    expect(pages[1]).toContain(`cursor=${encodeURIComponent(Buffer.from('100').toString('base64'))}`);
  });

  it('reads everything again and writes only what changed', async () => {
    rippling.update('w-5', { title: 'Senior Engineer', salary: 130_000 });
    const today = new Date().toISOString().slice(0, 10);
    const run = await fixture.sync(connection.id);
    expect(run).toMatchObject({ status: 'applied', rowCount: 133, plan: { create: 0, update: 1, unchanged: 132, compensationRecords: { add: 2 } } });
    expect((await fixture.employee('w-5')).title).toBe('Senior Engineer');
    expect((await fixture.payOf('w-5')).at(-1)).toEqual({ amount: 13_000_000, currency: 'USD', effective_date: today });
    // The 10 % bonus target follows the new base: 13,000 USD. A future hire's unchanged pay is not added again.
    expect(await fixture.db('compensation_records').where({ employee_id: (await fixture.employee('w-5')).id, type: 'bonus_target', effective_date: today }).select('amount')).toEqual([{ amount: 1_300_000 }]);
    expect(await fixture.payOf('w-133')).toEqual([{ amount: 14_000_000, currency: 'USD', effective_date: '2099-01-04' }]);
  });

  it('waits out 429s with their Retry-After and then syncs', async () => {
    rippling.update('w-6', { department: 'Platform' });
    rippling.rateLimitNext = 2;
    const run = await fixture.sync(connection.id);
    expect(run).toMatchObject({ status: 'applied', plan: { update: 1 } });
    expect((await fixture.employee('w-6')).department).toBe('Platform');
  });

  it('fails on a later page with nothing half-written, and the next sync applies the change', async () => {
    rippling.update('w-7', { title: 'Staff Engineer' });
    rippling.failFromOffset = 100;
    const before = await fixture.peopleTables();
    try {
      const run = await fixture.sync(connection.id);
      expect(run).toMatchObject({ status: 'failed', message: 'Rippling answered 503: Service unavailable for the workers, 5 times; it may be down.' });
      expect(await fixture.peopleTables()).toEqual(before);
    } finally {
      rippling.failFromOffset = null;
    }
    const retried = await fixture.sync(connection.id);
    expect(retried).toMatchObject({ status: 'applied', plan: { update: 1 } });
    expect((await fixture.employee('w-7')).title).toBe('Staff Engineer');
  });

  it('keeps a salary corrected in Paybench and reports the conflict', async () => {
    const worker = await fixture.employee('w-8');
    const raise = await fixture.api<{ errors?: unknown }>(`/api/employees/${worker.id}/compensation`, {
      method: 'POST',
      json: { type: 'base_salary', amount: { amount: 15_000_000, currency: 'USD' }, effectiveDate: new Date().toISOString().slice(0, 10), reason: 'adjustment' },
    });
    expect(raise.status, JSON.stringify(raise.body)).toBe(201);
    const run = await fixture.sync(connection.id);
    expect(run.status).toBe('applied');
    expect(run.conflicts).toEqual([{ line: 9, employeeId: 'w-8', field: 'baseSalary', column: 'annual_salary', appValue: '150000.00', systemValue: '100008', setAt: expect.any(String) }]);
    expect((await fixture.payOf('w-8')).at(-1)).toMatchObject({ amount: 15_000_000 });
  });
});
