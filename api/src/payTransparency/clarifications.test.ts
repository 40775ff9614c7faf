import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { createMailer } from '../notifications/mailer.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';
import { type TestUser, bearer, createTestUser } from '../../test/factories.js';
import { request } from '../../test/http.js';
import { ownServer } from '../../test/ownServer.js';
import { remindClarificationIfDue } from './jobs.js';
import type { NotifyPorts } from './notify.js';

/*
 * The two things that may happen to an answer after it is prepared: people data changes before it
 * is delivered (the answer goes stale and is prepared again), and the worker finds the delivered
 * answer inaccurate or incomplete and asks for clarification (Art. 7(5)), answered with reasons.
 */

type PayRequest = components['schemas']['PayInformationRequest'];
type Mine = components['schemas']['MyPayInformation'];

const server = ownServer('Clarity Co');
let requester: TestUser;
let colleague: TestUser;
const men: string[] = [];
const women: string[] = [];

const PAID_SINCE = '2025-01-01';
const today = () => new Date().toISOString().slice(0, 10);

async function person(first: string, gender: string, amount: number, userId: string | null = null): Promise<string> {
  const id = await insertEmployee(server.db, server.company.id, { firstName: first, lastName: 'Clear', userId, currency: 'EUR', levelId: 'p3', jobFamilyId: 'software_engineering', demographics: { gender } });
  await insertPay(server.db, server.company.id, id, [{ type: 'base_salary', amount: amount * 100, currency: 'EUR', effectiveDate: PAID_SINCE }]);
  return id;
}

beforeAll(async () => {
  const { db, company } = server;
  await db('companies').where({ id: company.id }).update({ currency: 'EUR' });
  const support = await createTestUser(db, { companyId: null, internalAdmin: true });
  const employeeRole = company.roleIds.get('employee') ?? '';
  requester = await createTestUser(db, { companyId: company.id, roleIds: [employeeRole] });
  colleague = await createTestUser(db, { companyId: company.id, roleIds: [employeeRole] });
  // One category (Software Engineering · P3), full time, base salary only, in euros:
  //   women 40,000 50,000 60,000 (the requester) 70,000 80,000
  //   men   50,000 60,000 70,000 80,000 90,000
  for (const [index, amount] of [40_000, 50_000, 60_000, 70_000, 80_000].entries()) women.push(await person(`W${index + 1}`, 'woman', amount, amount === 60_000 ? requester.id : null));
  for (const [index, amount] of [50_000, 60_000, 70_000, 80_000, 90_000].entries()) men.push(await person(`M${index + 1}`, 'man', amount, index === 0 ? colleague.id : null));
  const reply = await request(`/api/internal/companies/${company.id}/release-flags/pay_equity`, { method: 'PUT', base: server.url, headers: bearer(support), json: { enabled: true } });
  expect(reply.status).toBe(200);
}, 120_000);

const api = <T>(user: TestUser, path: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) => server.call<T>(user, path, init);

