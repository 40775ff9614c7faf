import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../money/parse.js';
import { parseCountry, parseDate, parsePercent, parseWholeNumber } from './cells.js';

describe('cell values', () => {
  it.each([
    ['120000', 12_000_000],
    ['120,000', 12_000_000],
    ['120,000.50', 12_000_050],
    ['$1,234,567.8', 123_456_780],
    ['120.000,50', 12_000_050],
    ['1.234.567', 123_456_700],
    ['1234,5', 123_450],
    ['USD 95 000', 9_500_000],
    ['72 000 €', 7_200_000],
    ['0.10', 10],
  ])('reads %s as %d minor units of USD', (text, minor) => {
    expect(parseAmount(text, 'USD', 2)).toEqual({ value: minor });
  });

  it('refuses what it would have to guess, and never rounds', () => {
    expect(parseAmount('72.000', 'EUR', 2)).toEqual({ error: '"72.000" is ambiguous (thousands or decimals?): write it without a thousands separator' });
    expect(parseAmount('1.500', 'KWD', 3)).toEqual({ value: 1500 });
    expect(parseAmount('10.005', 'USD', 2)).toEqual({ error: '"10.005" is ambiguous (thousands or decimals?): write it without a thousands separator' });
    expect(parseAmount('10.0051', 'USD', 2)).toEqual({ error: '"10.0051" has more decimals than USD allows (2)' });
    expect(parseAmount('1000.5', 'JPY', 0)).toEqual({ error: '"1000.5" has more decimals than JPY allows (0)' });
    expect(parseAmount('1000.00', 'JPY', 0)).toEqual({ value: 1000 });
    expect(parseAmount('-5', 'USD', 2)).toEqual({ error: '"-5" is negative' });
    expect(parseAmount('1,2,3', 'USD', 2)).toEqual({ error: '"1,2,3" is not an amount' });
    expect(parseAmount('lots', 'USD', 2)).toEqual({ error: '"lots" is not an amount' });
  });

  it('reads percentages as basis points', () => {
    expect(parsePercent('15')).toEqual({ value: 1500 });
    expect(parsePercent('12.5 %')).toEqual({ value: 1250 });
    expect(parsePercent('0.15')).toEqual({ value: 15 });
    expect(parsePercent('12.345%')).toEqual({ error: '"12.345%" is not a percentage (write 15 or 15%)' });
  });

  it('reads ISO dates only, and real ones', () => {
    expect(parseDate('2024-02-29')).toEqual({ value: '2024-02-29' });
    expect(parseDate('2024/03/01')).toEqual({ value: '2024-03-01' });
    expect(parseDate('2024-03-01T00:00:00Z')).toEqual({ value: '2024-03-01' });
    expect(parseDate('2023-02-29')).toEqual({ error: '"2023-02-29" is not a real date' });
    expect(parseDate('03/01/2024')).toEqual({ error: '"03/01/2024" is not a date (write it as YYYY-MM-DD)' });
  });

  it('reads countries by code or English name', () => {
    expect(parseCountry('de')).toEqual({ value: 'DE' });
    expect(parseCountry('Germany')).toEqual({ value: 'DE' });
    expect(parseCountry('United States')).toEqual({ value: 'US' });
    expect(parseCountry('UK')).toEqual({ value: 'GB' });
    expect('error' in parseCountry('Narnia')).toBe(true);
    expect('error' in parseCountry('ZZ')).toBe(true);
  });

  it('reads whole numbers within bounds', () => {
    expect(parseWholeNumber('10,000', 1, 100_000)).toEqual({ value: 10_000 });
    expect(parseWholeNumber('48.0', 0, 240)).toEqual({ value: 48 });
    expect(parseWholeNumber('4.5', 0, 240)).toEqual({ error: '"4.5" is not a whole number' });
  });
});
