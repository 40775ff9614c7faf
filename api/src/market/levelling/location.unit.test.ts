import { describe, expect, it } from 'vitest';
import { COUNTRIES, findLocation } from '../../reference/catalog/index.js';
import { marketLocation } from './service.js';

describe('where levelling reads an employee’s pay', () => {
  it('knows every ISO 3166-1 country the product has by its code, not a short list', () => {
    expect(COUNTRIES).toHaveLength(249);
    const read = COUNTRIES.map((country) => [country.alpha2, marketLocation({ location_id: null, country_code: country.alpha2 })]);
    expect(read.filter(([, location]) => location === null)).toEqual([]);
    // Hand-checked: Spain and India are their own places, the four metro countries their whole country.
    expect(Object.fromEntries(read.filter(([code]) => ['ES', 'IN', 'US', 'CA', 'GB', 'DE', 'FR'].includes(code ?? '')))).toEqual({
      ES: '724',
      IN: '356',
      US: '840',
      CA: '124',
      GB: '826',
      DE: '276',
      FR: '250',
    });
    expect(findLocation('724')?.parentId).toBe('150');
  });

  it('prefers the catalog location, reads a code in any case, and places no code ISO 3166-1 lacks', () => {
    expect(marketLocation({ location_id: 'gb_london', country_code: 'GB' })).toBe('gb_london');
    expect(marketLocation({ location_id: 'nowhere', country_code: 'es' })).toBe('724');
    expect(marketLocation({ location_id: null, country_code: 'XK' })).toBeNull();
    expect(marketLocation({ location_id: null, country_code: null })).toBeNull();
  });
});
