import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';

/** A raw request through node:http, which (unlike fetch) sends whatever headers and addresses it is given. */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; contentType: string; body: string }> {
  const url = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? '', body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('hostile input gets a clear error in the error shape, never a 500', () => {
  it('refuses JSON nested 10,000 deep with 400 on every route, and still takes ordinary bodies', async () => {
    for (const path of ['/api/events/track', '/api/events/identify']) {
      const deep = await request<ErrorBody>(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"anonymousId":"anon-1","event":"x","properties":{"a":${nested(10_000)}}}`,
      });
      expect(deep.status, path).toBe(400);
      expect(deep.body).toMatchObject({ code: 'too_deeply_nested', status: 400, message: 'The request body nests deeper than 32 levels.' });
    }
    // Brackets inside strings are text, not nesting.
    const inString = await request('/api/events/track', {
      method: 'POST',
      json: { anonymousId: 'anon-1', event: `Clicked ${'['.repeat(100)}`, properties: { a: { b: { c: 1 } } } },
    });
    expect(inString.status).toBeLessThan(300);
  });

  it('refuses a NUL character in a body, a query or a path with 400', async () => {
    const body = await request<ErrorBody>('/api/events/track', { method: 'POST', json: { anonymousId: 'anon-1', event: 'a\u0000b' } });
    expect(body.status).toBe(400);
    expect(body.body).toMatchObject({ code: 'nul_character', message: 'The request body contains a NUL character (U+0000), which Paybench does not accept.' });
    // An escaped backslash followed by "u0000" is ordinary text.
    const escapedBackslash = await request('/api/events/track', { method: 'POST', json: { anonymousId: 'anon-1', event: '\\u0000 is how JSON spells NUL' } });
    expect(escapedBackslash.status).toBeLessThan(300);

    const query = await request<ErrorBody>('/api/currencies?search=a%00b');
    expect(query.status).toBe(400);
    expect(query.body).toMatchObject({ code: 'nul_character', message: 'The address contains a NUL character (U+0000), which Paybench does not accept.' });
    const path = await request<ErrorBody>('/api/employees/a%00b');
    expect(path.status).toBe(400);
    expect(path.body.code).toBe('nul_character');
  });

  it('answers oversized headers and an oversized query with 431 in the error shape', async () => {
    const header = await rawGet('/api/health', { 'X-Padding': 'x'.repeat(20_000) });
    expect(header.status).toBe(431);
    expect(header.contentType).toContain('application/json');
    expect(JSON.parse(header.body)).toMatchObject({ status: 431, code: 'headers_too_large', title: 'Something went wrong' });

    const query = await rawGet(`/api/currencies?search=${'y'.repeat(20_000)}`);
    expect(query.status).toBe(431);
    expect(JSON.parse(query.body)).toMatchObject({ code: 'headers_too_large' });
    // Positive control: the same request without padding is answered normally.
    expect((await rawGet('/api/health')).status).toBe(200);
  });
});

describe('concurrent writers of one natural key', () => {
  let company: TestCompany;
  let employeeId: string;

  beforeAll(async () => {
    company = await createTestCompany(await testDb(), 'Race Co');
    const hired = await request<{ data: { id: string } }>('/api/employees', {
      method: 'POST',
      headers: bearer(company.users.admin!),
      json: { employeeNumber: 'RC-1', firstName: 'Rae', lastName: 'Race' },
    });
    expect(hired.status).toBe(201);
    employeeId = hired.body.data.id;
  });

  it('keep exactly one pay record of a type and date; every other writer gets 409, none a 500', async () => {
    const record = { type: 'base_salary', amount: { amount: 90_000_00, currency: 'USD' }, effectiveDate: '2025-03-01', reason: 'hire' };
    const replies = await Promise.all(
      Array.from({ length: 12 }, () =>
        request<ErrorBody>(`/api/employees/${employeeId}/compensation`, { method: 'POST', headers: bearer(company.users.admin!), json: record }),
      ),
    );
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(11);
    for (const reply of replies.filter((r) => r.status === 409)) expect(reply.body).toMatchObject({ status: 409, title: 'Something went wrong' });
    const stored = await request<{ data: unknown[] }>(`/api/employees/${employeeId}/compensation`, { headers: bearer(company.users.admin!) });
    expect(stored.body.data).toHaveLength(1);
  });
});
