import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, createTestUser } from '../../test/factories.js';
import { ownServer } from '../../test/ownServer.js';
import { TestSockets } from '../../test/sockets.js';
import type { components } from '../contract-types.js';
import { switchOnPlanning } from '../meritCycles/test/fixtures.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Preferences = Schemas['NotificationPreferences'];
type Worksheet = Schemas['Worksheet'];

// Its own server with a real SMTP server: the planning notices travel over SMTP.
const server = ownServer('Notice Co');
const { call } = server;
let marco: TestUser; // plans his worksheet
let head: TestUser; // reviews it
const sockets = new TestSockets();

const reviewNotices = (user: TestUser) => server.smtp.to(user.email).filter((mail) => mail.text.includes('waits for your review'));

/** The next in-app planning notice on the socket whose message says `words`. */
const notice = (socket: Socket, words: string) =>
  new Promise<Record<string, unknown>>((resolve) => {
    const listener = (message: Record<string, unknown>) => {
      if (typeof message.message === 'string' && message.message.includes(words)) {
        socket.off('emitMeritCycleEmployeesUpdate', listener);
        resolve(message);
      }
    };
    socket.on('emitMeritCycleEmployeesUpdate', listener);
  });

beforeAll(async () => {
  const { db, company } = server;
  const managerRole = company.roleIds.get('people_manager') ?? '';
  marco = await createTestUser(db, { companyId: company.id, roleIds: [managerRole] });
  head = await createTestUser(db, { companyId: company.id, roleIds: [managerRole] });
  const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
  await switchOnPlanning(server.tokenCall, support.token, company.id);
  const hana = await insertEmployee(db, company.id, { firstName: 'Hana', lastName: 'Head', levelId: 'm6', userId: head.id, performanceRating: 'meets' });
  await insertPay(db, company.id, hana, [{ type: 'base_salary', amount: 20_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
  const marcoEmployee = await insertEmployee(db, company.id, { firstName: 'Marco', lastName: 'Manager', levelId: 'm4', managerId: hana, userId: marco.id, performanceRating: 'meets' });
  await insertPay(db, company.id, marcoEmployee, [{ type: 'base_salary', amount: 15_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
  const ada = await insertEmployee(db, company.id, { firstName: 'Ada', lastName: 'Anchor', managerId: marcoEmployee, performanceRating: 'meets' });
  await insertPay(db, company.id, ada, [{ type: 'base_salary', amount: 10_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
}, 600_000);

afterAll(() => sockets.closeAll());

describe('notification preferences', () => {
  it('start with every planning event on, and save only at the version read', async () => {
    const fresh = await call<Data<Preferences>>(marco, '/api/me/notification-preferences');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('etag')).toBe('"0"');
    expect(fresh.body.data).toEqual({
      version: 0,
      updatedAt: null,
      events: [
        { event: 'worksheetSubmitted', email: true, inApp: true },
        { event: 'worksheetSentBack', email: true, inApp: true },
        { event: 'worksheetApproved', email: true, inApp: true },
        { event: 'worksheetReopened', email: true, inApp: true },
        { event: 'cycleLaunched', email: true, inApp: true },
        { event: 'windowClosing', email: true, inApp: true },
      ],
    });
    const path = '/api/me/notification-preferences';
    expect((await call(marco, path, { method: 'PUT', json: { events: [{ event: 'cycleLaunched', email: false, inApp: true }] } })).status).toBe(428);
    const saved = await call<Data<Preferences>>(marco, path, { method: 'PUT', ifMatch: 0, json: { events: [{ event: 'cycleLaunched', email: false, inApp: true }] } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.headers.get('etag')).toBe('"1"');
    expect(saved.body.data.events.find((entry) => entry.event === 'cycleLaunched')).toEqual({ event: 'cycleLaunched', email: false, inApp: true });

    // A second tab still at version 0 is refused; nothing it sent is kept.
    const stale = await call(marco, path, { method: 'PUT', ifMatch: 0, json: { events: [{ event: 'worksheetApproved', email: false, inApp: false }] } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'version_conflict', message: 'Someone else changed your notification preferences first. Reload and try again.' });
    expect(stale.headers.get('etag')).toBe('"1"');

    // An event left out keeps its choice.
    const next = await call<Data<Preferences>>(marco, path, { method: 'PUT', ifMatch: 1, json: { events: [{ event: 'worksheetApproved', email: false, inApp: true }] } });
    expect(next.body.data.version).toBe(2);
    expect(next.body.data.events.filter((entry) => !entry.email).map((entry) => entry.event)).toEqual(['worksheetApproved', 'cycleLaunched']);
    expect((await call(marco, path, { method: 'PUT', ifMatch: 2, json: { events: [{ event: 'somethingElse', email: false, inApp: true }] } })).status).toBe(400);
    // Each person has their own: the reviewer's are still the defaults.
    expect((await call<Data<Preferences>>(head, path)).body.data.version).toBe(0);
  });

  it('with e-mail off for "submitted", the reviewer gets the in-app notice but no e-mail; with it on, both', async () => {
    const off = await call<Data<Preferences>>(head, '/api/me/notification-preferences', { method: 'PUT', ifMatch: 0, json: { events: [{ event: 'worksheetSubmitted', email: false, inApp: true }] } });
    expect(off.status).toBe(200);
    const headSocket = await sockets.connect(server.url, head.token);
    const marcoSocket = await sockets.connect(server.url, marco.token);

    const created = await call<Data<Schemas['MeritCycle']>>(server.admin, '/api/v2/meritCycles', { method: 'POST', json: { name: 'Notice 2026', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    let cycle = created.body.data;
    const cyclePath = (suffix: string) => `/api/v2/meritCycles/${cycle.id}${suffix}`;
    const chains = await call(server.admin, cyclePath('/approvalChains'), { method: 'PUT', ifMatch: cycle.version, json: { chains: [{ branchEmployeeId: null, reviewerUserIds: [head.id] }] } });
    expect(chains.status, JSON.stringify(chains.body)).toBe(200);
    cycle = (await call<Data<Schemas['MeritCycle']>>(server.admin, cyclePath(''))).body.data;
    // Launching tells each planner in the app; Marco turned the launch e-mail off, Hana did not.
    const launchedNotice = notice(marcoSocket, 'was launched');
    const launched = await call(server.admin, cyclePath('/transitions'), { method: 'POST', ifMatch: cycle.version, json: { action: 'launch' } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    expect((await launchedNotice).meritCycleId).toBe(cycle.id);
    await expect.poll(() => server.smtp.to(head.email).filter((mail) => mail.text.includes('Notice 2026') && mail.text.includes('was launched; your worksheet is open for planning.')).length, { timeout: 15_000 }).toBe(1);
    expect(server.smtp.to(marco.email).filter((mail) => mail.text.includes('was launched'))).toEqual([]);

    const sheets = await call<Data<Worksheet[]>>(server.admin, cyclePath('/worksheets'));
    let worksheet = sheets.body.data.find((sheet) => sheet.planner?.name === 'Marco Manager');
    if (!worksheet) throw new Error('Marco has no worksheet');
    const firstNotice = notice(headSocket, 'waits for your review');
    const submitted = await call<Data<Worksheet>>(marco, cyclePath(`/worksheets/${worksheet.id}/submit`), { method: 'POST', ifMatch: worksheet.version, json: {} });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    worksheet = submitted.body.data;
    // The in-app notice is sent after the e-mail would have been: once it is here, no e-mail is coming.
    expect(await firstNotice).toMatchObject({ meritCycleId: cycle.id, worksheetIds: [worksheet.id], employees: [], reason: 'moved', message: 'Marco Manager’s worksheet was submitted and waits for your review in the merit cycle “Notice 2026”.' });
    expect(reviewNotices(head)).toEqual([]);

    // Positive control: e-mail on again, sent back and submitted again — now the e-mail arrives too.
    expect((await call(head, '/api/me/notification-preferences', { method: 'PUT', ifMatch: 1, json: { events: [{ event: 'worksheetSubmitted', email: true, inApp: true }] } })).status).toBe(200);
    const back = await call<Data<Worksheet>>(head, cyclePath(`/worksheets/${worksheet.id}/sendBack`), { method: 'POST', ifMatch: worksheet.version, json: { comment: 'Look at Ada again' } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    await expect.poll(() => server.smtp.to(marco.email).filter((mail) => mail.text.includes('was sent back to you')).length, { timeout: 15_000 }).toBe(1);
    const secondNotice = notice(headSocket, 'waits for your review');
    const again = await call<Data<Worksheet>>(marco, cyclePath(`/worksheets/${worksheet.id}/submit`), { method: 'POST', ifMatch: back.body.data.version, json: {} });
    expect(again.status).toBe(200);
    await secondNotice;
    await expect.poll(() => reviewNotices(head).length, { timeout: 15_000 }).toBe(1);
    // Non-ASCII words travel encoded; the plain ones are enough to know the message.
    expect(reviewNotices(head)[0]?.text).toContain('worksheet was submitted and waits for your review in the merit cycle');
    expect(reviewNotices(head)[0]?.text).toContain('Marco Manager');
  });
});
