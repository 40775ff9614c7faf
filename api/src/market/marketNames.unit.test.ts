import { describe, expect, it } from 'vitest';
import { COMPANY_STAGES, FOUNDER_TYPES, OWNERSHIP_GROUPS } from '../reference/catalog/index.js';
import { marketName, marketNames } from './marketNames.js';

const everything = { companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), industries: ['ind_all'] };

describe('naming a market', () => {
  it('says its locations, then only the filters that leave something out', () => {
    expect(marketName({ ...everything, locations: ['840'] })).toBe('United States');
    expect(marketName({ ...everything, companyStages: ['series_b'], locations: ['us_sf_bay_area'] })).toBe('San Francisco Bay Area · Series B');
    expect(marketName({ ...everything, locations: ['gb_london', '276'], industries: ['ind_technology', 'ind_fin_fintech'], companyOwnershipGroups: ['public'] })).toBe('London, Germany · Public · Technology, Fintech');
    expect(marketName({ ...everything, locations: ['840_1'], founderTypes: ['founder'] })).toBe('US Tier 1 · Founder');
    expect(marketName({ ...everything, locations: ['840_1'], founderTypes: FOUNDER_TYPES.map((f) => f.id) })).toBe('US Tier 1');
  });

  it('tells two markets that read the same apart by their position', () => {
    const us = { ...everything, locations: ['840'] };
    expect(marketNames([us, { ...us, companyStages: ['seed'] }, us])).toEqual(['United States (market 1)', 'United States · Seed', 'United States (market 3)']);
  });
});
