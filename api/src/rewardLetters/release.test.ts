import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, createTestUser } from '../../test/factories.js';
import { ownServer } from '../../test/ownServer.js';
import { jobEnded, until } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { switchOnPlanning } from '../meritCycles/test/fixtures.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';
import { closedCycleWithLetters } from './test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Letters = Schemas['RewardLetterCycle'];

/*
 * Releases by branch and on a date, and reminders over a real SMTP server (its own server, so every
 * e-mail travels over SMTP). Mia manages Ada and Ben; Olga manages Zed; Mia and Olga get no pay
 * change (their letters are switched off). Ada 100,000 → 104,000 USD, Ben 90,000 → 92,700, Zed 60,000 → 61,500.
 */
const server = ownServer('Letter Releases Co');
const { call } = server;
const users: Record<string, TestUser> = {};
const people: Record<string, string> = {};

async function newCycle(name: string): Promise<string> {
  const plans = {
    [people.ada as string]: { meritAmount: { amount: 400_000, currency: 'USD' } },
    [people.ben as string]: { meritAmount: { amount: 270_000, currency: 'USD' } },
    [people.zed as string]: { meritAmount: { amount: 150_000, currency: 'USD' } },
    [people.mia as string]: { meritAmount: { amount: 0, currency: 'USD' } },
    [people.olga as string]: { meritAmount: { amount: 0, currency: 'USD' } },
  };
  return closedCycleWithLetters(
    server.tokenCall,
    server.admin.token,
    { name, effectiveDate: '2026-04-01' },
    plans,
  );
}

beforeAll(async () => {
  const { db, company } = server;
  const managerRole = company.roleIds.get('people_manager') ?? '';
  const employeeRole = company.roleIds.get('employee') ?? '';
  for (const [name, role] of [['mia', managerRole], ['olga', managerRole], ['ada', employeeRole], ['ben', employeeRole], ['zed', employeeRole]] as const) {
    users[name] = await createTestUser(db, { companyId: company.id, roleIds: [role], email: `${name}-${Math.random().toString(36).slice(2, 8)}@releases.test` });
  }
  const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
  await switchOnPlanning(server.tokenCall, support.token, company.id);
  const id = company.id;
  const add = async (name: string, first: string, last: string, base: number, extra: { managerId?: string; levelId?: string }) => {
    people[name] = await insertEmployee(db, id, { firstName: first, lastName: last, userId: (users[name] as TestUser).id, performanceRating: 'meets', ...extra });
    await insertPay(db, id, people[name] as string, [{ type: 'base_salary', amount: base, currency: 'USD', effectiveDate: '2024-01-01' }]);
  };
  await add('mia', 'Mia', 'Manager', 15_000_000, { levelId: 'm4' });
  await add('olga', 'Olga', 'Other', 14_000_000, { levelId: 'm4' });
  await add('ada', 'Ada', 'Anchor', 10_000_000, { managerId: people.mia as string });
  await add('ben', 'Ben', 'Baker', 9_000_000, { managerId: people.mia as string });
  await add('zed', 'Zed', 'Zimmer', 6_000_000, { managerId: people.olga as string });
}, 300_000);

