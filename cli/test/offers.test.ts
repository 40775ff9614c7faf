import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { freshConfigHome, paybench } from './support.js';

type OfferSummary = components['schemas']['OfferSummary'];

describe('paybench offers', () => {
  let company: TestCompany;
  let env: Record<string, string>;
  let dir: string;
  const ids = { draft: '', sent: '' };

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'CLI Offers Co');
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/offer_letters`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    const admin = bearer(company.users.admin as TestUser);
    const candidate = await request<{ data: { id: string } }>('/api/candidates', { method: 'POST', headers: admin, json: { email: `lin-${company.id.slice(-6)}@candidates.test`, firstName: 'Lin', lastName: 'Okafor' } });
    const offer = (base: number) => ({
      candidateId: candidate.body.data.id,
      jobFamilyId: 'software_engineering',
      levelId: 'p3',
      locationId: 'us_sf_bay_area',
      startDate: '2030-03-02',
      expiresOn: '2030-02-01',
      currency: 'USD',
      package: { base, bonusTargetPercent: 10 },
    });
    const draft = await request<{ data: { id: string } }>('/api/offers', { method: 'POST', headers: admin, json: offer(125_000_00) });
    expect(draft.status).toBe(201);
    ids.draft = draft.body.data.id;
    const toSend = await request<{ data: { id: string; version: number } }>('/api/offers', { method: 'POST', headers: admin, json: offer(131_500_00) });
    ids.sent = toSend.body.data.id;
    const approved = await request<{ data: { version: number } }>(`/api/offers/${ids.sent}/submit`, { method: 'POST', headers: { ...admin, 'If-Match': `"${toSend.body.data.version}"` }, json: {} });
    const sent = await request(`/api/offers/${ids.sent}/send`, { method: 'POST', headers: { ...admin, 'If-Match': `"${approved.body.data.version}"` }, json: {} });
    expect(sent.status).toBe(200);
    dir = freshConfigHome();
    env = { PAYBENCH_TOKEN: (company.users.analyst as TestUser).token, XDG_CONFIG_HOME: dir };
  });

  it('lists the offers, as JSON, as a table, and by state', () => {
    const json = paybench(['offers', 'list', '--json'], env);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const offers = JSON.parse(json.stdout) as OfferSummary[];
    expect(offers.map((offer) => [offer.id, offer.state, offer.base.amount]).sort()).toEqual(
      [
        [ids.draft, 'draft', 125_000_00],
        [ids.sent, 'sent', 131_500_00],
      ].sort(),
    );
    const table = paybench(['offers', 'list'], env);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+CANDIDATE\s+TITLE\s+STATE\s+BASE\s+START\s+EXPIRES$/);
    expect(table.stdout).toMatch(new RegExp(`${ids.sent}\\s+Lin Okafor\\s+Software Engineering\\s+sent\\s+131,500 USD\\s+2030-03-02\\s+2030-02-01`));
    const sent = paybench(['offers', 'list', '--state', 'sent', '--json'], env);
    expect((JSON.parse(sent.stdout) as OfferSummary[]).map((offer) => offer.id)).toEqual([ids.sent]);
  });

  it('exports the offers to a file through the server’s job', () => {
    const target = path.join(dir, 'offers.csv');
    const run = paybench(['offers', 'export', '--output', target], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const text = readFileSync(target, 'utf8').replace(/^\uFEFF/, '');
    expect(text.split('\n')[0]).toBe(
      'Offer ID,Candidate,Email,Title,Job family,Level,Location,Department,State,Start date,Expires on,Currency,Package,Base,Bonus target %,Bonus target,Variable,Sign-on,Equity type,Equity shares,Out of band,Sent at,Opened at,Views,Accepted at,Declined at',
    );
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row['Offer ID'] === ids.sent)).toMatchObject({ Candidate: 'Lin Okafor', State: 'sent', Base: '131500.00', 'Bonus target': '13150.00', Currency: 'USD', 'Out of band': 'no' });
  });

  it('refuses an unknown state or format with exit 2, and a company without offer letters with exit 1', async () => {
    const state = paybench(['offers', 'list', '--state', 'lost'], env);
    expect(state.code).toBe(2);
    expect(state.stdout).toBe('');
    expect(state.stderr).toContain('--state must be one of draft, pendingApproval, approved, sent, opened, accepted, declined, expired, rescinded, hireCancelled, not "lost".');
    const format = paybench(['offers', 'export', '--format', 'pdf'], env);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--format must be csv or xlsx, not "pdf".');
    const other = await createTestCompany(await testDb(), 'CLI No Offers Co');
    const off = paybench(['offers', 'list'], { ...env, PAYBENCH_TOKEN: (other.users.admin as TestUser).token });
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('Offer letters is not switched on for your company.');
  });
});
