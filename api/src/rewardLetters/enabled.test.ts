import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, bearer, createTestUser } from '../../test/factories.js';
import { ownServer } from '../../test/ownServer.js';
import { jobEnded, until } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { pdfText } from '../documents/test/pdfText.js';
import { readZip } from '../documents/test/readZip.js';
import { switchOnPlanning } from '../meritCycles/test/fixtures.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';
import { closedCycleWithLetters } from './test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Letters = Schemas['RewardLetterCycle'];
type Summary = Schemas['RewardLetterSummary'];

/*
 * Letters switched on or off per employee, over a real SMTP server (its own server). Hand-checked:
 * Ada 100,000 → 104,000 USD (4.0%), Ben 90,000 → 92,700 (3.0%), Zed 60,000 → 61,500 (2.5%): their
 * pay changes, so their letters are on by default. Mia (150,000) and Olga (140,000) get nothing, so
 * theirs are off. The planner switches Ben's off and Mia's on ("0.0%, from $150,000 to $150,000"):
 * Ada, Zed and Mia go out (released, reminded, exported); Ben and Olga do not.
 */
const server = ownServer('Letters Switched Co');
const { call } = server;
let cycleId = '';
const users: Record<string, TestUser> = {};
const people: Record<string, string> = {};

const user = (name: string): TestUser => users[name] as TestUser;
const lettersPath = (suffix = '') => `/api/v2/meritCycles/${cycleId}/rewardLetters${suffix}`;
const letterPath = (name: string, suffix = '') => lettersPath(`/employees/${people[name]}${suffix}`);
const overview = async () => {
  const reply = await call<Data<Letters>>(server.admin, lettersPath());
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data;
};
const letterOf = async (name: string): Promise<Summary> => (await overview()).letters.find((letter) => letter.employeeId === people[name]) as Summary;
const switchLetter = (name: string, version: number, enabled: boolean, as = server.admin) => call<Data<Summary>>(as, letterPath(name), { method: 'PATCH', ifMatch: version, json: { enabled } });

beforeAll(async () => {
  const { db, company, admin } = server;
  const managerRole = company.roleIds.get('people_manager') ?? '';
  const employeeRole = company.roleIds.get('employee') ?? '';
  for (const [name, role] of [['mia', managerRole], ['olga', managerRole], ['ada', employeeRole], ['ben', employeeRole], ['zed', employeeRole]] as const) {
    users[name] = await createTestUser(db, { companyId: company.id, roleIds: [role], email: `${name}-${Math.random().toString(36).slice(2, 8)}@switched.test` });
  }
  const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
  await switchOnPlanning(server.tokenCall, support.token, company.id);
  const add = async (name: string, first: string, last: string, base: number, extra: { managerId?: string; levelId?: string }) => {
    people[name] = await insertEmployee(db, company.id, { firstName: first, lastName: last, userId: user(name).id, performanceRating: 'meets', ...extra });
    await insertPay(db, company.id, people[name] as string, [{ type: 'base_salary', amount: base, currency: 'USD', effectiveDate: '2024-01-01' }]);
  };
  await add('mia', 'Mia', 'Manager', 15_000_000, { levelId: 'm4' });
  await add('olga', 'Olga', 'Other', 14_000_000, { levelId: 'm4' });
  await add('ada', 'Ada', 'Anchor', 10_000_000, { managerId: people.mia as string });
  await add('ben', 'Ben', 'Baker', 9_000_000, { managerId: people.mia as string });
  await add('zed', 'Zed', 'Zimmer', 6_000_000, { managerId: people.olga as string });
  cycleId = await closedCycleWithLetters(
    server.tokenCall,
    admin.token,
    { name: 'Switched 2026', effectiveDate: '2026-04-01' },
    {
      [people.ada as string]: { meritAmount: { amount: 400_000, currency: 'USD' } },
      [people.ben as string]: { meritAmount: { amount: 270_000, currency: 'USD' } },
      [people.zed as string]: { meritAmount: { amount: 150_000, currency: 'USD' } },
      [people.mia as string]: { meritAmount: { amount: 0, currency: 'USD' } },
      [people.olga as string]: { meritAmount: { amount: 0, currency: 'USD' } },
    },
  );
}, 300_000);