const user = (name: string): TestUser => users[name] as TestUser;
const overview = async (cycleId: string) => {
  const reply = await call<Data<Letters>>(server.admin, `/api/v2/meritCycles/${cycleId}/rewardLetters`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data;
};
const release = (cycleId: string, version: number, json: Schemas['RewardLetterReleaseInput'], as = server.admin) =>
  call<Data<Letters>>(as, `/api/v2/meritCycles/${cycleId}/rewardLetters/releases`, { method: 'POST', ifMatch: version, json });
/** The person's released letters of one cycle (each describe closes a cycle of its own). */
const myLetters = async (name: string, cycleId: string) =>
  (await call<Data<Schemas['RewardLetterSummary'][]>>(user(name), '/api/reward-letters')).body.data.filter((letter) => letter.meritCycleId === cycleId);
/** A job of this server once it has ended. */
describe('releasing reward letters by branch', () => {
  let cycleId = '';
  beforeAll(async () => {
    cycleId = await newCycle('Branch 2026');
  }, 300_000);

  it("lists the cycle's branches with their letters", async () => {
    const letters = await overview(cycleId);
    expect(letters.branches).toEqual([
      { managerEmployeeId: people.mia, name: 'Mia Manager', letters: 2, released: 0 },
      { managerEmployeeId: people.olga, name: 'Olga Other', letters: 1, released: 0 },
    ]);
    expect(letters.releasedCount).toBe(0);
  });

  it("releases Mia's branch: Ada and Ben read theirs, Zed outside it reads nothing", async () => {
    const before = await overview(cycleId);
    // A manager may not release, and a branch needs its manager.
    expect((await release(cycleId, before.version, { audience: 'branch', managerEmployeeId: people.mia as string }, user('mia'))).status).toBe(403);
    const missing = await release(cycleId, before.version, { audience: 'branch' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors?.[0]?.field).toBe('body.managerEmployeeId');

    const released = await release(cycleId, before.version, { audience: 'branch', managerEmployeeId: people.mia as string });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body.data).toMatchObject({ state: 'draft', releasedCount: 2, version: before.version + 1 });
    expect(released.body.data.letters.filter((letter) => letter.enabled).map((letter) => [letter.name, letter.releasedAt !== null])).toEqual([
      ['Ada Anchor', true],
      ['Ben Baker', true],
      ['Zed Zimmer', false],
    ]);

    // Inside the branch (the positive control): Ada reads hers, by the list and by the cycle.
    expect((await myLetters('ada', cycleId)).map((letter) => [letter.name, letter.newBase.amount])).toEqual([['Ada Anchor', 10_400_000]]);
    const own = await call<Data<Schemas['RewardLetter']>>(user('ada'), `/api/reward-letters/${cycleId}`);
    expect(own.status).toBe(200);
    expect(own.body.data.document.html).toContain('from $100,000 to $104,000');
    expect((await myLetters('ben', cycleId)).map((letter) => letter.name)).toEqual(['Ben Baker']);
    // Outside it: Zed sees nothing at all.
    expect(await myLetters('zed', cycleId)).toEqual([]);
    expect((await call(user('zed'), `/api/reward-letters/${cycleId}`)).status).toBe(404);
    expect((await call(user('zed'), `/api/v2/meritCycles/${cycleId}/rewardLetters/employees/${people.zed}`)).status).toBe(404);
    expect((await call(user('zed'), `/api/v2/meritCycles/${cycleId}/rewardLetters/employees/${people.zed}/pdf`)).status).toBe(404);
    expect((await call(user('zed'), `/api/v2/meritCycles/${cycleId}/rewardLetters/employees/${people.zed}/confirm`, { method: 'POST' })).status).toBe(404);
    // Nor does Olga, whose branch it is not: the letters are still a draft for managers.
    expect((await call<Data<Letters>>(user('olga'), `/api/v2/meritCycles/${cycleId}/rewardLetters`)).body.data.letters).toEqual([]);

    // A released letter never changes: the template is closed now.
    const template = await call<Data<Schemas['RewardLetterTemplate']>>(server.admin, `/api/v2/meritCycles/${cycleId}/rewardLetters/template`);
    expect(template.body.data.editable).toBe(false);
    const edit = await call(server.admin, `/api/v2/meritCycles/${cycleId}/rewardLetters/template`, { method: 'PUT', ifMatch: template.body.data.version, json: { title: 'Changed', body: 'Changed {{firstName}}' } });
    expect(edit.status).toBe(409);
    expect(edit.body.code).toBe('letters_released');

    // The same branch again has nothing left; a stale version is refused.
    const again = await release(cycleId, released.body.data.version, { audience: 'branch', managerEmployeeId: people.mia as string });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('nothing_to_release');
    expect((await release(cycleId, before.version, { audience: 'branch', managerEmployeeId: people.olga as string })).body.code).toBe('version_conflict');
  });

  it('then releases everyone: Zed reads his, and Ada keeps the moment hers was released', async () => {
    const before = await overview(cycleId);
    const adaReleasedAt = before.letters.find((letter) => letter.employeeId === people.ada)?.releasedAt;
    const released = await release(cycleId, before.version, { audience: 'all' });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body.data).toMatchObject({ state: 'released', releasedCount: 3 });
    expect(released.body.data.letters.find((letter) => letter.employeeId === people.ada)?.releasedAt).toBe(adaReleasedAt);
    expect((await myLetters('zed', cycleId)).map((letter) => letter.name)).toEqual(['Zed Zimmer']);
    expect((await release(cycleId, released.body.data.version, { audience: 'all' })).body.code).toBe('invalid_transition');
  });
});

