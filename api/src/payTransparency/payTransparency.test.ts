import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { createMailer } from '../notifications/mailer.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser } from '../../test/factories.js';
import { request } from '../../test/http.js';
import { ownServer } from '../../test/ownServer.js';
import { remindIfDue, runYearlyNotice } from './jobs.js';
import type { NotifyPorts } from './notify.js';

type PayRequest = components['schemas']['PayInformationRequest'];
type Settings = components['schemas']['PayTransparencySettings'];
type Mine = components['schemas']['MyPayInformation'];

const server = ownServer('Transparent Co');
let other: TestCompany;
let requester: TestUser;
let colleague: TestUser;
let support: TestUser;

const PAID_SINCE = '2025-01-01';
const CRITERIA = 'Pay is set by the job’s level and the market median for it; progression follows the yearly review of the skills ladder.';

async function switchOn(companyId: string): Promise<void> {
  const reply = await request(`/api/internal/companies/${companyId}/release-flags/pay_equity`, { method: 'PUT', base: server.url, headers: bearer(support), json: { enabled: true } });
  expect(reply.status).toBe(200);
}

interface Person {
  first: string;
  gender?: string;
  pay: { type: string; amount: number; currency?: string }[];
  userId?: string;
  status?: 'active' | 'terminated';
  employment?: 'full_time' | 'part_time' | 'contractor';
  family?: string;
}

/** One employee of Software Engineering · P3 (Professional), paid since 2025 in euros unless said; amounts in euros. */
async function person(spec: Person): Promise<string> {
  const id = await insertEmployee(server.db, server.company.id, {
    firstName: spec.first,
    lastName: 'Tester',
    userId: spec.userId ?? null,
    currency: 'EUR',
    levelId: 'p3',
    jobFamilyId: spec.family ?? 'software_engineering',
    status: spec.status ?? 'active',
    demographics: spec.gender ? { gender: spec.gender } : {},
  });
  if (spec.employment) await server.db('employees').where({ id }).update({ employment_type: spec.employment });
  await insertPay(
    server.db,
    server.company.id,
    id,
    spec.pay.map((part) => ({ type: part.type, amount: part.amount * 100, currency: part.currency ?? 'EUR', effectiveDate: PAID_SINCE })),
  );
  return id;
}

const base = (amount: number, currency?: string) => ({ type: 'base_salary', amount, ...(currency ? { currency } : {}) });

beforeAll(async () => {
  const { db, company } = server;
  other = await createTestCompany(db, 'Elsewhere Co');
  support = await createTestUser(db, { companyId: null, internalAdmin: true });
  await db('companies').where({ id: company.id }).update({ currency: 'EUR' });
  // The company's own rate: 1 GBP = 1.25 EUR.
  await db('company_exchange_rates').insert({ id: newId(), company_id: company.id, base_currency: 'GBP', quote_currency: 'EUR', rate: '1.25', effective_date: '2024-01-01', note: '', created_at: new Date().toISOString() });
  const employeeRole = company.roleIds.get('employee') ?? '';
  requester = await createTestUser(db, { companyId: company.id, roleIds: [employeeRole] });
  colleague = await createTestUser(db, { companyId: company.id, roleIds: [employeeRole] });

  // Women of the category, pay as pay equity defines it (docs/pay-equity.md): base + every
  // complementary or variable component in cash or in kind, records being full-time-equivalent
  // annual rates, in euros:
  //   W1 (the requester) 60,000 base + 6,000 bonus target        = 66,000
  //   W2 50,000 base                                              = 50,000
  //   W3 part-time, 30,000 base recorded as its FTE rate          = 30,000
  //   W4 40,000 GBP base × 1.25 = 50,000 EUR + 4,000 commission  = 54,000
  //   W5 70,000 base + 5,000 benefits in kind                     = 75,000
  await person({ first: 'W1', gender: 'woman', userId: requester.id, pay: [base(60_000), { type: 'bonus_target', amount: 6_000 }] });
  await person({ first: 'W2', gender: 'woman', pay: [base(50_000)] });
  await person({ first: 'W3', gender: 'woman', employment: 'part_time', pay: [base(30_000)] });
  await person({ first: 'W4', gender: 'woman', pay: [base(40_000, 'GBP'), { type: 'commission', amount: 4_000 }] });
  await person({ first: 'W5', gender: 'woman', pay: [base(70_000), { type: 'benefits', amount: 5_000 }] });
  // Not counted: a leaver (gone since 31 January 2024, before this year), a contractor, a woman of another family.
  await person({ first: 'Gone', gender: 'woman', status: 'terminated', pay: [base(200_000)] });
  await person({ first: 'Contractor', gender: 'woman', employment: 'contractor', pay: [base(200_000)] });
  await person({ first: 'Designer', gender: 'woman', family: 'product_design', pay: [base(200_000)] });
  // Men: four, under the publication minimum of 5 — 55,000, 65,000, 75,000, 93,000.
  for (const [index, amount] of [55_000, 65_000, 75_000, 93_000].entries()) await person({ first: `M${index + 1}`, gender: 'man', pay: [base(amount)] });
  // In neither column: a non-binary colleague and one without a recorded gender (the colleague who signs in).
  await person({ first: 'NB', gender: 'non_binary', pay: [base(90_000)] });
  await person({ first: 'Unrecorded', userId: colleague.id, pay: [base(80_000)] });
  await switchOn(company.id);
}, 120_000);

