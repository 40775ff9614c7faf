import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { jobEnded } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { insertJob, queuedJobRow } from '../jobs/store.js';
import { insertEmployee } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Offer = Schemas['Offer'];
type Letter = Schemas['OfferLetter'];

/** A UTC day `days` from today, as the product counts days. */
const day = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const USD = (dollars: number) => ({ amount: dollars * 100, currency: 'USD' });
// An accepted offer starting in five weeks, as in the issue.
const START = day(35);

describe('future hires: an accepted offer before its start date', () => {
  let db: Knex;
  let company: TestCompany;
  let other: TestCompany;
  let admin: TestUser;
  let planner: TestUser;
  let mayaId: string;

  const call = <T>(user: TestUser | null, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...(user ? bearer(user) : {}), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      ...(init.json !== undefined ? { json: init.json } : {}),
    });

  const switchOn = async (companyId: string, flags: string[]) => {
    const support = await createTestUser(db, { companyId, internalAdmin: true });
    for (const flag of flags) expect((await call(support, `/api/internal/companies/${companyId}/release-flags/${flag}`, { method: 'PUT', json: { enabled: true } })).status).toBe(200);
  };

  const candidate = async (firstName: string, lastName: string): Promise<string> => {
    const reply = await call<Data<{ id: string }>>(admin, '/api/candidates', { method: 'POST', json: { email: `${firstName.toLowerCase()}-${company.id.slice(-6)}@candidates.test`, firstName, lastName } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.data.id;
  };

  /** An in-band offer (no bands here: nothing to approve) sent and accepted by its candidate; the offer after. */
  const acceptedOffer = async (candidateId: string, name: string, extra: Record<string, unknown> = {}): Promise<Offer> => {
    const created = await call<Data<Offer>>(planner, '/api/offers', {
      method: 'POST',
      json: {
        candidateId,
        jobFamilyId: 'software_engineering',
        levelId: 'p3',
        locationId: 'us_sf_bay_area',
        department: 'Engineering',
        startDate: START,
        expiresOn: day(10),
        currency: 'USD',
        package: { base: 195_000_00, bonusTargetPercent: 10 },
        ...extra,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const approved = await call<Data<Offer>>(planner, `/api/offers/${created.body.data.id}/submit`, { method: 'POST', ifMatch: created.body.data.version, json: {} });
    expect(approved.body.data.state).toBe('approved');
    const sent = await call<Data<Offer> & { link: { token: string } }>(planner, `/api/offers/${created.body.data.id}/send`, { method: 'POST', ifMatch: approved.body.data.version, json: {} });
    const token = sent.body.link.token;
    const read = await call<Data<Letter>>(null, `/api/offer-letters/${token}`);
    const accepted = await call<Data<Letter>>(null, `/api/offer-letters/${token}/accept`, { method: 'POST', json: { signature: name, offerVersion: read.body.data.offerVersion } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    return (await call<Data<Offer>>(planner, `/api/offers/${created.body.data.id}`)).body.data;
  };

  const headcount = async (): Promise<number> => (await call<Data<Schemas['TeamOverview']>>(admin, '/api/team/employees/overview?status=all')).body.data.headcount;
  const startingSoon = async (): Promise<Schemas['TeamStartingSoon'][]> => (await call<Data<Schemas['TeamStartingSoon'][]>>(admin, '/api/team/starting-soon')).body.data;
  const employee = async (id: string) => call<Data<Schemas['Employee']>>(admin, `/api/employees/${id}`);
  const hireJob = async (employeeId: string) =>
    db('jobs').where({ company_id: company.id, type: 'hireStart' }).whereLike('input', `%${employeeId}%`).first<{ id: string; run_after: string | Date; status: string } | undefined>();
  /** Runs the hire-start job for `employeeId` with its clock set to `asOf`, through the worker; its result. */
  const runHireStart = async (employeeId: string, asOf: string): Promise<{ day: string; started: number; hireStarted: boolean }> => {
    const row = queuedJobRow({ companyId: company.id, ownerUserId: planner.id, type: 'hireStart', input: { employeeId, asOf } });
    await insertJob(db, row);
    expect((await jobEnded(planner, row.id)).status).toBe('succeeded');
    const done = await db('jobs').where({ id: row.id }).first<{ result: string | null }>('result');
    return JSON.parse(done?.result ?? '{}') as { day: string; started: number; hireStarted: boolean };
  };

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Future Hires Co');
    other = await createTestCompany(db, 'Other Hires Co');
    admin = company.users.admin as TestUser;
    planner = company.users.compensation_planner as TestUser;
    await switchOn(company.id, ['offer_letters', 'team_view']);
    await switchOn(other.id, ['offer_letters']);
    mayaId = await insertEmployee(db, company.id, { firstName: 'Maya', lastName: 'Manager', department: 'Engineering', jobFamilyId: 'software_engineering', levelId: 'm1', startDate: '2020-01-01' });
    await insertEmployee(db, company.id, { firstName: 'Ivan', lastName: 'Engineer', managerId: mayaId, jobFamilyId: 'software_engineering', levelId: 'p3', startDate: '2021-01-01' });
  });

  afterAll(async () => {
    // Jobs queued for far-off start dates would otherwise wait in the shared test database.
    await db('jobs').where({ company_id: company.id, type: 'hireStart', status: 'queued' }).delete();
  });

  it('makes a starting person with the offer’s pay and hiring manager, out of head counts until a job starts them on their start date', async () => {
    const before = await headcount();
    const offer = await acceptedOffer(await candidate('Dorothy', 'Vaughan'), 'Dorothy Vaughan', { hiringManagerId: mayaId });
    expect(offer.hiringManager).toEqual({ employeeId: mayaId, name: 'Maya Manager' });
    expect(offer.hire).toEqual({ status: 'starting', employeeId: offer.hiredEmployeeId, startDate: START });
    const hireId = offer.hiredEmployeeId ?? '';

    // Not active: status starting, manager and base from the offer (in force from the start date).
    const record = (await employee(hireId)).body.data;
    expect(record).toMatchObject({ status: 'starting', managerId: mayaId, startDate: START });
    const pay = await call<Data<Schemas['CompensationRecord'][]>>(admin, `/api/employees/${hireId}/compensation`);
    expect(pay.body.data.find((r) => r.type === 'base_salary')).toMatchObject({ amount: USD(195_000), effectiveDate: START });

    // Not in the head count, the people lists, or Maya's reports; in "Starting soon" with the date.
    expect(await headcount()).toBe(before);
    const everyone = await call<Data<Schemas['Employee'][]>>(admin, '/api/employees?status=all&limit=200');
    expect(everyone.body.data.map((e) => e.id)).not.toContain(hireId);
    const reports = await call<Data<Schemas['Employee'][]>>(admin, `/api/employees/${mayaId}/direct-reports`);
    expect(reports.body.data.map((e) => e.lastName)).toEqual(['Engineer']);
    expect(await startingSoon()).toEqual([
      { employeeId: hireId, firstName: 'Dorothy', lastName: 'Vaughan', title: 'Software Engineering', department: 'Engineering', startDate: START, manager: { id: mayaId, name: 'Maya Manager' }, offerId: offer.id },
    ]);
    // Terminating someone who has not started is refused: the way out is cancelling the hire.
    const terminate = await call(admin, `/api/employees/${hireId}/terminate`, { method: 'POST', ifMatch: record.version, json: { terminationDate: day(1) } });
    expect(terminate.status).toBe(409);
    expect(terminate.body).toMatchObject({ code: 'hire_not_started' });

    // Acceptance queued the start for the first moment of the start date (UTC).
    const queued = await hireJob(hireId);
    expect(queued?.status).toBe('queued');
    expect(new Date(queued?.run_after ?? 0).toISOString()).toBe(`${START}T00:00:00.000Z`);

    // The day before the start date the job starts nobody; on the start date it starts them.
    expect(await runHireStart(hireId, day(34))).toEqual({ day: day(34), started: 0, hireStarted: false });
    expect((await employee(hireId)).body.data.status).toBe('starting');
    expect(await runHireStart(hireId, START)).toEqual({ day: START, started: 1, hireStarted: true });
    expect((await employee(hireId)).body.data).toMatchObject({ status: 'active', managerId: mayaId });
    expect(await headcount()).toBe(before + 1);
    expect(await startingSoon()).toEqual([]);
    expect((await call<Data<Offer>>(admin, `/api/offers/${offer.id}`)).body.data).toMatchObject({ hire: { status: 'started' }, actions: [] });

    // Started: the hire can no longer be cancelled.
    const late = await call(admin, `/api/offers/${offer.id}/cancel-hire`, { method: 'POST', ifMatch: offer.version, json: { comment: 'Too late' } });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'hire_started', message: `Dorothy Vaughan started on ${START}: terminate the employee instead.` });
  });

  it('lets an admin cancel a future hire before the start date, recorded on the offer', async () => {
    const candidateId = await candidate('Mary', 'Jackson');
    const offer = await acceptedOffer(candidateId, 'Mary Jackson');
    const hireId = offer.hiredEmployeeId ?? '';
    expect(offer.hire?.status).toBe('starting');
    expect((await employee(hireId)).body.data.managerId).toBeNull();
    expect(offer.actions).toEqual([]); // the planner may not remove an employee record
    expect((await call<Data<Offer>>(admin, `/api/offers/${offer.id}`)).body.data.actions).toEqual(['cancelHire']);

    const byPlanner = await call(planner, `/api/offers/${offer.id}/cancel-hire`, { method: 'POST', ifMatch: offer.version, json: { comment: 'Budget freeze' } });
    expect(byPlanner.status).toBe(403);
    const noReason = await call(admin, `/api/offers/${offer.id}/cancel-hire`, { method: 'POST', ifMatch: offer.version, json: {} });
    expect(noReason.status).toBe(400);
    const elsewhere = await call(other.users.admin as TestUser, `/api/offers/${offer.id}/cancel-hire`, { method: 'POST', ifMatch: offer.version, json: { comment: 'Not ours' } });
    expect(elsewhere.status).toBe(404);

    const cancelled = await call<Data<Offer>>(admin, `/api/offers/${offer.id}/cancel-hire`, { method: 'POST', ifMatch: offer.version, json: { comment: 'Budget freeze' } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({ state: 'hireCancelled', hiredEmployeeId: null, hire: { status: 'cancelled', employeeId: null, startDate: START }, actions: [] });
    expect(cancelled.body.data.history.at(-1)).toMatchObject({ action: 'cancelHire', from: 'accepted', to: 'hireCancelled', comment: 'Budget freeze', actor: { kind: 'user', userId: admin.id } });
    expect((await employee(hireId)).status).toBe(404);
    expect(await startingSoon()).toEqual([]);
    const person = await call<Data<Schemas['Candidate']>>(admin, `/api/candidates/${candidateId}`);
    expect(person.body.data).toMatchObject({ status: 'withdrawn', hiredEmployeeId: null });
    // Its queued start finds nobody to start.
    const queued = await hireJob(hireId);
    expect(queued?.status).toBe('queued');
    expect(await runHireStart(hireId, START)).toEqual({ day: START, started: 0, hireStarted: false });
    // Twice is a refused move.
    const again = await call(admin, `/api/offers/${offer.id}/cancel-hire`, { method: 'POST', ifMatch: cancelled.body.data.version, json: { comment: 'Again' } });
    expect(again.status).toBe(409);
  });

  it('refuses a hiring manager who is not an active employee of the company', async () => {
    const left = await insertEmployee(db, company.id, { firstName: 'Lena', lastName: 'Left', status: 'terminated' });
    const elsewhere = await insertEmployee(db, other.id, { firstName: 'Otto', lastName: 'Other' });
    const candidateId = await candidate('Annie', 'Easley');
    for (const [id, message] of [
      [left, 'Lena Left is not an active employee'],
      [elsewhere, `${elsewhere} is not an employee of this company`],
    ] as const) {
      const reply = await call(planner, '/api/offers', {
        method: 'POST',
        json: { candidateId, jobFamilyId: 'software_engineering', levelId: 'p3', locationId: 'us_sf_bay_area', startDate: START, expiresOn: day(10), currency: 'USD', package: { base: 150_000_00 }, hiringManagerId: id },
      });
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toContainEqual({ field: 'body.hiringManagerId', message });
    }
  });

  it('starts a hire at once when the start date is today', async () => {
    const before = await headcount();
    const offer = await acceptedOffer(await candidate('Christine', 'Darden'), 'Christine Darden', { startDate: day(0) });
    expect(offer.hire).toMatchObject({ status: 'started' });
    expect((await employee(offer.hiredEmployeeId ?? '')).body.data.status).toBe('active');
    expect(await headcount()).toBe(before + 1);
    expect(await hireJob(offer.hiredEmployeeId ?? '')).toBeUndefined();
  });
});
