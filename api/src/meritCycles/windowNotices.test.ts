import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, createTestUser } from '../../test/factories.js';
import { ownServer } from '../../test/ownServer.js';
import { TestSockets } from '../../test/sockets.js';
import { until } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { queueJobIn } from '../jobs/queue.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';
import { switchOnPlanning } from './test/fixtures.js';
import { windowClosingJob } from './windowNotices.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Cycle = Schemas['MeritCycle'];
type Worksheet = Schemas['Worksheet'];

/*
 * The notice before a planning window closes, over a real SMTP server: three managers plan a
 * worksheet each; Marco submits his, Nia does not, Leo does not but turned the e-mail of this notice
 * off. A close 24 hours away or less tells Nia by e-mail and in the app, Leo in the app only, Marco
 * nothing; the notice run again tells nobody twice; a moved close tells again.
 */

const server = ownServer('Window Notice Co');
const { call } = server;
const managers: Record<'marco' | 'nia' | 'leo', TestUser> = {} as Record<'marco' | 'nia' | 'leo', TestUser>;
const sockets = new TestSockets();
const HOUR = 3_600_000;

interface NoticeJob {
  id: string;
  status: string;
  input: string;
  result: string | null;
  run_after: string | Date;
}
const noticeJobs = async (): Promise<NoticeJob[]> => server.db('jobs').where({ company_id: server.company.id, type: 'meritCycleWindowClosing' }).orderBy('created_at').select('id', 'status', 'input', 'result', 'run_after');
/** The notice job armed for this close, once it has ended. */
async function endedNotice(closesAt: string): Promise<NoticeJob> {
  let found: NoticeJob | undefined;
  await until(async () => {
    found = (await noticeJobs()).find((job) => (JSON.parse(job.input) as { closesAt: string }).closesAt === closesAt && ['succeeded', 'failed'].includes(job.status));
    return found !== undefined;
  }, 30_000, 50);
  if (!found) throw new Error(`no notice for ${closesAt}`);
  return found;
}

/** Mails about a window closing to one person. */
const closingMails = (user: TestUser) => server.smtp.to(user.email).filter((mail) => mail.text.includes('closes at'));

/** In-app notices about a window closing that a socket heard. */
function heard(socket: Socket): string[] {
  const messages: string[] = [];
  socket.on('emitMeritCycleEmployeesUpdate', (update: { message?: string }) => {
    if (update.message?.includes('closes at')) messages.push(update.message);
  });
  return messages;
}