const api = <T>(user: TestUser, path: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) => server.call<T>(user, path, init);

describe('the pay-setting criteria', () => {
  it('start from the defaults and change only at the version read', async () => {
    const first = await api<{ data: Settings }>(server.admin, '/api/pay-transparency/settings');
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ criteria: '', publicationMinimum: 5, version: 0, notices: [] });
    expect(first.body.data).not.toHaveProperty('standardWeeklyHours');
    const body = { criteria: CRITERIA, publicationMinimum: 5 };
    const stale = await api(server.admin, '/api/pay-transparency/settings', { method: 'PUT', json: body, ifMatch: 3 });
    expect(stale.status).toBe(409);
    const saved = await api<{ data: Settings }>(server.admin, '/api/pay-transparency/settings', { method: 'PUT', json: body, ifMatch: 0 });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ criteria: CRITERIA, version: 1 });
    // Saving queued the yearly notice for the next 15 January.
    const year = new Date().getUTCFullYear() + (new Date().toISOString().slice(5) >= '01-15T08' ? 1 : 0);
    expect(saved.body.data.nextNoticeOn).toBe(`${year}-01-15`);
    const audit = await server.db('audit_events').where({ company_id: server.company.id, action: 'payTransparency.settingsUpdated' });
    expect(audit).toHaveLength(1);
    // An employee neither reads nor changes them.
    expect((await api(requester, '/api/pay-transparency/settings')).status).toBe(403);
    expect((await api(requester, '/api/pay-transparency/settings', { method: 'PUT', json: body, ifMatch: 1 })).status).toBe(403);
    const bad = await api(server.admin, '/api/pay-transparency/settings', { method: 'PUT', json: { ...body, publicationMinimum: 1 }, ifMatch: 1 });
    expect(bad.status).toBe(400);
    // Hours and FTE are pay equity's, not settings of their own.
    const hours = await api(server.admin, '/api/pay-transparency/settings', { method: 'PUT', json: { ...body, standardWeeklyHours: 35 }, ifMatch: 1 });
    expect(hours.status).toBe(400);
  });
});

