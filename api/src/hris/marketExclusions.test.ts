import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type PeopleImport = components['schemas']['PeopleImport'];
type Participation = components['schemas']['MarketParticipation'];

async function uploadFile(headers: Record<string, string>, csv: string) {
  return request<{ data: components['schemas']['PeopleImportFile'] } & ErrorBody>('/api/people-imports/files?kind=employees&filename=people.csv', { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: csv });
}

async function finishedImport(headers: Record<string, string>, id: string): Promise<PeopleImport> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const reply = await request<{ data: PeopleImport }>(`/api/people-imports/runs/${id}`, { headers });
    if (!['queued', 'running'].includes(reply.body.data.status)) return reply.body.data;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${reply.body.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const daysAgo = (days: number): string => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

async function runImport(headers: Record<string, string>, csv: string, dryRun: boolean): Promise<PeopleImport> {
  const uploaded = await uploadFile(headers, csv);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  const started = await request<{ data: PeopleImport } & ErrorBody>(`/api/people-imports/files/${uploaded.body.data.id}/runs`, { method: 'POST', headers, json: { dryRun } });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return finishedImport(headers, started.body.data.id);
}

const HEADER = 'Emp ID,First Name,Last Name,Country,Office,Pay Currency,Hire Date,Employment Type,Job Family,Job Level,Annual Base Salary';
const recent = daysAgo(100);
/** Pay dated only by start dates: three hired in 2019 (stale), and others hired 100 days ago. */
const FILE = [
  HEADER,
  `M1,Ada,Old,US,Seattle,USD,2019-03-01,full_time,Software Engineering,P3,150000`,
  `M2,Ben,Old,US,Seattle,USD,2019-04-01,full_time,Software Engineering,P3,151000`,
  `M3,Cy,Old,US,Seattle,USD,2019-05-01,full_time,Software Engineering,P3,152000`,
  `M4,Dee,New,US,Seattle,USD,${recent},full_time,Software Engineering,P3,153000`,
  `M5,Eve,Part,US,Seattle,USD,${recent},part_time,Software Engineering,P3,80000`,
  // Paid in dollars in Nigeria: the naira has no reference rate, the dollar needs none.
  `M6,Femi,Lagos,NG,Lagos,USD,${recent},full_time,Software Engineering,P3,60000`,
  // Paid in pesos in Argentina: no reference rate for the peso.
  `M7,Gabi,Pesos,AR,Buenos Aires,ARS,${recent},full_time,Software Engineering,P3,90000000`,
].join('\n');

const STALE = {
  reason: 'stale_pay',
  employees: 3,
  description: 'Base salary last set more than 24 months before the build',
  fix: "Import each salary with the day it was last set (the Pay effective date column): without one, a new employee's pay is dated from their start date. Pay unchanged for more than 24 months stays out.",
};
const NO_RATE = {
  reason: 'no_exchange_rate',
  employees: 1,
  description: 'Pay in a currency without a reference rate',
  fix: 'Pay them in a currency with a reference rate, or ask support to load rates for their pay currency; pay in US dollars or euros counts anywhere.',
};
const PART_TIME = {
  reason: 'part_time',
  employees: 1,
  description: 'Part-time (no full-time equivalent is recorded to annualise the pay)',
  fix: 'Nothing to fix yet: the market has no full-time equivalent to annualise part-time pay, so part-time employees are left out; import them as full-time only if they are.',
};

describe('a people import says what the market will leave out', () => {
  let company: TestCompany;
  let admin: Record<string, string>;

  beforeAll(async () => {
    company = await createTestCompany(await testDb(), 'Import Warnings Co');
    admin = bearer(company.users.admin!);
  });

  it('in its dry run: three stale salaries, one part-time, one without a rate, each with its fix; the dollar pay in Nigeria counts', async () => {
    const dry = await runImport(admin, FILE, true);
    expect(dry.status, JSON.stringify(dry)).toBe('planned');
    expect(dry.plan?.marketExclusions).toEqual({ activeEmployees: 7, employees: 5, reasons: [STALE, NO_RATE, PART_TIME] });
  });

  it("with each salary's effective date in the file, the stale rows would count", async () => {
    const dated = FILE.split('\n').map((line, index) => (index === 0 ? `${line},Pay Effective Date` : `${line},${daysAgo(30)}`)).join('\n');
    const dry = await runImport(admin, dated, true);
    expect(dry.plan?.marketExclusions).toEqual({ activeEmployees: 7, employees: 2, reasons: [NO_RATE, PART_TIME] });
  });

  it('in its result, and the participation page counts the same by its own rules', async () => {
    const applied = await runImport(admin, FILE, false);
    expect(applied.status, JSON.stringify(applied)).toBe('applied');
    expect(applied.plan?.marketExclusions).toEqual({ activeEmployees: 7, employees: 5, reasons: [STALE, NO_RATE, PART_TIME] });
    const participation = await request<{ data: Participation }>('/api/benchmarking/participation', { headers: admin });
    expect(participation.status).toBe(200);
    expect(Object.fromEntries(participation.body.data.excludedEmployees.map((entry) => [entry.reason, entry.employees]))).toEqual({ stale_pay: 3, no_exchange_rate: 1, part_time: 1 });
    expect(participation.body.data.contributedEmployees).toBe(2);
  });
});
