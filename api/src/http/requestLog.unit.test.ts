import { describe, expect, it } from 'vitest';
import { loggedUrl } from './requestLog.js';

describe('the access log', () => {
  it('never writes a link secret', () => {
    expect(loggedUrl('/api/offer-letters/q7Zk-secret_1/accept')).toBe('/api/offer-letters/[secret]/accept');
    expect(loggedUrl('/api/offer-letters/q7Zk-secret_1')).toBe('/api/offer-letters/[secret]');
    expect(loggedUrl('/invitation/abcDEF123')).toBe('/invitation/[secret]');
    expect(loggedUrl('/password-reset/abc?x=1')).toBe('/password-reset/[secret]?x=1');
  });

  it('keeps every other URL as it came', () => {
    expect(loggedUrl('/api/offers/0193-id?state=sent')).toBe('/api/offers/0193-id?state=sent');
    expect(loggedUrl('/api/me')).toBe('/api/me');
  });
});