describe('releasing reward letters on a date', () => {
  let cycleId = '';
  beforeAll(async () => {
    cycleId = await newCycle('Dated 2026');
  }, 300_000);

  it('refuses a moment in the past', async () => {
    const letters = await overview(cycleId);
    const past = await release(cycleId, letters.version, { audience: 'all', releaseAt: '2020-01-01T00:00:00.000Z' });
    expect(past.status).toBe(400);
    expect(past.body.errors?.[0]?.field).toBe('body.releaseAt');
  });

  it('keeps the letters closed until the moment, then a job releases them', async () => {
    const letters = await overview(cycleId);
    const at = new Date(Date.now() + 3_000).toISOString();
    const planned = await release(cycleId, letters.version, { audience: 'branch', managerEmployeeId: people.olga as string, releaseAt: at });
    expect(planned.status, JSON.stringify(planned.body)).toBe(200);
    expect(planned.body.data.state).toBe('draft');
    expect(planned.body.data.releases).toEqual([{ id: expect.any(String), audience: 'branch', managerEmployeeId: people.olga, managerName: 'Olga Other', releaseAt: at, status: 'scheduled', outcome: null }]);
    // Before the moment Zed reads nothing.
    expect(await myLetters('zed', cycleId)).toEqual([]);
    await until(async () => (await overview(cycleId)).releases[0]?.status !== 'scheduled', 30_000, 100);
    const after = await overview(cycleId);
    expect(after.releases[0]).toMatchObject({ status: 'done', outcome: '1 letter released' });
    expect(new Date(after.letters.find((letter) => letter.employeeId === people.zed)?.releasedAt ?? 0).getTime()).toBeGreaterThanOrEqual(new Date(at).getTime());
    expect((await myLetters('zed', cycleId)).map((letter) => letter.name)).toEqual(['Zed Zimmer']);
    // Outside Olga's branch nothing moved.
    expect(await myLetters('ada', cycleId)).toEqual([]);
  });

  it('calls off a planned release, which then releases nothing', async () => {
    const letters = await overview(cycleId);
    const planned = await release(cycleId, letters.version, { audience: 'all', releaseAt: new Date(Date.now() + 2_000).toISOString() });
    expect(planned.status, JSON.stringify(planned.body)).toBe(200);
    const plan = planned.body.data.releases.find((row) => row.status === 'scheduled') as Schemas['RewardLetterRelease'];
    const cancelled = await call<Data<Letters>>(server.admin, `/api/v2/meritCycles/${cycleId}/rewardLetters/releases/${plan.id}`, { method: 'DELETE', ifMatch: planned.body.data.version });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data.releases.find((row) => row.id === plan.id)?.status).toBe('cancelled');
    const twice = await call(server.admin, `/api/v2/meritCycles/${cycleId}/rewardLetters/releases/${plan.id}`, { method: 'DELETE', ifMatch: cancelled.body.data.version });
    expect(twice.body.code).toBe('release_not_scheduled');
    // Its job ends at the moment having done nothing.
    const job = (await server.db('jobs').where({ company_id: server.company.id, type: 'rewardLettersRelease' }).orderBy('created_at', 'desc').first('id')) as { id: string };
    expect((await jobEnded(server.admin, job.id, 30_000, server.url)).status).toBe('succeeded');
    expect((await overview(cycleId)).state).toBe('draft');
    expect(await myLetters('ada', cycleId)).toEqual([]);
  });
});

