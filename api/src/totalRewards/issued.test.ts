import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { jobEnded } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { pdfText } from '../documents/test/pdfText.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Issued = Schemas['IssuedStatement'];

// Hand-checked: Emil's base salary is €60,000.00 (6,000,000 cents) from 2023-03-15; on 2024-09-30 it
// is the one in force. A raise to €72,000.00 dated 2024-06-01 is recorded after the statement was
// issued: the live statement of 2024-09-30 shows €72,000, the issued one still €60,000.
const AS_OF = '2024-09-30';
const TITLE = '2026 total rewards statement';

async function switchOnTotalRewards(db: Knex, companyId: string): Promise<void> {
  const support = await createTestUser(db, { companyId, internalAdmin: true });
  const reply = await request(`/api/internal/companies/${companyId}/release-flags/total_rewards`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
  expect(reply.status).toBe(200);
}

/** A PDF's text with the euro sign read back (Windows-1252 puts it at 0x80). */
const textOf = (bytes: Buffer): string => pdfText(bytes).replaceAll('\x80', '€');

describe('issued total-rewards statements', () => {
  let db: Knex;
  let company: TestCompany;
  let other: TestCompany;
  let admin: TestUser;
  let employee: TestUser;
  const ids = { emil: '', olga: '' };

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown } = {}) =>
    request<T & ErrorBody>(url, { method: init.method ?? 'GET', headers: bearer(user), ...(init.json !== undefined ? { json: init.json } : {}) });

  const pdfOf = async (user: TestUser, url: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> => {
    const reply = await fetch(`${baseUrl()}${url}`, { headers: bearer(user) });
    return { status: reply.status, headers: reply.headers, bytes: Buffer.from(await reply.arrayBuffer()) };
  };

  /** Issues through the API and waits for the job: what an admin does, then sees. */
  const issue = async (json: Schemas['IssueStatementsRequest']): Promise<Schemas['BackgroundJob']> => {
    const reply = await call<Data<Schemas['BackgroundJob']>>(admin, '/api/total-rewards/issued-statements', { method: 'POST', json });
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    const job = await jobEnded(admin, reply.body.data.id);
    expect(job.status, job.message ?? '').toBe('succeeded');
    return job;
  };

  const myIssued = async (user: TestUser): Promise<Issued[]> => {
    const reply = await call<Data<Issued[]>>(user, '/api/total-rewards/issued-statements');
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data;
  };

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Issued Statements Co');
    other = await createTestCompany(db, 'Issued Statements Elsewhere');
    admin = company.users.admin as TestUser;
    employee = company.users.employee as TestUser;
    await switchOnTotalRewards(db, company.id);
    await switchOnTotalRewards(db, other.id);
    ids.emil = await insertEmployee(db, company.id, { firstName: 'Emil', lastName: 'Employee', userId: employee.id, currency: 'EUR', countryCode: 'DE', locationId: null, startDate: '2023-03-15' });
    await insertPay(db, company.id, ids.emil, [{ type: 'base_salary', amount: 6_000_000, currency: 'EUR', effectiveDate: '2023-03-15' }]);
    ids.olga = await insertEmployee(db, company.id, { firstName: 'Olga', lastName: 'Other', department: 'Sales' });
    await insertPay(db, company.id, ids.olga, [{ type: 'base_salary', amount: 8_000_000, effectiveDate: '2022-01-01' }]);
  });

  it('issues one person a statement that keeps what it said after a later pay change, while the live one moves on', async () => {
    expect(await myIssued(employee)).toEqual([]);
    await issue({ title: TITLE, employeeId: ids.emil, asOf: AS_OF });

    const [issued, ...rest] = await myIssued(employee);
    expect(rest).toEqual([]);
    expect(issued).toMatchObject({ title: TITLE, asOf: AS_OF });
    const first = await pdfOf(employee, `/api/total-rewards/issued-statements/${issued?.id ?? ''}/pdf`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/pdf');
    expect(first.headers.get('content-disposition')).toContain('2026-total-rewards-statement.pdf');
    expect(textOf(first.bytes)).toContain(TITLE);
    expect(textOf(first.bytes)).toContain('Issued to Emil Employee');
    expect(textOf(first.bytes)).toContain('€60,000');

    // A raise recorded afterwards, in force on the statement's day.
    await insertPay(db, company.id, ids.emil, [{ type: 'base_salary', amount: 7_200_000, currency: 'EUR', effectiveDate: '2024-06-01' }]);
    const live = await call<Data<Schemas['TotalRewardsStatement']>>(employee, `/api/total-rewards/statement?asOf=${AS_OF}`);
    expect(live.body.data.salary?.items[0]?.amount?.local).toEqual({ amount: 7_200_000, currency: 'EUR' });
    const again = textOf((await pdfOf(employee, `/api/total-rewards/issued-statements/${issued?.id ?? ''}/pdf`)).bytes);
    expect(again).toContain('€60,000');
    expect(again).not.toContain('€72,000');
  });

  it('issues everyone in reach as a job, newest first in each list', async () => {
    const job = await issue({ title: 'Year-end statement', asOf: AS_OF });
    expect(job.progress).toBe(100);
    // Both active employees (Emil and Olga) got one: Olga's is checked in the next test.
    const issuedNow = (await db('document_versions').where({ company_id: company.id }).whereIn('subject_id', [ids.emil, ids.olga]).select('subject_id')) as { subject_id: string }[];
    expect(issuedNow.filter((row) => row.subject_id === ids.olga)).toHaveLength(1);
    expect(issuedNow.filter((row) => row.subject_id === ids.emil)).toHaveLength(2);
    const titles = (await myIssued(employee)).map((item) => item.title);
    expect(titles).toEqual(['Year-end statement', TITLE]);
    const latest = (await myIssued(employee))[0];
    expect(textOf((await pdfOf(employee, `/api/total-rewards/issued-statements/${latest?.id ?? ''}/pdf`)).bytes)).toContain('€72,000');
  });

  it("answers 404 for another person's issued statement and for another company's ids", async () => {
    const olgas = (await db('document_versions').where({ company_id: company.id, subject_id: ids.olga }).select('id')) as { id: string }[];
    expect(olgas).toHaveLength(1);
    const olgaPdf = `/api/total-rewards/issued-statements/${olgas[0]?.id ?? ''}/pdf`;
    expect((await pdfOf(employee, olgaPdf)).status).toBe(404);
    // Positive control: the admin reaches everyone's.
    const adminReads = await pdfOf(admin, olgaPdf);
    expect(adminReads.status).toBe(200);
    expect(textOf(adminReads.bytes)).toContain('$80,000');

    const otherAdmin = other.users.admin as TestUser;
    expect((await pdfOf(otherAdmin, olgaPdf)).status).toBe(404);
    const foreign = await call(otherAdmin, '/api/total-rewards/issued-statements', { method: 'POST', json: { title: TITLE, employeeId: ids.emil } });
    expect(foreign.status).toBe(404);
    expect(await myIssued(other.users.employee as TestUser)).toEqual([]);
  });

  it('lists what was issued in the company for admins, newest first, a page at a time', async () => {
    type Records = { data: Schemas['IssuedStatementRecord'][]; page: Schemas['Page'] };
    const all = await call<Records>(admin, '/api/total-rewards/issued-statements/all');
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    // The year-end issue (Emil and Olga, in one moment) after the first one to Emil.
    expect(all.body.data.map((item) => [item.employeeName, item.title, item.asOf])).toEqual(
      expect.arrayContaining([
        ['Emil Employee', 'Year-end statement', AS_OF],
        ['Olga Other', 'Year-end statement', AS_OF],
      ]),
    );
    expect(all.body.data).toHaveLength(3);
    expect(all.body.data[2]).toMatchObject({ employeeId: ids.emil, employeeName: 'Emil Employee', title: TITLE, asOf: AS_OF });
    expect(all.body.page).toEqual({ limit: 50, nextCursor: null });
    // Two pages of two and one: the same three, in the same order.
    const first = await call<Records>(admin, '/api/total-rewards/issued-statements/all?limit=2');
    expect(first.body.page.nextCursor).not.toBeNull();
    const second = await call<Records>(admin, `/api/total-rewards/issued-statements/all?limit=2&cursor=${encodeURIComponent(first.body.page.nextCursor ?? '')}`);
    expect([...first.body.data, ...second.body.data].map((item) => item.id)).toEqual(all.body.data.map((item) => item.id));
    expect(second.body.page.nextCursor).toBeNull();
    // One employee's only.
    const olgas = await call<Records>(admin, `/api/total-rewards/issued-statements/all?employeeId=${ids.olga}`);
    expect(olgas.body.data.map((item) => item.employeeName)).toEqual(['Olga Other']);
    expect((await call(admin, '/api/total-rewards/issued-statements/all?cursor=nonsense')).status).toBe(400);
    // Not for employees, and nothing of another company's.
    expect((await call(employee, '/api/total-rewards/issued-statements/all')).status).toBe(403);
    expect((await call<Records>(other.users.admin as TestUser, '/api/total-rewards/issued-statements/all')).body.data).toEqual([]);
  });

  it("answers the own-only PDF path with the caller's own statement only, even for admins", async () => {
    const [latest] = await myIssued(employee);
    const own = await pdfOf(employee, `/api/total-rewards/statement/issued/${latest?.id ?? ''}/pdf`);
    expect(own.status).toBe(200);
    expect(textOf(own.bytes)).toContain('Year-end statement');
    // The admin reaches Emil's through the admins' path (the positive control), never through this one.
    expect((await pdfOf(admin, `/api/total-rewards/issued-statements/${latest?.id ?? ''}/pdf`)).status).toBe(200);
    expect((await pdfOf(admin, `/api/total-rewards/statement/issued/${latest?.id ?? ''}/pdf`)).status).toBe(404);
    const olgas = (await db('document_versions').where({ company_id: company.id, subject_id: ids.olga }).select('id')) as { id: string }[];
    expect((await pdfOf(employee, `/api/total-rewards/statement/issued/${olgas[0]?.id ?? ''}/pdf`)).status).toBe(404);
  });

  it('lets only whole-company editors issue, and checks the title', async () => {
    const refused = await call(employee, '/api/total-rewards/issued-statements', { method: 'POST', json: { title: TITLE, employeeId: ids.emil } });
    expect(refused.status).toBe(403);
    const blank = await call(admin, '/api/total-rewards/issued-statements', { method: 'POST', json: { title: '   ' } });
    expect(blank.status).toBe(400);
    expect(JSON.stringify(blank.body.errors)).toContain('body.title');
    expect(await myIssued(employee)).toHaveLength(2);
  });
});
