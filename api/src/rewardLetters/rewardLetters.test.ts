import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { jobEnded, until } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { pdfText } from '../documents/test/pdfText.js';
import { readZip } from '../documents/test/readZip.js';
import { switchOnPlanning } from '../meritCycles/test/fixtures.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Letters = Schemas['RewardLetterCycle'];
type Letter = Schemas['RewardLetter'];

/*
 * Hand-checked figures. Mia manages Ada and Ben; Olga manages Zed; Mia and Olga report to nobody.
 * Ada: 100,000 USD + 4,000 merit = 104,000 (4.0%), and a 5,000 one-time bonus.
 * Ben:  90,000 USD + 2,700 merit =  92,700 (3.0%).
 * Zed:  60,000 USD + 1,500 merit =  61,500 (2.5%).
 * Mia and Olga get nothing, so their letters are switched off. Effective date 2026-04-01 ("1 April 2026").
 */
describe('reward letters', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let mia: TestUser;
  let olga: TestUser;
  let ada: TestUser;
  let ben: TestUser;
  let outsider: TestUser;
  const people: Record<string, string> = {};
  let cycleId = '';

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });
  const lettersPath = (suffix = '') => `/api/v2/meritCycles/${cycleId}/rewardLetters${suffix}`;
  const letterPath = (employee: string, suffix = '') => lettersPath(`/employees/${people[employee]}${suffix}`);
  const overview = async (user: TestUser) => {
    const reply = await call<Data<Letters>>(user, lettersPath());
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data;
  };
  const readAs = (user: TestUser, employee: string) => call<Data<Letter>>(user, letterPath(employee));

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Letters Co');
    admin = company.users.admin as TestUser;
    const managerRole = company.roleIds.get('people_manager') ?? '';
    const employeeRole = company.roleIds.get('employee') ?? '';
    mia = await createTestUser(db, { companyId: company.id, roleIds: [managerRole] });
    olga = await createTestUser(db, { companyId: company.id, roleIds: [managerRole] });
    ada = await createTestUser(db, { companyId: company.id, roleIds: [employeeRole] });
    ben = await createTestUser(db, { companyId: company.id, roleIds: [employeeRole] });
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    await switchOnPlanning((url, init) => request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), support.token, company.id);
    const other = await createTestCompany(db, 'Other Letters Co');
    outsider = other.users.admin as TestUser;
    const otherSupport = await createTestUser(db, { companyId: other.id, internalAdmin: true });
    await switchOnPlanning((url, init) => request(url, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), otherSupport.token, other.id);

    const id = company.id;
    const base = (employee: string, amount: number) => insertPay(db, id, people[employee] as string, [{ type: 'base_salary', amount, currency: 'USD', effectiveDate: '2024-01-01' }]);
    people.mia = await insertEmployee(db, id, { firstName: 'Mia', lastName: 'Manager', levelId: 'm4', userId: mia.id, performanceRating: 'meets' });
    await base('mia', 15_000_000);
    people.olga = await insertEmployee(db, id, { firstName: 'Olga', lastName: 'Other', levelId: 'm4', userId: olga.id, performanceRating: 'meets' });
    await base('olga', 14_000_000);
    people.ada = await insertEmployee(db, id, { firstName: 'Ada', lastName: 'Anchor', managerId: people.mia, userId: ada.id, performanceRating: 'exceeds' });
    await base('ada', 10_000_000);
    people.ben = await insertEmployee(db, id, { firstName: 'Ben', lastName: 'Baker', managerId: people.mia, userId: ben.id, performanceRating: 'meets' });
    await base('ben', 9_000_000);
    people.zed = await insertEmployee(db, id, { firstName: 'Zed', lastName: 'Zimmer', managerId: people.olga, performanceRating: 'meets' });
    await base('zed', 6_000_000);

    const created = await call<Data<{ id: string; version: number }>>(admin, '/api/v2/meritCycles', {
      method: 'POST',
      json: { name: 'Spring 2026', effectiveDate: '2026-04-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', components: ['merit', 'promotion', 'lumpSum', 'equityRefresh'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    cycleId = created.body.data.id;
    const launched = await call<Data<{ version: number }>>(admin, `/api/v2/meritCycles/${cycleId}/transitions`, { method: 'POST', ifMatch: created.body.data.version, json: { action: 'launch' } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const plan = async (employee: string, json: Schemas['WorksheetEmployeeEdit']) => {
      const row = await call<Data<{ version: number }>>(admin, `/api/v2/meritCycles/${cycleId}/employees/${people[employee]}`);
      const edited = await call(admin, `/api/v2/meritCycles/${cycleId}/employees/${people[employee]}`, { method: 'PATCH', ifMatch: row.body.data.version, json: { ...json, comment: 'Planned for the letters test.' } });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    };
    await plan('ada', { meritAmount: { amount: 400_000, currency: 'USD' }, lumpSumAmount: { amount: 500_000, currency: 'USD' } });
    await plan('ben', { meritAmount: { amount: 270_000, currency: 'USD' } });
    await plan('zed', { meritAmount: { amount: 150_000, currency: 'USD' } });
    await plan('mia', { meritAmount: { amount: 0, currency: 'USD' } });
    await plan('olga', { meritAmount: { amount: 0, currency: 'USD' } });
    const sheets = await call<Data<{ id: string; version: number; state: string }[]>>(admin, `/api/v2/meritCycles/${cycleId}/worksheets`);
    for (const sheet of sheets.body.data) {
      const submitted = await call<Data<{ version: number }>>(admin, `/api/v2/meritCycles/${cycleId}/worksheets/${sheet.id}/submit`, { method: 'POST', ifMatch: sheet.version, json: {} });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      const approved = await call(admin, `/api/v2/meritCycles/${cycleId}/worksheets/${sheet.id}/approve`, { method: 'POST', ifMatch: submitted.body.data.version, json: {} });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    }
    const cycle = await call<Data<{ version: number }>>(admin, `/api/v2/meritCycles/${cycleId}`);
    expect((await call<Data<{ state: string }>>(admin, lettersPath())).status).toBe(404);
    const closed = await call<Data<{ state: string }>>(admin, `/api/v2/meritCycles/${cycleId}/transitions`, { method: 'POST', ifMatch: cycle.body.data.version, json: { action: 'close' } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    // The letters are rendered by a background job once the close is delivered.
    await until(async () => (await call(admin, lettersPath())).status === 200, 30_000, 100);
  });

  it('writes one letter per employee whose pay changed, with hand-checked figures', async () => {
    const letters = await overview(admin);
    expect(letters).toMatchObject({ state: 'draft', letterCount: 3, viewedCount: 0, confirmedCount: 0, availableActions: ['releaseToManagers', 'releaseToEmployees'] });
    // Mia and Olga, whose pay did not change, have letters switched off (not written).
    expect(letters.letters.filter((letter) => !letter.enabled).map((letter) => [letter.name, letter.documentVersionId])).toEqual([
      ['Mia Manager', null],
      ['Olga Other', null],
    ]);
    expect(letters.letters.filter((letter) => letter.enabled).map((letter) => [letter.name, letter.oldBase.amount, letter.newBase.amount, letter.changePercent, letter.managerName])).toEqual([
      ['Ada Anchor', 10_000_000, 10_400_000, '4.0', 'Mia Manager'],
      ['Ben Baker', 9_000_000, 9_270_000, '3.0', 'Mia Manager'],
      ['Zed Zimmer', 6_000_000, 6_150_000, '2.5', 'Olga Other'],
    ]);
    const read = await readAs(admin, 'ada');
    expect(read.status).toBe(200);
    expect(read.body.data.document.title).toBe('Reward letter — Ada Anchor');
    const html = read.body.data.document.html;
    expect(html).toContain('your base salary changes by 4.0%, from $100,000 to $104,000');
    expect(html).toContain('we are pleased to confirm your pay from 1 April 2026');
    expect(html).toContain('>Merit increase</th><td style="text-align:right;font-variant-numeric:tabular-nums;padding:6px 0;border-bottom:1px solid');
    expect(html).toContain('$4,000');
    expect(html).toContain('>One-time bonus</th>');
    expect(html).toContain('$5,000');
    expect(html).toContain('Mia Manager is happy to talk them through with you.');
    // Ben has no bonus: the row is absent, never "$0".
    expect((await readAs(admin, 'ben')).body.data.document.html).not.toContain('One-time bonus');
    // A planner reading a letter does not count as the employee viewing it.
    expect((await overview(admin)).viewedCount).toBe(0);
  });

  it('shows nothing to employees or managers before release', async () => {
    expect((await readAs(ada, 'ada')).status).toBe(404);
    expect((await call<Data<unknown[]>>(ada, '/api/reward-letters')).body.data).toEqual([]);
    expect((await readAs(mia, 'ada')).status).toBe(404);
    expect((await overview(mia)).letters).toEqual([]);
    expect((await call(ada, letterPath('ada', '/pdf'))).status).toBe(404);
    expect((await call(ada, `/api/reward-letters/${cycleId}`)).status).toBe(404);
  });

  it('previews a draft template for one employee without storing anything', async () => {
    const before = await overview(admin);
    const preview = await call<Data<Schemas['RewardLetterDocument']>>(admin, lettersPath('/preview'), {
      method: 'POST',
      json: { employeeId: people.ben, title: 'For {{firstName}}', body: 'Hi {{firstName}}, from {{effectiveDate}} you earn {{newBase}} ({{changePercent}}).' },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data.title).toBe('For Ben');
    expect(preview.body.data.html).toContain('Hi Ben, from 1 April 2026 you earn $92,700 (3.0%).');
    expect((await overview(admin)).letters).toEqual(before.letters);
    const typo = await call(admin, lettersPath('/preview'), { method: 'POST', json: { employeeId: people.ben, body: 'Hi {{fristName}}' } });
    expect(typo.status).toBe(400);
    expect(typo.body.errors?.[0]?.field).toBe('body.body');
    // Mia's letter is switched off (no pay change), and its preview says what it would if switched on.
    expect((await call<Data<Schemas['RewardLetterDocument']>>(admin, lettersPath('/preview'), { method: 'POST', json: { employeeId: people.mia } })).body.data.html).toContain('from $150,000 to $150,000');
    expect((await call(mia, lettersPath('/preview'), { method: 'POST', json: { employeeId: people.ada } })).status).toBe(403);
  });

  it('issues every letter again when the template changes before release, at the version read', async () => {
    const template = await call<Data<Schemas['RewardLetterTemplate']>>(admin, lettersPath('/template'));
    expect(template.status).toBe(200);
    expect(template.body.data).toMatchObject({ editable: true, message: 'Thank you for everything you have contributed this year.' });
    const before = (await readAs(admin, 'ada')).body.data;
    const unknown = await call(admin, lettersPath('/template'), { method: 'PUT', ifMatch: template.body.data.version, json: { title: template.body.data.title, body: 'Dear {{fristName}},' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0]).toMatchObject({ field: 'body.body' });
    const saved = await call<Data<Schemas['RewardLetterTemplate']>>(admin, lettersPath('/template'), {
      method: 'PUT',
      ifMatch: template.body.data.version,
      json: { title: template.body.data.title, body: `${template.body.data.body}\n\nP.S. {{jobTitle}}`, message: 'Well done, team.' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.version).toBe(template.body.data.version + 1);
    const stale = await call(admin, lettersPath('/template'), { method: 'PUT', ifMatch: template.body.data.version, json: { title: 'x', body: 'y' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    const after = (await readAs(admin, 'ada')).body.data;
    expect(after.letter.documentVersionId).not.toBe(before.letter.documentVersionId);
    expect(after.document.html).toContain('Well done, team.');
    expect(after.document.html).toContain('P.S. Engineer');
  });

  it('releases to managers, who see only the letters of the people below them', async () => {
    const letters = await overview(admin);
    expect((await call(mia, lettersPath('/transitions'), { method: 'POST', ifMatch: letters.version, json: { action: 'releaseToManagers' } })).status).toBe(403);
    const released = await call<Data<Letters>>(admin, lettersPath('/transitions'), { method: 'POST', ifMatch: letters.version, json: { action: 'releaseToManagers' } });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body.data).toMatchObject({ state: 'managers', availableActions: ['releaseToEmployees'] });
    expect((await overview(mia)).letters.map((letter) => letter.name)).toEqual(['Ada Anchor', 'Ben Baker']);
    expect((await overview(olga)).letters.map((letter) => letter.name)).toEqual(['Zed Zimmer']);
    expect((await readAs(mia, 'ada')).status).toBe(200);
    expect((await readAs(mia, 'zed')).status).toBe(404);
    expect((await readAs(olga, 'ada')).status).toBe(404);
    // Employees still see nothing.
    expect((await readAs(ada, 'ada')).status).toBe(404);
    const again = await call(admin, lettersPath('/transitions'), { method: 'POST', ifMatch: released.body.data.version, json: { action: 'releaseToManagers' } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_transition');
  });

  it('releases to employees: each reads only their own letter, viewed and confirmed once', async () => {
    const letters = await overview(admin);
    const released = await call<Data<Letters>>(admin, lettersPath('/transitions'), { method: 'POST', ifMatch: letters.version, json: { action: 'releaseToEmployees' } });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body.data.state).toBe('released');

    const mine = await call<Data<Schemas['RewardLetterSummary'][]>>(ada, '/api/reward-letters');
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0]).toMatchObject({ employeeId: people.ada, cycleName: 'Spring 2026', effectiveDate: '2026-04-01', changePercent: '4.0', oldBase: { amount: 10_000_000, currency: 'USD' }, newBase: { amount: 10_400_000, currency: 'USD' }, viewedAt: null });
    const own = await readAs(ada, 'ada');
    expect(own.status).toBe(200);
    expect(own.body.data.document.html).toContain('from $100,000 to $104,000');
    const viewedAt = own.body.data.letter.viewedAt;
    expect(viewedAt).not.toBeNull();
    // Her own letter by the cycle alone (what the installed app keeps offline): hers, and only hers.
    const byCycle = await call<Data<Letter>>(ada, `/api/reward-letters/${cycleId}`);
    expect(byCycle.status).toBe(200);
    expect(byCycle.body.data.letter).toMatchObject({ employeeId: people.ada, viewedAt });
    expect((await call<Data<Letter>>(ben, `/api/reward-letters/${cycleId}`)).body.data.letter.employeeId).toBe(people.ben);
    expect((await call(mia, `/api/reward-letters/${cycleId}`)).status).toBe(404);
    expect((await readAs(ada, 'ben')).status).toBe(404);
    expect((await readAs(ada, 'zed')).status).toBe(404);
    expect((await call(ada, letterPath('ben', '/pdf'))).status).toBe(404);
    expect((await readAs(ben, 'ada')).status).toBe(404);
    // Ada is no planner: the cycle's list is not hers.
    expect((await call(ada, lettersPath())).status).toBe(403);

    expect((await call(admin, letterPath('ada', '/confirm'), { method: 'POST' })).status).toBe(403);
    const confirmed = await call<Data<Letter>>(ada, letterPath('ada', '/confirm'), { method: 'POST' });
    expect(confirmed.status).toBe(200);
    const confirmedAt = confirmed.body.data.letter.confirmedAt;
    expect(confirmedAt).not.toBeNull();
    expect(confirmed.body.data.letter.viewedAt).toBe(viewedAt);
    const twice = await call<Data<Letter>>(ada, letterPath('ada', '/confirm'), { method: 'POST' });
    expect(twice.body.data.letter.confirmedAt).toBe(confirmedAt);
    // Ada and Ben opened theirs; only Ada confirmed.
    expect(await overview(admin)).toMatchObject({ viewedCount: 2, confirmedCount: 1 });
  });

  it('never changes a released letter: the template is closed to edits', async () => {
    const before = (await readAs(ada, 'ada')).body.data;
    const template = (await call<Data<Schemas['RewardLetterTemplate']>>(admin, lettersPath('/template'))).body.data;
    expect(template.editable).toBe(false);
    const edit = await call(admin, lettersPath('/template'), { method: 'PUT', ifMatch: template.version, json: { title: 'Changed', body: 'Changed {{firstName}}' } });
    expect(edit.status).toBe(409);
    expect(edit.body.code).toBe('letters_released');
    const after = (await readAs(ada, 'ada')).body.data;
    expect(after.letter.documentVersionId).toBe(before.letter.documentVersionId);
    expect(after.document.html).toBe(before.document.html);
  });

  it('gives the employee their letter as a PDF with the same figures', async () => {
    const reply = await fetch(`${baseUrl()}${letterPath('ada', '/pdf')}`, { headers: bearer(ada) });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('application/pdf');
    const text = pdfText(Buffer.from(await reply.arrayBuffer()));
    expect(text).toContain('Reward letter');
    expect(text).toContain('$104,000');
    expect(text).toContain('One-time bonus');
  });

  it('exports every letter as one ZIP of PDFs through a job', async () => {
    expect((await call(mia, lettersPath('/exports'), { method: 'POST' })).status).toBe(403);
    const started = await call<Data<Schemas['BackgroundJob']>>(admin, lettersPath('/exports'), { method: 'POST' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const job = await jobEnded(admin, started.body.data.id);
    expect(job.status).toBe('succeeded');
    const file = await fetch(`${baseUrl()}/api/downloads/${job.downloadId}`, { headers: bearer(admin) });
    expect(file.status).toBe(200);
    const entries = readZip(Buffer.from(await file.arrayBuffer()));
    expect(entries.map((entry) => entry.name)).toEqual(['reward-letter-ada-anchor.pdf', 'reward-letter-ben-baker.pdf', 'reward-letter-zed-zimmer.pdf']);
    expect(pdfText(entries[2]?.data as Buffer)).toContain('$61,500');
  });

  it("answers another company's people 404", async () => {
    expect((await call(outsider, lettersPath())).status).toBe(404);
    expect((await readAs(outsider, 'ada')).status).toBe(404);
    expect((await call(outsider, letterPath('ada', '/pdf'))).status).toBe(404);
  });
});
