import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../../test/factories.js';
import { type ErrorBody, request } from '../../../test/http.js';
import { startTestServer } from '../../../test/server.js';
import type { components } from '../../contract-types.js';
import { type TestSmtp, startTestSmtp } from '../../identity/testMail.js';
import { ENGINEERS_US } from '../test/requests.js';

type Schemas = components['schemas'];
type Slice = Schemas['SharedSlice'];
type Collaborator = Schemas['SliceCollaborator'];
type View = Schemas['CollaboratorSliceView'];

const DAY = 24 * 3600_000;
const EXECUTIVE = { founderTypes: ['non_founder'], jobTitles: ['cto'], marketFilters: [{ industries: ['ind_all'] }], compensationTypes: ['base'] };

/** Its own server, with e-mail going to a real SMTP server of the test's. */
describe('collaborators of a shared slice', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let smtp: TestSmtp;
  let company: TestCompany;
  let admin: TestUser;
  let slice: Slice;
  const at = <T>(path: string, user: TestUser | null, init: Parameters<typeof request>[1] = {}) =>
    request<T>(path, { ...init, base: server.url, headers: { ...(user ? bearer(user) : {}), ...(init.headers as Record<string, string> | undefined) } });
  const invite = (json: unknown, sliceId = slice.id, user = admin) => at<{ data: Collaborator }>(`/api/benchmarking/shares/${sliceId}/collaborators`, user, { method: 'POST', json });
  const open = (link: string) => request<{ data: View }>(new URL(link).pathname.replace('/collaborator/', '/api/collaborator-slices/'), { base: server.url, headers: { 'user-agent': 'Collaborator browser' } });
  const lastLink = (email: string) => smtp.links(email, '/collaborator/').at(-1) ?? '';
  const share = async (json: unknown, path = '/api/benchmarking/shares') => (await at<{ data: Slice }>(path, admin, { method: 'POST', json })).body.data;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer({ SMTP_URL: smtp.url }, { demoMarketRecords: 20_000 });
    company = await createTestCompany(await testDb(server.env), 'Collab Co');
    admin = company.users.admin as TestUser;
    slice = await share({ title: 'Engineers for the board', request: ENGINEERS_US });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  it('e-mails an invitee a link of their own that opens this one slice without an account, for 14 days', async () => {
    const before = Date.now();
    const invited = await invite({ email: 'Advisor@Outside.Example' });
    expect(invited.status, JSON.stringify(invited.body).slice(0, 300)).toBe(201);
    const collaborator = invited.body.data;
    expect(collaborator).toMatchObject({ sliceId: slice.id, email: 'advisor@outside.example', status: 'active', invitedBy: `Test ${admin.email.split('@')[0]}`, revokedAt: null, opens: 0, lastOpenedAt: null });
    const expires = new Date(collaborator.expiresAt).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 14 * DAY);
    expect(expires).toBeLessThanOrEqual(Date.now() + 14 * DAY);

    await expect.poll(() => smtp.to('advisor@outside.example').length, { timeout: 10_000 }).toBe(1);
    const mail = smtp.to('advisor@outside.example')[0]?.text ?? '';
    expect(mail).toContain(`Test ${admin.email.split('@')[0]} of Collab Co invited you to read a slice of market data on Paybench:`);
    expect(mail).toContain('Engineers for the board');
    expect(mail).toContain('no account needed; the link is yours alone, read-only');
    const link = lastLink('advisor@outside.example');
    expect(link).toMatch(new RegExp(`^${server.url}/collaborator/sc_[A-Za-z0-9_-]{43}$`));
    // Stored only hashed.
    const rows = await (await testDb(server.env))('market_slice_collaborators').where({ slice_id: slice.id });
    expect(JSON.stringify(rows)).not.toContain(link.split('/').at(-1));

    const viewed = await open(link);
    expect(viewed.status).toBe(200);
    const asMember = await at<{ data: Schemas['SharedSliceView'] }>(`/api/shares/${slice.id}`, admin);
    expect(viewed.body.data).toMatchObject({
      companyName: 'Collab Co',
      title: 'Engineers for the board',
      kind: 'employee',
      releaseVersion: slice.releaseVersion,
      sharedAt: slice.createdAt,
      email: 'advisor@outside.example',
      expiresAt: collaborator.expiresAt,
      markets: ['United States'],
      executiveResult: null,
    });
    expect(viewed.body.data.result).toEqual(asMember.body.data.result);
    expect(viewed.body.data.names).toEqual(
      expect.arrayContaining([
        { id: 'software_engineering', name: 'Software Engineering' },
        { id: 'p3', name: expect.stringContaining('P3') as string },
        { id: 'base', name: 'Base salary' },
      ]),
    );

    // Every open is recorded, and the company's editors see it.
    await open(link);
    const listed = await at<{ data: Collaborator[] }>(`/api/benchmarking/shares/${slice.id}/collaborators`, admin);
    const seen = listed.body.data.find((c) => c.id === collaborator.id);
    expect(seen?.opens).toBe(2);
    expect(seen?.lastOpenedAt).not.toBeNull();
    const opens = await (await testDb(server.env))('market_slice_collaborator_opens').where({ collaborator_id: collaborator.id });
    expect(opens.map((row: { user_agent: string }) => row.user_agent)).toEqual(['Collaborator browser', 'Collaborator browser']);

    // The link is not a sign-in: it opens nothing else.
    const secret = link.split('/').at(-1) ?? '';
    expect((await request(`/api/shares/${slice.id}`, { base: server.url, headers: { Authorization: `Bearer ${secret}` } })).status).toBe(401);
  });

  it('refuses an expired link and a revoked one, while another link to the same slice still opens', async () => {
    await invite({ email: 'late@outside.example', expiresInDays: 3 });
    await invite({ email: 'revoked@outside.example' });
    const control = (await invite({ email: 'control@outside.example' })).body.data;
    await expect.poll(() => smtp.to('control@outside.example').length, { timeout: 10_000 }).toBe(1);
    const late = lastLink('late@outside.example');
    const revokedLink = lastLink('revoked@outside.example');
    const controlLink = lastLink('control@outside.example');
    expect((await open(late)).status).toBe(200);

    await (await testDb(server.env))('market_slice_collaborators').where({ slice_id: slice.id, email: 'late@outside.example' }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const expired = await open(late);
    expect(expired.status).toBe(404);
    expect(expired.body).toMatchObject({ code: 'collaborator_link_expired', message: 'This link to a shared slice has expired. Ask the person who invited you for a new one.' });

    const list = (await at<{ data: Collaborator[] }>(`/api/benchmarking/shares/${slice.id}/collaborators`, admin)).body.data;
    const target = list.find((c) => c.email === 'revoked@outside.example');
    expect(list.find((c) => c.email === 'late@outside.example')?.status).toBe('expired');
    const revoked = await at<{ data: Collaborator }>(`/api/benchmarking/shares/${slice.id}/collaborators/${target?.id}/revoke`, admin, { method: 'POST' });
    expect(revoked.body.data).toMatchObject({ email: 'revoked@outside.example', status: 'revoked' });
    expect(revoked.body.data.revokedAt).not.toBeNull();
    const refused = await open(revokedLink);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ code: 'collaborator_link_revoked', message: 'This link to a shared slice was revoked. Ask the person who invited you for a new one.' });

    const stillOpen = await open(controlLink);
    expect(stillOpen.status).toBe(200);
    expect(stillOpen.body.data.email).toBe(control.email);

    const unknown = await request<ErrorBody>('/api/collaborator-slices/sc_not-a-link', { base: server.url });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'collaborator_link_unknown', message: 'This link to a shared slice is not valid.' });
  });

  it('replaces an earlier link of the same address; a revoked slice closes every link and takes no more invitations', async () => {
    const own = await share({ title: 'Closing soon', request: ENGINEERS_US });
    await invite({ email: 'twice@outside.example' }, own.id);
    await expect.poll(() => smtp.to('twice@outside.example').length, { timeout: 10_000 }).toBe(1);
    const first = lastLink('twice@outside.example');
    await invite({ email: 'twice@outside.example' }, own.id);
    await expect.poll(() => smtp.to('twice@outside.example').length, { timeout: 10_000 }).toBe(2);
    const second = lastLink('twice@outside.example');
    expect(second).not.toBe(first);
    expect((await open(first)).body).toMatchObject({ code: 'collaborator_link_revoked' });
    expect((await open(second)).status).toBe(200);

    await at(`/api/benchmarking/shares/${own.id}/revoke`, admin, { method: 'POST' });
    const closed = await open(second);
    expect(closed.status).toBe(404);
    expect(closed.body).toMatchObject({ code: 'slice_revoked', message: 'This shared slice was revoked.' });
    const late = await invite({ email: 'after@outside.example' }, own.id);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'slice_revoked', message: 'This shared slice was revoked, so nobody can be invited to it.' });
  });

  it('leaves one live link, one that was e-mailed, when the same address is invited twenty times at once', async () => {
    const own = await share({ title: 'Board pack', request: ENGINEERS_US });
    const email = 'race@outside.example';
    const replies = await Promise.all(Array.from({ length: 20 }, () => invite({ email }, own.id)));
    expect(replies.map((reply) => reply.status)).toEqual(Array<number>(20).fill(201));
    // Without the database's one-live-link rule, Postgres left 6–7 unrevoked links here.
    const live = (await (await testDb(server.env))('market_slice_collaborators').where({ slice_id: own.id, email }).whereNull('revoked_at')) as { id: string }[];
    expect(live).toHaveLength(1);
    const listed = await at<{ data: Collaborator[] }>(`/api/benchmarking/shares/${own.id}/collaborators`, admin);
    expect(listed.body.data.filter((collaborator) => collaborator.status === 'active').map((collaborator) => collaborator.id)).toEqual([live[0]?.id]);
    expect(replies.map((reply) => reply.body.data.id)).toContain(live[0]?.id);
    // The live link reached the address: of every link e-mailed, exactly one opens.
    const opening = async (): Promise<number> => (await Promise.all(smtp.links(email, '/collaborator/').map(async (link) => (await open(link)).status))).filter((status) => status === 200).length;
    await expect.poll(opening, { timeout: 10_000 }).toBe(1);
  });

  it('keeps the link within 90 days and within the slice’s own expiry, and not for the company’s own people', async () => {
    const tooLong = await at<ErrorBody>(`/api/benchmarking/shares/${slice.id}/collaborators`, admin, { method: 'POST', json: { email: 'long@outside.example', expiresInDays: 91 } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors?.[0]?.field).toBe('body.expiresInDays');
    const ninety = (await invite({ email: 'long@outside.example', expiresInDays: 90 })).body.data;
    expect(Math.round((new Date(ninety.expiresAt).getTime() - Date.now()) / DAY)).toBe(90);

    const sliceEnds = new Date(Date.now() + 2 * DAY).toISOString();
    const short = await share({ title: 'Two days', request: ENGINEERS_US, expiresAt: sliceEnds });
    const capped = (await invite({ email: 'capped@outside.example' }, short.id)).body.data;
    expect(capped.expiresAt).toBe(sliceEnds);

    const colleague = await invite({ email: company.users.employee?.email.toUpperCase() });
    expect(colleague.status).toBe(409);
    expect(colleague.body).toMatchObject({ code: 'collaborator_in_company', message: `${company.users.employee?.email} already has a Paybench account at Collab Co: they can open the slice signed in.` });
  });

  it('opens an executive slice with its own table', async () => {
    const executive = await share({ title: 'CTO pay', request: EXECUTIVE }, '/api/benchmarking/shares/executive');
    await invite({ email: 'board@outside.example' }, executive.id);
    await expect.poll(() => smtp.to('board@outside.example').length, { timeout: 10_000 }).toBe(1);
    const viewed = await open(lastLink('board@outside.example'));
    const asMember = await at<{ data: Schemas['ExecutiveSharedSliceView'] }>(`/api/shares/executive/${executive.id}`, admin);
    expect(viewed.body.data).toMatchObject({ kind: 'executive', title: 'CTO pay', result: null });
    expect(viewed.body.data.executiveResult).toEqual(asMember.body.data.result);
    expect(viewed.body.data.names).toEqual([{ id: 'base', name: 'Base salary' }]);
  });

  it('needs benchmarking edit, and another company’s slices and collaborators are 404', async () => {
    const analyst = company.users.analyst as TestUser;
    expect((await invite({ email: 'x@outside.example' }, slice.id, analyst)).status).toBe(403);
    expect((await at(`/api/benchmarking/shares/${slice.id}/collaborators`, analyst)).status).toBe(403);
    expect((await at(`/api/benchmarking/shares/${slice.id}/collaborators`, null)).status).toBe(401);

    const ours = (await invite({ email: 'ours@outside.example' })).body.data;
    const other = await createTestCompany(await testDb(server.env), 'Collab Neighbour');
    const theirAdmin = other.users.admin as TestUser;
    const list = await at<ErrorBody>(`/api/benchmarking/shares/${slice.id}/collaborators`, theirAdmin);
    expect(list.status).toBe(404);
    expect(list.body.code).toBe('not_found');
    expect((await invite({ email: 'stolen@outside.example' }, slice.id, theirAdmin)).status).toBe(404);
    expect((await at(`/api/benchmarking/shares/${slice.id}/collaborators/${ours.id}/revoke`, theirAdmin, { method: 'POST' })).status).toBe(404);
    const theirSlice = (await at<{ data: Slice }>('/api/benchmarking/shares', theirAdmin, { method: 'POST', json: { title: 'Theirs', request: ENGINEERS_US } })).body.data;
    expect((await at(`/api/benchmarking/shares/${theirSlice.id}/collaborators/${ours.id}/revoke`, theirAdmin, { method: 'POST' })).status).toBe(404);
    const still = (await at<{ data: Collaborator[] }>(`/api/benchmarking/shares/${slice.id}/collaborators`, admin)).body.data.find((c) => c.id === ours.id);
    expect(still?.status).toBe('active');
  });
});