describe('reminders to confirm', () => {
  let cycleId = '';
  beforeAll(async () => {
    cycleId = await newCycle('Reminders 2026');
  }, 300_000);

  it('refuses when nobody has a released letter to confirm', async () => {
    const none = await call(server.admin, `/api/v2/meritCycles/${cycleId}/rewardLetters/reminders`, { method: 'POST', json: {} });
    expect(none.status).toBe(409);
    expect(none.body.code).toBe('nobody_to_remind');
  });

  it('records viewed and confirmed once each', async () => {
    const letters = await overview(cycleId);
    expect((await release(cycleId, letters.version, { audience: 'all' })).status).toBe(200);
    const first = await call<Data<Schemas['RewardLetter']>>(user('ada'), `/api/reward-letters/${cycleId}`);
    const viewedAt = first.body.data.letter.viewedAt;
    expect(viewedAt).not.toBeNull();
    expect((await call<Data<Schemas['RewardLetter']>>(user('ada'), `/api/reward-letters/${cycleId}`)).body.data.letter.viewedAt).toBe(viewedAt);
    const confirmed = await call<Data<Schemas['RewardLetter']>>(user('ada'), `/api/v2/meritCycles/${cycleId}/rewardLetters/employees/${people.ada}/confirm`, { method: 'POST' });
    const confirmedAt = confirmed.body.data.letter.confirmedAt;
    expect(confirmedAt).not.toBeNull();
    const again = await call<Data<Schemas['RewardLetter']>>(user('ada'), `/api/v2/meritCycles/${cycleId}/rewardLetters/employees/${people.ada}/confirm`, { method: 'POST' });
    expect(again.body.data.letter).toMatchObject({ confirmedAt, viewedAt });
    expect(await overview(cycleId)).toMatchObject({ letterCount: 3, releasedCount: 3, viewedCount: 1, confirmedCount: 1 });
  });

  it('e-mails the two who have not confirmed, and not Ada who has', async () => {
    expect((await call(user('mia'), `/api/v2/meritCycles/${cycleId}/rewardLetters/reminders`, { method: 'POST', json: {} })).status).toBe(403);
    const sent = await call<Data<Schemas['RewardLetterReminders']>>(server.admin, `/api/v2/meritCycles/${cycleId}/rewardLetters/reminders`, { method: 'POST', json: {} });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect(sent.body.data).toMatchObject({ unconfirmed: 2, withoutEmail: 0 });
    expect((await jobEnded(server.admin, sent.body.data.jobId, 30_000, server.url)).status).toBe('succeeded');
    await until(() => server.smtp.to(user('ben').email).length + server.smtp.to(user('zed').email).length >= 2, 15_000);
    const ben = server.smtp.to(user('ben').email);
    const zed = server.smtp.to(user('zed').email);
    expect(ben).toHaveLength(1);
    expect(zed).toHaveLength(1);
    // Long headers are folded onto continuation lines: read them unfolded.
    expect(ben[0]?.text.replace(/\r?\n[ \t]+/g, ' ')).toContain('Subject: Paybench: please confirm your reward letter for Reminders 2026');
    expect(ben[0]?.text).toContain('Hello Ben,');
    expect(ben[0]?.text).toContain(`/rewardletters/${cycleId}`);
    expect(server.smtp.to(user('ada').email)).toEqual([]);
    // Managers without a letter get no reminder either (only the planning process's own mail).
    for (const manager of ['mia', 'olga']) expect(server.smtp.to(user(manager).email).filter((mail) => mail.text.includes('reward letter'))).toEqual([]);
    const after = await overview(cycleId);
    expect(after.letters.filter((letter) => letter.enabled).map((letter) => [letter.name, letter.reminders, letter.remindedAt !== null])).toEqual([
      ['Ada Anchor', 0, false],
      ['Ben Baker', 1, true],
      ['Zed Zimmer', 1, true],
    ]);
  });

  it('sends planned reminders at their moment, only to those still unconfirmed then', async () => {
    const planned = await call<Data<Schemas['RewardLetterReminders']>>(server.admin, `/api/v2/meritCycles/${cycleId}/rewardLetters/reminders`, { method: 'POST', json: { sendAt: new Date(Date.now() + 2_000).toISOString() } });
    expect(planned.status, JSON.stringify(planned.body)).toBe(202);
    expect(planned.body.data.unconfirmed).toBe(2);
    // Ben confirms before it goes out.
    expect((await call(user('ben'), `/api/v2/meritCycles/${cycleId}/rewardLetters/employees/${people.ben}/confirm`, { method: 'POST' })).status).toBe(200);
    expect((await jobEnded(server.admin, planned.body.data.jobId, 30_000, server.url)).status).toBe('succeeded');
    await until(() => server.smtp.to(user('zed').email).length >= 2, 15_000);
    expect(server.smtp.to(user('ben').email)).toHaveLength(1);
    expect(server.smtp.to(user('ada').email)).toEqual([]);
  });
});
