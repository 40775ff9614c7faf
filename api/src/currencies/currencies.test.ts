import { describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { request } from '../../test/http.js';

type Currency = components['schemas']['Currency'];

describe('GET /api/currencies', () => {
  it('lists the 178 current ISO 4217 codes with their minor units', async () => {
    const reply = await request<{ data: Currency[] }>('/api/currencies');
    expect(reply.status).toBe(200);
    const byCode = new Map(reply.body.data.map((currency) => [currency.code, currency]));
    expect(byCode.size).toBe(178);
    expect(byCode.get('USD')).toMatchObject({ numericCode: '840', minorUnit: 2, name: 'US Dollar' });
    expect(byCode.get('JPY')?.minorUnit).toBe(0);
    expect(byCode.get('BHD')?.minorUnit).toBe(3);
    expect(byCode.get('CLF')?.minorUnit).toBe(4);
    expect(byCode.get('XDR')?.minorUnit).toBeNull();
    expect(byCode.get('ZWG')).toBeDefined();
    // Withdrawn codes are not current.
    expect(byCode.has('DEM')).toBe(false);
    expect(byCode.has('CYP')).toBe(false);
    expect(byCode.get('EUR')?.entities.length).toBeGreaterThan(20);
  });

  it('trims stray white space, no-break spaces included, from every field', async () => {
    const reply = await request<{ data: Currency[] }>('/api/currencies');
    const texts = reply.body.data.flatMap((currency) => [currency.name, ...currency.entities]);
    expect(texts.filter((text) => text !== text.trim() || /\u00a0/.test(text))).toEqual([]);
    expect(reply.body.data.find((c) => c.code === 'XDR')?.entities).toContain('INTERNATIONAL MONETARY FUND (IMF)');
  });
});
