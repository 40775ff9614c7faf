import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { freshConfigHome, paybench } from './support.js';

type Posting = components['schemas']['JobPosting'];

describe('paybench postings', () => {
  let company: TestCompany;
  let env: Record<string, string>;
  let dir: string;
  let postingId = '';

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'CLI Postings Co');
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    for (const flag of ['offer_letters', 'bands']) expect((await request(`/api/internal/companies/${company.id}/release-flags/${flag}`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    const admin = bearer(company.users.admin as TestUser);
    const job = await request<{ data: { id: string } }>('/api/bands/jobs', { method: 'POST', headers: admin, json: { jobFamilyId: 'software_engineering', levelId: 'p3', title: 'Software Engineer' } });
    expect(job.status).toBe(201);
    // No band set yet: the recruiter states the ranges ($140,000 – $180,000 in New York City, $115,000 – $150,000 in Denver).
    const posting = await request<{ data: Posting }>('/api/postings', {
      method: 'POST',
      headers: admin,
      json: { companyJobId: job.body.data.id, locations: [{ locationId: 'us_new_york', min: 140_000_00, max: 180_000_00 }, { locationId: 'us_denver', min: 115_000_00, max: 150_000_00 }], benefitsDescription: 'Health cover and a 401(k).' },
    });
    expect(posting.status, JSON.stringify(posting.body)).toBe(201);
    postingId = posting.body.data.id;
    dir = freshConfigHome();
    env = { PAYBENCH_TOKEN: (company.users.analyst as TestUser).token, XDG_CONFIG_HOME: dir };
  });

  it('lists the postings one line per place', () => {
    const table = paybench(['postings', 'list'], env);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+TITLE\s+STATE\s+PLACE\s+RANGE\s+CHECKS\s+STALE$/);
    expect(table.stdout).toMatch(new RegExp(`${postingId}\\s+Software Engineer\\s+draft\\s+Denver, CO\\s+115,000 USD – 150,000 USD`));
    const json = JSON.parse(paybench(['postings', 'list', '--json'], env).stdout) as Posting[];
    expect(json.map((posting) => posting.id)).toEqual([postingId]);
  });

  it('exports the postings for an ATS through the server’s job, over HTTP', () => {
    const target = path.join(dir, 'postings.csv');
    const run = paybench(['postings', 'export', '--output', target], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const text = readFileSync(target, 'utf8').replace(/^\uFEFF/, '');
    expect(text.split('\n')[0]).toBe(
      'Posting ID,Title,Job family,Level,State,Remote,Hiring regions,Location,Country,Region,City,Pay zone,Currency,Pay period,Minimum,Maximum,Pay text,Benefits,Band set,Band set version,Out of band,Stale,Meets every rule in force',
    );
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => [row.Location, row.Minimum, row.Maximum, row['Pay text']])).toEqual([
      ['New York City, NY', '140000.00', '180000.00', 'New York City, NY: $140,000 to $180,000 a year (base salary), the range we in good faith expect to pay. Benefits and other compensation: Health cover and a 401(k).'],
      ['Denver, CO', '115000.00', '150000.00', 'Denver, CO: $115,000 to $150,000 a year (base salary), the range we in good faith expect to pay. Benefits and other compensation: Health cover and a 401(k).'],
    ]);
  });

  it('refuses an unknown state or format with exit 2', () => {
    const state = paybench(['postings', 'export', '--state', 'lost'], env);
    expect(state.code).toBe(2);
    expect(state.stderr).toContain('--state must be one of draft, pendingApproval, open, closed, not "lost".');
    const format = paybench(['postings', 'export', '--format', 'pdf'], env);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--format must be csv or xlsx, not "pdf".');
  });
});