describe('a request for pay information', () => {
  let filed: PayRequest;

  it('is filed by the employee, prepared at once and hidden from them until HR delivers it', async () => {
    const reply = await api<{ data: PayRequest }>(requester, '/api/pay-transparency/me/requests', { method: 'POST', json: { message: 'Please include the bonus.' } });
    expect(reply.status).toBe(201);
    filed = reply.body.data;
    expect(filed).toMatchObject({ state: 'review', overdue: false, answer: null, note: null, actions: [], message: 'Please include the bonus.' });
    // Due two months after filing (same day of the month, or the month's last day), reminded 14 days before.
    const [fy, fm, fd] = filed.filedOn.split('-').map(Number) as [number, number, number];
    const [dy, dm, dd] = filed.dueOn.split('-').map(Number) as [number, number, number];
    expect((dy - fy) * 12 + (dm - fm)).toBe(2);
    expect(dd).toBe(Math.min(fd, new Date(Date.UTC(dy, dm, 0)).getUTCDate()));
    expect(Date.parse(filed.dueOn) - Date.parse(filed.reminderOn)).toBe(14 * 86_400_000);
    // HR's reminder is queued for 08:00 UTC on the reminder day.
    const job = await server.db('jobs').where({ company_id: server.company.id, type: 'payInformationReminder', status: 'queued' }).whereLike('input', `%${filed.id}%`).first<{ run_after: string | Date }>();
    expect(new Date(job?.run_after ?? 0).toISOString()).toBe(`${filed.reminderOn}T08:00:00.000Z`);

    // HR (the admin, who holds payEquity edit) is told at once, with the due date and the link.
    await expect.poll(() => server.smtp.to(server.admin.email).filter((mail) => mail.text.includes('asked for their pay information')).length).toBe(1);
    expect(server.smtp.links(server.admin.email, '/pay-transparency/requests/')[0]).toContain(filed.id);

    const again = await api(requester, '/api/pay-transparency/me/requests', { method: 'POST', json: {} });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'request_open' });
    const mine = await api<{ data: Mine }>(requester, '/api/pay-transparency/me');
    expect(mine.body.data.hasEmployeeRecord).toBe(true);
    expect(mine.body.data.requests.map((entry) => entry.id)).toEqual([filed.id]);
  });

  it('is the employee’s own: a colleague, another company and people without payEquity get nothing', async () => {
    expect((await api(colleague, `/api/pay-transparency/me/requests/${filed.id}`)).status).toBe(404);
    expect((await api<{ data: Mine }>(colleague, '/api/pay-transparency/me')).body.data.requests).toEqual([]);
    await switchOn(other.id);
    expect((await api(other.users.admin as TestUser, `/api/pay-transparency/requests/${filed.id}`)).status).toBe(404);
    expect((await api(other.users.admin as TestUser, `/api/pay-transparency/requests/${filed.id}/approve`, { method: 'POST', ifMatch: 1 })).status).toBe(404);
    expect((await api(requester, '/api/pay-transparency/requests')).status).toBe(403);
    expect((await api(server.company.users.analyst as TestUser, `/api/pay-transparency/requests/${filed.id}`)).status).toBe(403);
    expect((await api(requester, `/api/pay-transparency/requests/${filed.id}/approve`, { method: 'POST', ifMatch: 1 })).status).toBe(403);
    // A sign-in with no employee record has nothing to ask about.
    const noRecord = await api(server.company.users.analyst as TestUser, '/api/pay-transparency/me/requests', { method: 'POST', json: {} });
    expect(noRecord.body).toMatchObject({ code: 'no_employee_record' });
  });

  it('shows HR the prepared answer with hand-checked figures, the men’s column withheld under 5', async () => {
    const reply = await api<{ data: PayRequest }>(server.admin, `/api/pay-transparency/requests/${filed.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data.actions).toEqual(['approve']);
    expect(reply.body.data.history.map((entry) => entry.action)).toEqual(['file']);
    const answer = reply.body.data.answer;
    expect(answer).toMatchObject({ currency: 'EUR', categoryName: 'Software Engineering · P3 Career (Professional)', publicationMinimum: 5, criteria: CRITERIA });
    // Own: 66,000 a year; 66,000 / (40 h × 52) = 66,000 / 2,080 = 31.7307… → 31.73 an hour.
    expect(answer?.own).toEqual({ annual: 66_000, hourly: 31.73 });
    // Women: 30,000 50,000 54,000 66,000 75,000 → mean 275,000 / 5 = 55,000, median 54,000;
    // hourly 55,000 / 2,080 = 26.442… → 26.44 and 54,000 / 2,080 = 25.961… → 25.96.
    expect(answer?.bySex.female).toEqual({ count: 5, meanAnnual: 55_000, meanHourly: 26.44, medianAnnual: 54_000, medianHourly: 25.96 });
    expect(answer?.method).toContain('benefits in kind');
    expect(answer?.method).toContain('FTE × 40 hours × 52 weeks = FTE × 2080 hours');
    // Men: 4 people, fewer than 5 — withheld, and said why.
    expect(answer?.bySex.male).toBeNull();
    expect(answer?.withheld).toBe('The average pay of men in your category is not shown: fewer than 5 people.');
  });

  it('takes HR’s note and approval under If-Match, and delivers the answer to the employee', async () => {
    const stale = await api(server.admin, `/api/pay-transparency/requests/${filed.id}`, { method: 'PATCH', json: { note: 'x' }, ifMatch: 7 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'version_conflict' });
    const noted = await api<{ data: PayRequest }>(server.admin, `/api/pay-transparency/requests/${filed.id}`, { method: 'PATCH', json: { note: 'Your bonus target is included.' }, ifMatch: 1 });
    expect(noted.status).toBe(200);
    expect(noted.body.data).toMatchObject({ note: 'Your bonus target is included.', version: 2 });
    expect((await api(server.admin, `/api/pay-transparency/requests/${filed.id}/approve`, { method: 'POST', json: {}, ifMatch: 1 })).status).toBe(409);
    const approved = await api<{ data: PayRequest }>(server.admin, `/api/pay-transparency/requests/${filed.id}/approve`, { method: 'POST', json: { comment: 'Checked.' }, ifMatch: 2 });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ state: 'delivered', actions: [], version: 3 });
    expect(approved.body.data.history.map((entry) => [entry.action, entry.comment])).toEqual([
      ['file', 'Answer prepared from people data.'],
      ['approve', 'Checked.'],
    ]);
    const twice = await api(server.admin, `/api/pay-transparency/requests/${filed.id}/approve`, { method: 'POST', json: {}, ifMatch: 3 });
    expect(twice.body).toMatchObject({ code: 'invalid_transition', message: 'A delivered request for pay information cannot be approved.' });
    expect((await api(server.admin, `/api/pay-transparency/requests/${filed.id}`, { method: 'PATCH', json: { note: 'later' }, ifMatch: 3 })).status).toBe(409);

    const mine = await api<{ data: PayRequest }>(requester, `/api/pay-transparency/me/requests/${filed.id}`);
    expect(mine.body.data).toMatchObject({ state: 'delivered', note: 'Your bonus target is included.', answer: { own: { annual: 66_000, hourly: 31.73 } } });
    await expect.poll(() => server.smtp.to(requester.email).length).toBe(1);
    expect(server.smtp.to(requester.email)[0]?.text).toContain('/pay-information');
    const audit = (await server.db('audit_events').where({ subject_id: filed.id }).orderBy('created_at').select('action')) as { action: string }[];
    expect(audit.map((entry) => entry.action)).toEqual(['payInformationRequest.filed', 'payInformationRequest.noteEdited', 'payInformationRequest.delivered']);
  });

  it('shows the men’s column once there are 5, and a smaller minimum shows an even group’s median', async () => {
    // A fifth man, 95,000: 55,000 65,000 75,000 93,000 95,000 → mean 383,000 / 5 = 76,600, median 75,000;
    // hourly 76,600 / 2,080 = 36.826… → 36.83 and 75,000 / 2,080 = 36.057… → 36.06.
    const fifth = await person({ first: 'M5', gender: 'man', pay: [base(95_000)] });
    const second = await api<{ data: PayRequest }>(requester, '/api/pay-transparency/me/requests', { method: 'POST', json: {} });
    expect(second.status).toBe(201);
    const prepared = await api<{ data: PayRequest }>(server.admin, `/api/pay-transparency/requests/${second.body.data.id}`);
    expect(prepared.body.data.answer?.bySex.male).toEqual({ count: 5, meanAnnual: 76_600, meanHourly: 36.83, medianAnnual: 75_000, medianHourly: 36.06 });
    expect(prepared.body.data.answer?.withheld).toBeNull();
    await server.db('employees').where({ id: fifth }).update({ status: 'terminated', termination_date: '2025-06-30' });

    // With a minimum of 4 and 4 men (55,000 65,000 75,000 93,000): mean 288,000 / 4 = 72,000; median (65,000 + 75,000) / 2 = 70,000.
    const settings = await api<{ data: Settings }>(server.admin, '/api/pay-transparency/settings');
    await api(server.admin, '/api/pay-transparency/settings', { method: 'PUT', json: { criteria: CRITERIA, publicationMinimum: 4 }, ifMatch: settings.body.data.version });
    // M5 left and the minimum changed since the answer was prepared: it is stale, refused as it is and prepared again.
    const refused = await api(server.admin, `/api/pay-transparency/requests/${second.body.data.id}/approve`, { method: 'POST', json: {}, ifMatch: prepared.body.data.version });
    expect(refused.body).toMatchObject({ code: 'answer_stale' });
    const again = await api<{ data: PayRequest }>(server.admin, `/api/pay-transparency/requests/${second.body.data.id}/prepare`, { method: 'POST', ifMatch: prepared.body.data.version });
    expect(again.body.data).toMatchObject({ stale: false, answer: { bySex: { male: { count: 4, meanAnnual: 72_000 } } } });
    const delivered = await api(server.admin, `/api/pay-transparency/requests/${second.body.data.id}/approve`, { method: 'POST', json: {}, ifMatch: again.body.data.version });
    expect(delivered.status).toBe(200);
    const third = await api<{ data: PayRequest }>(colleague, '/api/pay-transparency/me/requests', { method: 'POST', json: {} });
    const thirdAnswer = (await api<{ data: PayRequest }>(server.admin, `/api/pay-transparency/requests/${third.body.data.id}`)).body.data.answer;
    // 72,000 / 2,080 = 34.615… → 34.62; 70,000 / 2,080 = 33.653… → 33.65. The colleague (80,000, no gender recorded) is in neither column.
    expect(thirdAnswer?.bySex.male).toEqual({ count: 4, meanAnnual: 72_000, meanHourly: 34.62, medianAnnual: 70_000, medianHourly: 33.65 });
    expect(thirdAnswer?.own).toEqual({ annual: 80_000, hourly: 38.46 });
    await api(server.admin, '/api/pay-transparency/settings', { method: 'PUT', json: { criteria: CRITERIA, publicationMinimum: 5 }, ifMatch: settings.body.data.version + 1 });
  });
});

describe('the two-month deadline', () => {
  const ports = (): NotifyPorts => ({ db: server.db, mailer: createMailer(server.db, pino({ level: 'silent' }), undefined, 'paybench@example.test'), publicUrl: 'https://paybench.example' });

  it('reminds HR once, two weeks before the due date, on a fixed clock', async () => {
    const open = (await api<{ data: PayRequest[] }>(server.admin, '/api/pay-transparency/requests')).body.data.find((entry) => entry.state === 'review');
    expect(open).toBeDefined();
    const id = open?.id ?? '';
    // Filed on 31 December 2026: due 28 February 2027 (February has no 31st), reminded 14 February.
    await server.db('pay_information_requests').where({ id }).update({ filed_on: '2026-12-31', due_on: '2027-02-28', reminder_on: '2027-02-14' });
    const dayBefore = await remindIfDue(ports(), { companyId: server.company.id, requestId: id, now: new Date('2027-02-13T23:59:00.000Z') });
    expect(dayBefore).toEqual({ reminded: false, reason: 'The reminder is due on 2027-02-14.' });
    const onTheDay = await remindIfDue(ports(), { companyId: server.company.id, requestId: id, now: new Date('2027-02-14T08:00:00.000Z') });
    // Two users hold payEquity edit: the admin and the compensation planner (built-in roles).
    expect(onTheDay).toEqual({ reminded: true, to: 2 });
    const mail = await server.db('outbox_emails').where({ company_id: server.company.id, to_address: server.admin.email }).whereLike('subject', '%due on 2027-02-28%');
    expect(mail).toHaveLength(1);
    expect(await remindIfDue(ports(), { companyId: server.company.id, requestId: id, now: new Date('2027-02-15T08:00:00.000Z') })).toEqual({ reminded: false, reason: 'HR was reminded already.' });
    // Past its due date and still waiting: overdue in the queue.
    await server.db('pay_information_requests').where({ id }).update({ due_on: '2026-01-31' });
    const queue = await api<{ data: PayRequest[] }>(server.admin, '/api/pay-transparency/requests');
    expect(queue.body.data[0]).toMatchObject({ id, overdue: true, state: 'review' });
  });

  it('runs the queued reminder job when it is due', async () => {
    const mine = await api<{ data: Mine }>(requester, '/api/pay-transparency/me');
    expect(mine.body.data.requests.every((entry) => entry.state === 'delivered')).toBe(true);
    const filed = await api<{ data: PayRequest }>(requester, '/api/pay-transparency/me/requests', { method: 'POST', json: {} });
    // Six weeks and more pass: the reminder day is today and the job is due.
    const today = new Date().toISOString().slice(0, 10);
    await server.db('pay_information_requests').where({ id: filed.body.data.id }).update({ reminder_on: today });
    await server.db('jobs').where({ type: 'payInformationReminder', status: 'queued' }).whereLike('input', `%${filed.body.data.id}%`).update({ run_after: new Date(Date.now() - 1000).toISOString() });
    await expect
      .poll(async () => (await server.db('pay_information_requests').where({ id: filed.body.data.id }).first<{ reminded_at: string | null }>())?.reminded_at ?? null, { timeout: 30_000 })
      .not.toBeNull();
    await expect.poll(() => server.smtp.to(server.admin.email).filter((mail) => mail.text.includes(`is due on ${filed.body.data.dueOn}`)).length, { timeout: 30_000 }).toBe(1);
  });
});

describe('the yearly notice of the right', () => {
  it('goes to every worker once a year, by the button or on 15 January', async () => {
    const sent = await api<{ data: components['schemas']['PayTransparencyNotice'] }>(server.admin, '/api/pay-transparency/notices', { method: 'POST' });
    expect(sent.status).toBe(201);
    // The requester and the colleague are the employees with a sign-in.
    expect(sent.body.data).toMatchObject({ year: new Date().getUTCFullYear(), recipients: 2, trigger: 'button' });
    const again = await api(server.admin, '/api/pay-transparency/notices', { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already_sent' });
    expect((await api(requester, '/api/pay-transparency/notices', { method: 'POST' })).status).toBe(403);
    const mine = await api<{ data: Mine }>(colleague, '/api/pay-transparency/me');
    expect(mine.body.data.notice).toMatchObject({ year: new Date().getUTCFullYear(), trigger: 'button' });
    await expect.poll(() => server.smtp.to(colleague.email).filter((mail) => mail.text.includes('right to information')).length).toBe(1);

    // The scheduled run on 15 January 2027 sends 2027's notice, queues 2028's, and never sends a year twice.
    const ports: NotifyPorts = { db: server.db, mailer: createMailer(server.db, pino({ level: 'silent' }), undefined, 'paybench@example.test'), publicUrl: 'https://paybench.example' };
    await server.db('jobs').where({ company_id: server.company.id, type: 'payTransparencyYearlyNotice', status: 'queued' }).delete();
    const run = await runYearlyNotice(ports, { companyId: server.company.id, ownerUserId: server.admin.id, now: new Date('2027-01-15T08:00:00.000Z') });
    expect(run).toEqual({ sent: true, recipients: 2, next: '2028-01-15T08:00:00.000Z' });
    const rerun = await runYearlyNotice(ports, { companyId: server.company.id, ownerUserId: server.admin.id, now: new Date('2027-01-15T09:00:00.000Z') });
    expect(rerun).toEqual({ sent: false, recipients: 0, next: '2028-01-15T08:00:00.000Z' });
    const notices = await server.db('pay_transparency_notices').where({ company_id: server.company.id }).orderBy('year');
    expect(notices.map((row: { year: number | string; trigger: string }) => [Number(row.year), row.trigger])).toEqual([
      [new Date().getUTCFullYear(), 'button'],
      [2027, 'schedule'],
    ]);
  });

  it('is scheduled as soon as the module is switched on', async () => {
    // The other company had it switched on above and never saved its settings: its run waits for the next 15 January.
    const queued = async () => (await server.db('jobs').where({ company_id: other.id, type: 'payTransparencyYearlyNotice', status: 'queued' }).first<{ run_after: string | Date }>())?.run_after;
    await expect.poll(queued, { timeout: 30_000 }).toBeDefined();
    expect(new Date((await queued()) ?? 0).toISOString().slice(5)).toBe('01-15T08:00:00.000Z');
    const settings = await api<{ data: Settings }>(other.users.admin as TestUser, '/api/pay-transparency/settings');
    expect(settings.body.data.nextNoticeOn?.slice(5)).toBe('01-15');
  });

  it('is not there for a company without the module', async () => {
    const off = await createTestCompany(server.db, 'Switched Off Co');
    const reply = await api(off.users.admin as TestUser, '/api/pay-transparency/me');
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ message: 'Pay equity and pay transparency is not switched on for your company.' });
  });
});
