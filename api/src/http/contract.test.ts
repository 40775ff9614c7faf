import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ErrorBody, request } from '../../test/http.js';
import { startTestServer } from '../../test/server.js';

const CONVERT = '/api/forex/convert';
const valid = { amount: { amount: 100_00, currency: 'USD' }, to: 'EUR', date: '2024-01-02' };

function expectErrorShape(body: ErrorBody, status: number, title: string): void {
  expect(body).toMatchObject({ status, title });
  expect(body.code).toMatch(/^[a-z][a-z0-9_]*$/);
  expect(typeof body.description).toBe('string');
}

describe('every request is checked against the contract before a handler runs', () => {
  it('names a field of the wrong type', async () => {
    const reply = await request<ErrorBody>(CONVERT, { method: 'POST', json: { ...valid, amount: { amount: '10', currency: 'USD' } } });
    expect(reply.status).toBe(400);
    expectErrorShape(reply.body, 400, 'Something went wrong');
    expect(reply.body.description).toBe('An unexpected error occurred. Please wait and try again.');
    expect(reply.body.errors).toContainEqual({ field: 'body.amount.amount', message: 'must be integer' });
  });

  it('names a missing field', async () => {
    const reply = await request<ErrorBody>(CONVERT, { method: 'POST', json: { amount: valid.amount } });
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toContainEqual({ field: 'body.to', message: 'is required' });
  });

  it('names an unknown enum value and lists the allowed ones', async () => {
    const reply = await request<ErrorBody>(CONVERT, { method: 'POST', json: { ...valid, rounding: 'sideways' } });
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toContainEqual({ field: 'body.rounding', message: 'must be one of: halfEven, halfUp, down, up' });
  });

  it('names an extra property where the contract forbids one', async () => {
    const reply = await request<ErrorBody>(CONVERT, { method: 'POST', json: { ...valid, fee: 3 } });
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toContainEqual({ field: 'body.fee', message: 'is not allowed here' });
  });

  it('checks query parameters too, and refuses unknown ones', async () => {
    const wrongType = await request<ErrorBody>('/api/forex/rates/history?currency=GBP&limit=many');
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors).toContainEqual({ field: 'query.limit', message: 'must be integer' });
    const tooMany = await request<ErrorBody>('/api/forex/rates/history?currency=GBP&limit=501');
    expect(tooMany.body.errors).toContainEqual({ field: 'query.limit', message: 'must be <= 500' });
    const unknown = await request<ErrorBody>('/api/forex/rates/latest?bsae=EUR');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toContainEqual({ field: 'query.bsae', message: 'is not allowed here' });
  });

  it('refuses a body that is not JSON, and JSON that does not parse', async () => {
    const text = await request<ErrorBody>(CONVERT, { method: 'POST', body: 'amount=1', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.code).toBe('unsupported_media_type');
    const broken = await request<ErrorBody>(CONVERT, { method: 'POST', body: '{"amount":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('malformed_json');
  });

  it('answers an oversize body with 413 in the error shape', async () => {
    const huge = { ...valid, padding: 'x'.repeat(2 * 1024 * 1024) };
    const reply = await request<ErrorBody>(CONVERT, { method: 'POST', json: huge });
    expect(reply.status).toBe(413);
    expectErrorShape(reply.body, 413, 'Something went wrong');
  });

  it('answers a route outside the contract with the 404 shape', async () => {
    const reply = await request<ErrorBody>('/api/salaries/everyone');
    expect(reply.status).toBe(404);
    expectErrorShape(reply.body, 404, 'Not found');
    expect(reply.body.description).toBe('The content could not be found.');
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const reply = await request<ErrorBody>('/api/health', { method: 'DELETE' });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET');
    expectErrorShape(reply.body, 405, 'Something went wrong');
  });
});

describe('rate limiting', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer({ PAYBENCH_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => server.stop());

  it('answers the request over the limit with 429, the catalogue text and Retry-After', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof request<ErrorBody>>> | undefined;
    for (let i = 0; i < 4; i += 1) {
      last = await request<ErrorBody>('/api/health', { base: server.url });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last?.body).toMatchObject({
      status: 429,
      code: 'rate_limited',
      title: 'Rate limit exceeded',
      description: 'Too many requests have been made. Please wait 60 seconds and try again.',
    });
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
