import { describe, expect, it } from 'vitest';
import { keptBody, keptForSending, keptReply } from './keptJson.js';

describe('kept answers sent as bytes', () => {
  it('sends a kept value as the JSON of { data } and reuses the bytes', () => {
    const detail = keptForSending({ worksheet: { id: 'w1', version: 3 }, employees: [{ name: 'Chloé', base: 120000 }] });
    const first = keptBody({ data: detail });
    expect(first?.toString()).toBe('{"data":{"worksheet":{"id":"w1","version":3},"employees":[{"name":"Chloé","base":120000}]}}');
    expect(keptBody({ data: detail })).toBe(first);
  });

  it('sends a kept reply as it is, data and page alike, and reuses the bytes', () => {
    const reply = keptReply({ data: { rows: [{ name: 'Chloé' }] }, page: { limit: 200, nextCursor: '200' } });
    const first = keptBody(reply);
    expect(first?.toString()).toBe('{"data":{"rows":[{"name":"Chloé"}]},"page":{"limit":200,"nextCursor":"200"}}');
    expect(keptBody(reply)).toBe(first);
    expect(keptBody({ ...reply })).toBeUndefined();
  });

  it('leaves every other body to the router', () => {
    const detail = keptForSending({ id: 'w1' });
    expect(keptBody({ data: { id: 'w1' } })).toBeUndefined();
    expect(keptBody({ data: detail, page: { nextCursor: null } })).toBeUndefined();
    expect(keptBody(detail)).toBeUndefined();
    expect(keptBody(null)).toBeUndefined();
    expect(keptBody('text')).toBeUndefined();
  });
});
