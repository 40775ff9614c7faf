import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../../test/factories.js';
import { type ErrorBody, request } from '../../../test/http.js';
import { startTestServer } from '../../../test/server.js';
import type { components } from '../../contract-types.js';
import { type TestSmtp, startTestSmtp } from '../testMail.js';

type Domain = components['schemas']['CompanyDomain'];
type Sent = { data: { sentTo: string; expiresAt: string } };

// Its own server with a real SMTP server: the link travels over SMTP, and is opened as a mail client would.
describe('proving a domain by a link sent to an address at it', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let smtp: TestSmtp;
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let staff: TestUser;
  const call = <T>(path: string, user: TestUser, init: Parameters<typeof request>[1] = {}) => request<T>(path, { ...init, base: server.url, headers: bearer(user) });
  const tag = () => Math.random().toString(36).slice(2, 8);

  async function claim(domain: string, by = admin): Promise<Domain> {
    const claimed = await call<{ data: Domain }>('/api/company/domains', by, { method: 'POST', json: { domain } });
    expect(claimed.status).toBe(201);
    expect(claimed.body.data.status).toBe('pending');
    return claimed.body.data;
  }
  const sendLink = (claimId: string, localPart: string, by = admin) => call<Sent & ErrorBody>(`/api/company/domains/${claimId}/proof-link`, by, { method: 'POST', json: { localPart } });
  const lastLink = (address: string): string => {
    const links = smtp.links(address, '/domain-proof/');
    expect(links.length, `no link to ${address}`).toBeGreaterThan(0);
    return links[links.length - 1]!;
  };
  /** Opens a link as a person does: the page (GET), then its button (POST of the form). */
  const open = async (link: string) => {
    const response = await fetch(link, { redirect: 'manual' });
    return { status: response.status, html: await response.text() };
  };
  const confirm = async (link: string) => {
    const response = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    return { status: response.status, html: await response.text() };
  };
  const statusOf = async (claimId: string) => (await call<{ data: Domain[] }>('/api/company/domains', admin)).body.data.find((row) => row.id === claimId);

  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer({ SMTP_URL: smtp.url }, { demoMarketRecords: 1_000 });
    db = await testDb(server.env);
    company = await createTestCompany(db, 'Linkproof Ltd');
    admin = company.users.admin as TestUser;
    staff = await createTestUser(db, { companyId: (await createTestCompany(db, 'Support desk')).id, internalAdmin: true });
  });
  afterAll(async () => {
    await db?.destroy();
    await server?.stop();
    await smtp?.stop();
  });

  it('sends a one-time link through SMTP; opening it asks first, confirming proves the domain, and the market verification takes it', async () => {
    const domain = `linkproof-${tag()}.test`;
    const pending = await claim(domain);
    const sent = await sendLink(pending.id, 'it');
    expect(sent.status).toBe(202);
    expect(sent.body.data.sentTo).toBe(`it@${domain}`);
    const hours = (new Date(sent.body.data.expiresAt).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    // Long headers are folded onto a next line that starts with a space.
    const mail = smtp.to(`it@${domain}`)[0]?.text.replace(/\r?\n /g, ' ');
    expect(mail).toContain(`Subject: Confirm that Linkproof Ltd controls ${domain} on Paybench`);
    expect(mail).toContain(`an admin of Linkproof Ltd on Paybench, asked us to send this link to an address at ${domain}`);
    const link = lastLink(`it@${domain}`);
    expect(link.startsWith(`${server.url}/domain-proof/`)).toBe(true);
    // Only the hash of the secret is stored.
    const secret = new URL(link).pathname.split('/').pop()!;
    const stored = await db('company_domain_proof_links').where({ company_domain_id: pending.id }).first<{ token_hash: string }>('token_hash');
    expect(stored.token_hash).not.toContain(secret);
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);

    // Opening the page proves nothing yet (a mail scanner fetching links must not): it asks.
    const page = await open(link);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<h1>Confirm that Linkproof Ltd controls ${domain}</h1>`);
    expect((await statusOf(pending.id))?.status).toBe('pending');

    const done = await confirm(link);
    expect(done.status).toBe(200);
    expect(done.html).toContain(`<h1>${domain} is proven</h1>`);
    expect(await statusOf(pending.id)).toMatchObject({ status: 'proven', proof: 'email_link', txtRecord: null });

    // The same proof serves market participation: an internal admin can approve the company now.
    const verification = (await call<{ data: components['schemas']['MarketParticipation'] }>('/api/benchmarking/participation', admin)).body.data.verification;
    expect(verification.provenDomains).toEqual([domain]);
    await call('/api/benchmarking/participation', admin, { method: 'PUT', json: { participates: true, companyStage: 'series_b', ownershipGroup: 'venture_backed', industry: 'ind_tech_saas' } });
    const approved = await call<{ data: components['schemas']['MarketParticipantRequest'] }>(`/api/internal/market/participants/${company.id}/decision`, staff, { method: 'POST', json: { decision: 'approve' } });
    expect(approved.status).toBe(200);
    expect(approved.body.data.provenDomains).toEqual([domain]);

    // Used: the link works once.
    expect((await open(link)).status).toBe(410);
    const again = await confirm(link);
    expect(again.status).toBe(410);
    expect(again.html).toContain('<h1>This link has expired</h1>');
    // A proven domain needs no link.
    const proven = await sendLink(pending.id, 'it');
    expect(proven.status).toBe(409);
    expect(proven.body.code).toBe('domain_proven');
  });

  it('refuses an expired link, a replaced one, one whose claim was withdrawn, and a secret it never issued', async () => {
    const domain = `expiring-${tag()}.test`;
    const pending = await claim(domain);
    const path = async (address: string) => new URL(lastLink(address)).pathname;

    expect((await sendLink(pending.id, 'ops')).status).toBe(202);
    const expired = await path(`ops@${domain}`);
    await db('company_domain_proof_links').where({ company_domain_id: pending.id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    expect((await open(`${server.url}${expired}`)).status).toBe(410);
    expect((await confirm(`${server.url}${expired}`)).status).toBe(410);

    expect((await sendLink(pending.id, 'first')).status).toBe(202);
    const replaced = await path(`first@${domain}`);
    expect((await sendLink(pending.id, 'second')).status).toBe(202);
    const newest = await path(`second@${domain}`);
    expect((await confirm(`${server.url}${replaced}`)).status).toBe(410);

    // Withdrawn and claimed again: the claim is a new one, and the old link is not for it.
    expect((await call(`/api/company/domains/${pending.id}`, admin, { method: 'DELETE' })).status).toBe(200);
    const again = await claim(domain);
    expect((await confirm(`${server.url}${newest}`)).status).toBe(410);
    expect((await statusOf(again.id))?.status).toBe('pending');

    // Never issued: a secret of the right shape, and nonsense.
    const made = await confirm(`${server.url}/domain-proof/${randomBytes(32).toString('base64url')}`);
    expect(made.status).toBe(410);
    expect(made.html).toContain('<h1>This link has expired</h1>');
    expect((await open(`${server.url}/domain-proof/not-a-real-token`)).status).toBe(410);
    expect((await statusOf(again.id))?.status).toBe('pending');
  });

  it("answers another company's claim 404, a bad address 400 naming the field, and nobody without companySettings edit", async () => {
    const domain = `guarded-${tag()}.test`;
    const pending = await claim(domain);
    const other = await createTestCompany(db, 'Other Co');
    expect((await sendLink(pending.id, 'it', other.users.admin as TestUser)).status).toBe(404);
    expect((await sendLink(pending.id, 'it', company.users.employee as TestUser)).status).toBe(403);
    const bad = await sendLink(pending.id, 'it@elsewhere.test');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'body.localPart', message: 'must be the part of an address before the @, such as it or jane.doe' }]);
    expect((await sendLink(pending.id, '.dot')).status).toBe(400);
    // Free-mail domains cannot be claimed, so no link can be sent for one.
    expect((await call<ErrorBody>('/api/company/domains', admin, { method: 'POST', json: { domain: 'gmail.com' } })).body.code).toBe('domain_not_allowed');
  });

  it('lets a company send 5 links in 24 hours, then answers 429 with Retry-After', async () => {
    const busy = await createTestCompany(db, 'Busy Co');
    const busyAdmin = busy.users.admin as TestUser;
    const domain = `busy-${tag()}.test`;
    const pending = await claim(domain, busyAdmin);
    for (let k = 0; k < 5; k++) expect((await sendLink(pending.id, `person${k}`, busyAdmin)).status).toBe(202);
    const refused = await sendLink(pending.id, 'person5', busyAdmin);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(smtp.to(`person5@${domain}`)).toEqual([]);
  });
});
