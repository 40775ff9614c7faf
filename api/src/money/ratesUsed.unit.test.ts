import { describe, expect, it } from 'vitest';
import { rateDateText, ratesUsedOf } from './ratesUsed.js';

const ecb = (currency: string, rate: number, date: string) => ({ base: 'EUR', currency, rate, date, source: 'European Central Bank' });
const own = { base: 'EUR', currency: 'USD', rate: 1.25, date: '2026-11-20', source: 'Company override' };

describe('naming the rates a figure was converted with', () => {
  const now = new Date('2026-12-06T10:00:00Z');

  it('writes dates as people read them', () => {
    expect(rateDateText('2025-05-09')).toBe('9 May 2025');
    expect(rateDateText('2026-12-01')).toBe('1 December 2026');
  });

  it('names the ECB date as stored and flags it when older than 30 days', () => {
    const used = ratesUsedOf({ rates: [ecb('USD', 1.1252, '2025-05-09'), ecb('GBP', 0.8477, '2025-05-09')], companyRates: false, now });
    expect(used).toMatchObject({ source: 'reference', stale: true });
    expect(used.label).toBe('Converted at the ECB reference rates of 9 May 2025 — older than 30 days (market figures always use the reference rates).');
  });

  it('does not flag a rate of 30 days ago, and flags one of 31', () => {
    // 6 December less 30 days is 6 November: that day is still fresh, 5 November is not.
    expect(ratesUsedOf({ rates: [ecb('USD', 1.1, '2026-11-06')], companyRates: false, now }).stale).toBe(false);
    expect(ratesUsedOf({ rates: [ecb('USD', 1.1, '2026-11-05')], companyRates: false, now }).stale).toBe(true);
  });

  it("names the company's own rate, fresh, beside the reference rates it fell back on", () => {
    const used = ratesUsedOf({ rates: [own, ecb('GBP', 0.8477, '2025-05-09'), ecb('USD', 1.1252, '2025-05-09')], companyRates: true, now });
    expect(used.source).toBe('company_and_reference');
    expect(used.label).toBe("Converted at your company's rate of 20 November 2026; where it has set no rate, at the ECB reference rates of 9 May 2025 — older than 30 days.");
    expect(ratesUsedOf({ rates: [own], companyRates: true, now })).toMatchObject({ source: 'company', stale: false, label: "Converted at your company's rate of 20 November 2026." });
  });

  it('says when nothing needed converting', () => {
    expect(ratesUsedOf({ rates: [], companyRates: true, now })).toMatchObject({ source: 'none', stale: false, label: 'No amount needed converting.' });
  });
});