describe('an answer whose pay data changed before delivery', () => {
  let id = '';

  it('is marked stale, cannot be delivered as it is, and is prepared again with the new figures', async () => {
    const filed = await api<{ data: PayRequest }>(requester, '/api/pay-transparency/me/requests', { method: 'POST', json: {} });
    expect(filed.status).toBe(201);
    id = filed.body.data.id;
    // The employee never sees whether HR's draft is stale.
    expect(filed.body.data.stale).toBeNull();
    const prepared = await api<{ data: PayRequest }>(server.admin, `/api/pay-transparency/requests/${id}`);
    expect(prepared.body.data.stale).toBe(false);
    // Men 50,000 60,000 70,000 80,000 90,000: mean 350,000 / 5 = 70,000, median 70,000;
    // hourly 70,000 / 2,080 = 33.653… → 33.65. Own 60,000 / 2,080 = 28.846… → 28.85.
    expect(prepared.body.data.answer?.bySex.male).toEqual({ count: 5, meanAnnual: 70_000, meanHourly: 33.65, medianAnnual: 70_000, medianHourly: 33.65 });
    expect(prepared.body.data.answer?.own).toEqual({ annual: 60_000, hourly: 28.85 });

    // M5 is raised to 100,000 from today: the men's mean becomes 360,000 / 5 = 72,000.
    await insertPay(server.db, server.company.id, men[4] ?? '', [{ type: 'base_salary', amount: 100_000 * 100, currency: 'EUR', effectiveDate: today() }]);
    const stale = await api<{ data: PayRequest }>(server.admin, `/api/pay-transparency/requests/${id}`);
    expect(stale.body.data).toMatchObject({ stale: true, version: 1 });
    const queue = await api<{ data: PayRequest[] }>(server.admin, '/api/pay-transparency/requests');
    expect(queue.body.data.find((entry) => entry.id === id)?.stale).toBe(true);
    const refused = await api(server.admin, `/api/pay-transparency/requests/${id}/approve`, { method: 'POST', json: {}, ifMatch: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'answer_stale' });

    expect((await api(requester, `/api/pay-transparency/requests/${id}/prepare`, { method: 'POST', ifMatch: 1 })).status).toBe(403);
    expect((await api(server.admin, `/api/pay-transparency/requests/${id}/prepare`, { method: 'POST', ifMatch: 5 })).body).toMatchObject({ code: 'version_conflict' });
    const again = await api<{ data: PayRequest }>(server.admin, `/api/pay-transparency/requests/${id}/prepare`, { method: 'POST', ifMatch: 1 });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ stale: false, version: 2, state: 'review' });
    // Men 50,000 60,000 70,000 80,000 100,000: mean 72,000, median 70,000; 72,000 / 2,080 = 34.615… → 34.62.
    expect(again.body.data.answer?.bySex.male).toEqual({ count: 5, meanAnnual: 72_000, meanHourly: 34.62, medianAnnual: 70_000, medianHourly: 33.65 });
    expect(again.body.data.answer?.asOf).toBe(today());
    expect(again.body.data.history.map((entry) => [entry.action, entry.comment])).toEqual([
      ['file', 'Answer prepared from people data.'],
      ['prepare', `Answer prepared again from people data of ${today()}.`],
    ]);
    const delivered = await api<{ data: PayRequest }>(server.admin, `/api/pay-transparency/requests/${id}/approve`, { method: 'POST', json: {}, ifMatch: 2 });
    expect(delivered.body.data).toMatchObject({ state: 'delivered', stale: null });
    const late = await api(server.admin, `/api/pay-transparency/requests/${id}/prepare`, { method: 'POST', ifMatch: 3 });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'invalid_transition' });
  });

  it('asks the worker for a question, not an empty one, only on their own delivered answer', async () => {
    expect((await api(requester, `/api/pay-transparency/me/requests/${id}/clarifications`, { method: 'POST', json: { question: '   ' } })).status).toBe(400);
    expect((await api(colleague, `/api/pay-transparency/me/requests/${id}/clarifications`, { method: 'POST', json: { question: 'Mine?' } })).status).toBe(404);
    // The colleague's own answer is still waiting: nothing to clarify yet.
    const theirs = await api<{ data: PayRequest }>(colleague, '/api/pay-transparency/me/requests', { method: 'POST', json: {} });
    const early = await api(colleague, `/api/pay-transparency/me/requests/${theirs.body.data.id}/clarifications`, { method: 'POST', json: { question: 'Where is it?' } });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'not_delivered' });
  });

  it('takes the worker’s question for clarification, with its due date, HR told and reminded', async () => {
    const asked = await api<{ data: PayRequest }>(requester, `/api/pay-transparency/me/requests/${id}/clarifications`, { method: 'POST', json: { question: 'My commission is missing from my pay level.' } });
    expect(asked.status).toBe(201);
    const question = asked.body.data.clarifications[0];
    expect(question).toMatchObject({ state: 'open', question: 'My commission is missing from my pay level.', askedOn: today(), reply: null, answer: null, overdue: false, version: 1 });
    // Two months after the question, reminded 14 days before (as the answer's own deadline).
    const [ay, am, ad] = (question?.askedOn ?? '').split('-').map(Number) as [number, number, number];
    const [dy, dm, dd] = (question?.dueOn ?? '').split('-').map(Number) as [number, number, number];
    expect((dy - ay) * 12 + (dm - am)).toBe(2);
    expect(dd).toBe(Math.min(ad, new Date(Date.UTC(dy, dm, 0)).getUTCDate()));
    expect(Date.parse(question?.dueOn ?? '') - Date.parse(question?.reminderOn ?? '')).toBe(14 * 86_400_000);
    const job = await server.db('jobs').where({ company_id: server.company.id, type: 'payInformationClarificationReminder', status: 'queued' }).whereLike('input', `%${question?.id}%`).first<{ run_after: string | Date }>();
    expect(new Date(job?.run_after ?? 0).toISOString()).toBe(`${question?.reminderOn}T08:00:00.000Z`);
    await expect.poll(() => server.smtp.to(server.admin.email).filter((mail) => mail.text.includes('asks for clarification')).length).toBe(1);
    expect(server.smtp.links(server.admin.email, '/pay-transparency/requests/').some((link) => link.includes(id))).toBe(true);

    const twice = await api(requester, `/api/pay-transparency/me/requests/${id}/clarifications`, { method: 'POST', json: { question: 'And?' } });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'clarification_open' });
    // The queue puts the request with the open question first (the colleague's waiting answer is due later or the same day).
    const queue = await api<{ data: PayRequest[] }>(server.admin, '/api/pay-transparency/requests');
    expect(queue.body.data.find((entry) => entry.id === id)?.clarifications.map((entry) => entry.state)).toEqual(['open']);
  });

  it('takes HR’s reasoned reply under If-Match, with the figures prepared again, and tells the worker', async () => {
    const read = await api<{ data: PayRequest }>(server.admin, `/api/pay-transparency/requests/${id}`);
    const question = read.body.data.clarifications[0];
    const path = `/api/pay-transparency/requests/${id}/clarifications/${question?.id}/reply`;
    // W3 (the requester) gets her commission recorded: 4,000, so her pay is 64,000 from today.
    await insertPay(server.db, server.company.id, women[2] ?? '', [{ type: 'commission', amount: 4_000 * 100, currency: 'EUR', effectiveDate: today() }]);
    expect((await api(requester, path, { method: 'POST', json: { reply: 'x' }, ifMatch: 1 })).status).toBe(403);
    expect((await api(server.admin, path, { method: 'POST', json: { reply: ' ' }, ifMatch: 1 })).status).toBe(400);
    expect((await api(server.admin, path, { method: 'POST', json: { reply: 'x' }, ifMatch: 4 })).body).toMatchObject({ code: 'version_conflict' });
    const reply = 'Your commission plan started this month; it was not in force when we prepared your answer. It is recorded now, and the figures below include it.';
    const replied = await api<{ data: PayRequest }>(server.admin, path, { method: 'POST', json: { reply, prepareAgain: true }, ifMatch: 1 });
    expect(replied.status).toBe(200);
    const done = replied.body.data.clarifications[0];
    expect(done).toMatchObject({ state: 'replied', reply, version: 2 });
    // Own pay 60,000 + 4,000 = 64,000; 64,000 / 2,080 = 30.769… → 30.77.
    // Women 40,000 50,000 64,000 70,000 80,000: mean 304,000 / 5 = 60,800, median 64,000;
    // 60,800 / 2,080 = 29.230… → 29.23 and 64,000 / 2,080 → 30.77.
    expect(done?.answer?.own).toEqual({ annual: 64_000, hourly: 30.77 });
    expect(done?.answer?.bySex.female).toEqual({ count: 5, meanAnnual: 60_800, meanHourly: 29.23, medianAnnual: 64_000, medianHourly: 30.77 });
    // The delivered answer stays what the worker was told.
    expect(replied.body.data.answer?.own).toEqual({ annual: 60_000, hourly: 28.85 });
    expect(replied.body.data.history.map((entry) => entry.action)).toEqual(['file', 'prepare', 'approve', 'clarify', 'reply']);
    const again = await api(server.admin, path, { method: 'POST', json: { reply: 'Once more.' }, ifMatch: 2 });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already_replied' });

    const mine = await api<{ data: Mine }>(requester, '/api/pay-transparency/me');
    const seen = mine.body.data.requests.find((entry) => entry.id === id);
    expect(seen?.clarifications[0]).toMatchObject({ state: 'replied', reply, answer: { own: { annual: 64_000, hourly: 30.77 } } });
    expect(seen?.history).toEqual([]);
    await expect.poll(() => server.smtp.to(requester.email).filter((mail) => mail.text.includes('HR replied to your request for clarification')).length).toBe(1);
    const audit = (await server.db('audit_events').where({ subject_id: id }).orderBy('created_at').select('action')) as { action: string }[];
    expect(audit.map((entry) => entry.action)).toEqual([
      'payInformationRequest.filed',
      'payInformationRequest.prepared',
      'payInformationRequest.delivered',
      'payInformationRequest.clarificationAsked',
      'payInformationRequest.clarificationReplied',
    ]);
  });

  it('reminds HR of a question without a reply two weeks before its due date, once', async () => {
    const asked = await api<{ data: PayRequest }>(requester, `/api/pay-transparency/me/requests/${id}/clarifications`, { method: 'POST', json: { question: 'Which categories are compared with mine?' } });
    const question = asked.body.data.clarifications[1];
    expect(question?.state).toBe('open');
    // Asked on 31 December 2026: due 28 February 2027, reminded 14 February.
    await server.db('pay_information_clarifications').where({ id: question?.id }).update({ asked_on: '2026-12-31', due_on: '2027-02-28', reminder_on: '2027-02-14' });
    const ports: NotifyPorts = { db: server.db, mailer: createMailer(server.db, pino({ level: 'silent' }), undefined, 'paybench@example.test'), publicUrl: 'https://paybench.example' };
    const clarificationId = question?.id ?? '';
    expect(await remindClarificationIfDue(ports, { companyId: server.company.id, clarificationId, now: new Date('2027-02-13T12:00:00.000Z') })).toEqual({ reminded: false, reason: 'The reminder is due on 2027-02-14.' });
    // The admin and the compensation planner hold payEquity edit.
    expect(await remindClarificationIfDue(ports, { companyId: server.company.id, clarificationId, now: new Date('2027-02-14T08:00:00.000Z') })).toEqual({ reminded: true, to: 2 });
    expect(await remindClarificationIfDue(ports, { companyId: server.company.id, clarificationId, now: new Date('2027-02-15T08:00:00.000Z') })).toEqual({ reminded: false, reason: 'HR was reminded already.' });
    expect(await server.db('outbox_emails').where({ company_id: server.company.id, to_address: server.admin.email }).whereLike('subject', '%clarification is due on 2027-02-28%')).toHaveLength(1);
    // Past its due date without a reply: overdue, for HR and for the worker.
    await server.db('pay_information_clarifications').where({ id: clarificationId }).update({ due_on: '2026-01-31' });
    const mine = await api<{ data: PayRequest }>(requester, `/api/pay-transparency/me/requests/${id}`);
    expect(mine.body.data.clarifications[1]).toMatchObject({ overdue: true, state: 'open' });
    const queue = await api<{ data: PayRequest[] }>(server.admin, '/api/pay-transparency/requests');
    expect(queue.body.data[0]?.id).toBe(id);
  });
});