beforeAll(async () => {
  const { db, company } = server;
  const managerRole = company.roleIds.get('people_manager') ?? '';
  const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
  await switchOnPlanning(server.tokenCall, support.token, company.id);
  // Hana heads the company without signing in; each manager below her has one report to plan.
  const hana = await insertEmployee(db, company.id, { firstName: 'Hana', lastName: 'Head', levelId: 'm6', performanceRating: 'meets' });
  await insertPay(db, company.id, hana, [{ type: 'base_salary', amount: 20_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
  for (const [key, first, report] of [
    ['marco', 'Marco', 'Ada'],
    ['nia', 'Nia', 'Ben'],
    ['leo', 'Leo', 'Cai'],
  ] as const) {
    managers[key] = await createTestUser(db, { companyId: company.id, roleIds: [managerRole] });
    const manager = await insertEmployee(db, company.id, { firstName: first, lastName: 'Manager', levelId: 'm4', managerId: hana, userId: managers[key].id, performanceRating: 'meets' });
    await insertPay(db, company.id, manager, [{ type: 'base_salary', amount: 15_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
    const employee = await insertEmployee(db, company.id, { firstName: report, lastName: 'Report', managerId: manager, performanceRating: 'meets' });
    await insertPay(db, company.id, employee, [{ type: 'base_salary', amount: 10_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
  }
}, 600_000);

afterAll(() => sockets.closeAll());

describe('the notice before a planning window closes', () => {
  it('tells once, a lead time before the close, only the planners who have not submitted, as each chose; a moved close tells again', { timeout: 240_000 }, async () => {
    // Leo keeps the in-app notice but not the e-mail.
    const leoOff = await call(managers.leo, '/api/me/notification-preferences', { method: 'PUT', ifMatch: 0, json: { events: [{ event: 'windowClosing', email: false, inApp: true }] } });
    expect(leoOff.status, JSON.stringify(leoOff.body)).toBe(200);

    const created = await call<Data<Cycle>>(server.admin, '/api/v2/meritCycles', { method: 'POST', json: { name: 'Window 2026', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    let cycle = created.body.data;
    expect(cycle.closingNoticeHours).toBe(24);
    const cyclePath = (suffix = '') => `/api/v2/meritCycles/${cycle.id}${suffix}`;
    const setWindows = async (closesAt: string, hours?: number, opensAt = new Date(Date.now() - HOUR).toISOString()) => {
      const reply = await call<Data<Cycle>>(server.admin, cyclePath('/planningWindows'), {
        method: 'PUT',
        ifMatch: cycle.version,
        json: { windows: [{ stage: 'planning', opensAt, closesAt }], ...(hours !== undefined ? { closingNoticeHours: hours } : {}) },
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      cycle = reply.body.data;
      return cycle;
    };

    // The lead time is set with the windows: at most 30 days.
    const tooLong = await call(server.admin, cyclePath('/planningWindows'), { method: 'PUT', ifMatch: cycle.version, json: { windows: [], closingNoticeHours: 721 } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([{ field: 'body.closingNoticeHours', message: 'must be <= 720' }]);

    // In the draft, a window closing in 10 days; no notice is planned before there are worksheets.
    const tenDays = new Date(Math.floor(Date.now() / 1000) * 1000 + 10 * 24 * HOUR).toISOString();
    expect((await setWindows(tenDays, 24)).closingNoticeHours).toBe(24);
    expect(await noticeJobs()).toEqual([]);
    // Launching plans it for 24 hours before the close.
    const launched = await call<Data<Cycle>>(server.admin, cyclePath('/transitions'), { method: 'POST', ifMatch: cycle.version, json: { action: 'launch' } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    cycle = launched.body.data;
    const [planned] = await noticeJobs();
    expect(planned).toMatchObject({ status: 'queued' });
    expect(new Date(planned?.run_after ?? 0).toISOString()).toBe(new Date(Date.parse(tenDays) - 24 * HOUR).toISOString());

    // Marco submits his worksheet; Nia and Leo do not.
    const sheets = await call<Data<Worksheet[]>>(server.admin, cyclePath('/worksheets'));
    const marcoSheet = sheets.body.data.find((sheet) => sheet.planner?.name === 'Marco Manager');
    if (!marcoSheet) throw new Error('Marco has no worksheet');
    const submitted = await call(managers.marco, cyclePath(`/worksheets/${marcoSheet.id}/submit`), { method: 'POST', ifMatch: marcoSheet.version, json: {} });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);

    const niaHeard = heard(await sockets.connect(server.url, managers.nia.token));
    const leoHeard = heard(await sockets.connect(server.url, managers.leo.token));
    const marcoHeard = heard(await sockets.connect(server.url, managers.marco.token));

    // The close moves to 2 hours from now: inside the 24 hours, so the notice goes at once.
    const soon = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 2 * HOUR).toISOString();
    const soonText = `${soon.slice(0, 10)} ${soon.slice(11, 16)} UTC`;
    await setWindows(soon);
    expect(cycle.closingNoticeHours).toBe(24);
    const first = await endedNotice(soon);
    expect(first.status).toBe('succeeded');
    expect(JSON.parse(first.result ?? '{}')).toEqual({ sent: 2 });

    await expect.poll(() => closingMails(managers.nia).length, { timeout: 15_000 }).toBe(1);
    const mail = closingMails(managers.nia)[0]?.text ?? '';
    expect(mail).toContain('Window 2026');
    expect(mail).toContain(`closes at ${soonText}`);
    expect(mail).toContain('Your worksheet is not submitted yet');
    expect(mail).toContain(`/compensationplanning/cycles/${cycle.id}/worksheets`);
    await expect.poll(() => leoHeard.length).toBe(1);
    await expect.poll(() => niaHeard.length).toBe(1);
    expect(niaHeard[0]).toBe(`The planning window of the merit cycle “Window 2026” closes at ${soonText}. Your worksheet is not submitted yet: plan and submit it before then; after the close it is read-only.`);
    // The in-app notices were sent after the e-mails: once here, no other e-mail is coming.
    expect(closingMails(managers.leo)).toEqual([]);
    expect(closingMails(managers.marco)).toEqual([]);
    expect(marcoHeard).toEqual([]);

    // Saving the windows again with the same close plans nothing new; the notice run again sends nothing.
    await setWindows(soon, undefined, new Date(Date.now() - 2 * HOUR).toISOString());
    expect(await noticeJobs()).toHaveLength(2);
    const again = await queueJobIn(server.db, windowClosingJob, { companyId: server.company.id, ownerUserId: server.admin.id, input: { meritCycleId: cycle.id, stage: 'planning', closesAt: soon, noticeHours: 24 } });
    await until(async () => ['succeeded', 'failed'].includes((await server.db('jobs').where({ id: again.id }).first<NoticeJob>()).status), 30_000, 50);
    expect(JSON.parse((await server.db('jobs').where({ id: again.id }).first<NoticeJob>()).result ?? '{}')).toEqual({ sent: 0 });
    // The notice planned for the old close, run now, finds the window moved and sends nothing either.
    await server.db('jobs').where({ id: planned?.id }).update({ run_after: new Date().toISOString() });
    await until(async () => (await server.db('jobs').where({ id: planned?.id }).first<NoticeJob>()).status === 'succeeded', 30_000, 50);
    expect(JSON.parse((await server.db('jobs').where({ id: planned?.id }).first<NoticeJob>()).result ?? '{}')).toEqual({ sent: 0, skipped: 'The window changed since this notice was planned.' });
    expect(closingMails(managers.nia)).toHaveLength(1);

    // Moved to 3 hours from now: Nia and Leo are told again, of the new close.
    const later = new Date(Date.parse(soon) + HOUR).toISOString();
    const laterText = `${later.slice(0, 10)} ${later.slice(11, 16)} UTC`;
    await setWindows(later);
    expect(JSON.parse((await endedNotice(later)).result ?? '{}')).toEqual({ sent: 2 });
    await expect.poll(() => closingMails(managers.nia).length, { timeout: 15_000 }).toBe(2);
    expect(closingMails(managers.nia)[1]?.text).toContain(`closes at ${laterText}`);
    await expect.poll(() => leoHeard.length).toBe(2);
    expect(closingMails(managers.leo)).toEqual([]);
    expect(closingMails(managers.marco)).toEqual([]);
    expect(marcoHeard).toEqual([]);
  });
});