describe('reward letters switched on or off per employee', () => {
  it('switches on only the letters of people whose pay the cycle changed, by default', async () => {
    const letters = await overview();
    expect(letters).toMatchObject({ letterCount: 3, disabledCount: 2 });
    expect(letters.letters.map((letter) => [letter.name, letter.changesPay, letter.enabled, letter.documentVersionId !== null, letter.newBase.amount])).toEqual([
      ['Ada Anchor', true, true, true, 10_400_000],
      ['Ben Baker', true, true, true, 9_270_000],
      ['Mia Manager', false, false, false, 15_000_000],
      ['Olga Other', false, false, false, 14_000_000],
      ['Zed Zimmer', true, true, true, 6_150_000],
    ]);
    // A letter switched off is not written: nothing to read.
    const off = await call(server.admin, letterPath('mia'));
    expect(off.status).toBe(409);
    expect(off.body.code).toBe('letter_disabled');
    // Its preview still works: what it would say if switched on.
    const preview = await call<Data<Schemas['RewardLetterDocument']>>(server.admin, lettersPath('/preview'), { method: 'POST', json: { employeeId: people.mia } });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data.html).toContain('your base salary changes by 0.0%, from $150,000 to $150,000');
  });

  it('switches Ben off and Mia on at each letter’s version; planners of the whole company only', async () => {
    const ben = await letterOf('ben');
    expect((await switchLetter('ben', ben.version, false, user('mia'))).status).toBe(403);
    const stale = await switchLetter('ben', ben.version + 5, false);
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    const missing = await call(server.admin, letterPath('ben'), { method: 'PATCH', json: { enabled: false } });
    expect(missing.status).toBe(428);

    const benOff = await switchLetter('ben', ben.version, false);
    expect(benOff.status, JSON.stringify(benOff.body)).toBe(200);
    expect(benOff.body.data).toMatchObject({ name: 'Ben Baker', enabled: false, changesPay: true, version: ben.version + 1, documentVersionId: null });
    expect(benOff.headers.get('etag')).toBe(`"${ben.version + 1}"`);
    expect((await call(server.admin, letterPath('ben'))).body.code).toBe('letter_disabled');

    const mia = await letterOf('mia');
    const miaOn = await switchLetter('mia', mia.version, true);
    expect(miaOn.status, JSON.stringify(miaOn.body)).toBe(200);
    expect(miaOn.body.data).toMatchObject({ enabled: true, changesPay: false, version: mia.version + 1 });
    expect(miaOn.body.data.documentVersionId).not.toBeNull();
    const read = await call<Data<Schemas['RewardLetter']>>(server.admin, letterPath('mia'));
    expect(read.status).toBe(200);
    expect(read.body.data.document.html).toContain('your base salary changes by 0.0%, from $150,000 to $150,000');

    const letters = await overview();
    expect(letters).toMatchObject({ letterCount: 3, disabledCount: 2 });
    expect(letters.letters.filter((letter) => letter.enabled).map((letter) => letter.name)).toEqual(['Ada Anchor', 'Mia Manager', 'Zed Zimmer']);
    // Branches count the letters that go out: Mia's branch is Mia and Ada now (Ben is off).
    expect(letters.branches).toEqual([
      { managerEmployeeId: people.mia, name: 'Mia Manager', letters: 2, released: 0 },
      { managerEmployeeId: people.olga, name: 'Olga Other', letters: 1, released: 0 },
    ]);
  });

  it('exports only the letters switched on', async () => {
    const started = await call<Data<Schemas['BackgroundJob']>>(server.admin, lettersPath('/exports'), { method: 'POST' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const job = await jobEnded(server.admin, started.body.data.id, 30_000, server.url);
    expect(job.status).toBe('succeeded');
    const file = await fetch(`${server.url}/api/downloads/${job.downloadId}`, { headers: bearer(server.admin) });
    expect(file.status).toBe(200);
    const entries = readZip(Buffer.from(await file.arrayBuffer()));
    expect(entries.map((entry) => entry.name)).toEqual(['reward-letter-ada-anchor.pdf', 'reward-letter-mia-manager.pdf', 'reward-letter-zed-zimmer.pdf']);
    expect(pdfText(entries[1]?.data as Buffer)).toContain('$150,000');
  });

  it('releases and reminds only the letters switched on: Ada, Zed and Mia, never Ben or Olga', async () => {
    const before = await overview();
    const released = await call<Data<Letters>>(server.admin, lettersPath('/releases'), { method: 'POST', ifMatch: before.version, json: { audience: 'all' } });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body.data).toMatchObject({ state: 'released', letterCount: 3, releasedCount: 3 });
    expect(released.body.data.letters.map((letter) => [letter.name, letter.releasedAt !== null])).toEqual([
      ['Ada Anchor', true],
      ['Ben Baker', false],
      ['Mia Manager', true],
      ['Olga Other', false],
      ['Zed Zimmer', true],
    ]);
    // The positive control: Mia reads her letter; Ben, switched off, reads nothing.
    const own = (name: string) => call<Data<Summary[]>>(user(name), '/api/reward-letters');
    expect((await own('mia')).body.data.map((letter) => [letter.name, letter.newBase.amount])).toEqual([['Mia Manager', 15_000_000]]);
    expect((await own('ben')).body.data).toEqual([]);
    expect((await call(user('ben'), `/api/reward-letters/${cycleId}`)).status).toBe(404);
    expect((await call(user('ben'), letterPath('ben'))).status).toBe(404);
    expect((await call(user('ben'), letterPath('ben', '/pdf'))).status).toBe(404);
    // Released: no letter is switched any more.
    const ben = await letterOf('ben');
    const late = await switchLetter('ben', ben.version, true);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('letter_released');

    const sent = await call<Data<Schemas['RewardLetterReminders']>>(server.admin, lettersPath('/reminders'), { method: 'POST', json: {} });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect(sent.body.data).toMatchObject({ unconfirmed: 3, withoutEmail: 0 });
    expect((await jobEnded(server.admin, sent.body.data.jobId, 30_000, server.url)).status).toBe('succeeded');
    await until(() => ['ada', 'zed', 'mia'].every((name) => server.smtp.to(user(name).email).some((mail) => mail.text.includes('Hello'))), 15_000);
    for (const name of ['ada', 'zed', 'mia']) expect(server.smtp.to(user(name).email).filter((mail) => mail.text.includes('reward letter for Switched 2026'))).toHaveLength(1);
    for (const name of ['ben', 'olga']) expect(server.smtp.to(user(name).email).filter((mail) => mail.text.includes('reward letter'))).toEqual([]);
  });
});
