import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, testDb } from '../../../test/factories.js';
import { type ErrorBody, request } from '../../../test/http.js';
import type { components } from '../../contract-types.js';

type Schemas = components['schemas'];
type Families = { jobFamilies: Schemas['CatalogJobFamily'][]; familyBlendGroups: Schemas['FamilyBlendGroup'][] };
type Locations = { releaseVersion: string; locations: Schemas['CatalogLocation'][] };

describe('the catalog in the contract', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(await testDb(), 'Catalog Reader');
  });

  it('lists job families and the blend groups with the families each unites', async () => {
    const reply = await request<{ data: Families }>('/api/benchmarking/catalog/families', { headers: bearer(company.users.admin!) });
    expect(reply.status).toBe(200);
    const { jobFamilies, familyBlendGroups } = reply.body.data;
    const engineering = jobFamilies.find((f) => f.id === 'software_engineering');
    expect(engineering).toMatchObject({ name: 'Software Engineering', familyBlendGroupUpstreamId: 'bg_engineering', isFamilySearchable: true });
    const group = familyBlendGroups.find((g) => g.id === 'bg_engineering');
    expect(group?.associatedFamilies).toContain('software_engineering');
    // Every family sits in exactly one group's associatedFamilies, the group its own field names.
    for (const family of jobFamilies) {
      const holders = familyBlendGroups.filter((g) => g.associatedFamilies.includes(family.id));
      expect(holders.map((g) => g.id)).toEqual([family.familyBlendGroupUpstreamId]);
    }
  });

  it('lists locations with their coverage in the served release; metros counted under what they roll up to', async () => {
    // Benchmarking (view) is needed: an employee has none.
    const refused = await request<ErrorBody>('/api/benchmarking/catalog/locations', { headers: bearer(company.users.employee!) });
    expect(refused.status).toBe(403);
    const reply = await request<{ data: Locations }>('/api/benchmarking/catalog/locations', { headers: bearer(company.users.admin!) });
    expect(reply.status).toBe(200);
    const all = reply.body.data.locations;
    const us = all.find((l) => l.paybenchLocationId === '840');
    const metros = all.filter((l) => l.kind === 'metro');
    const tiers = all.filter((l) => l.kind === 'tier' && l.parentId === '840');
    // The US holds its tiers' metros and any metro placed on the country directly.
    const usMetros = metros.filter((m) => m.parentId === '840' || tiers.some((t) => t.paybenchLocationId === m.parentId)).length;
    expect(us?.metroListCount).toBe(usMetros);
    expect(usMetros).toBeGreaterThan(0);
    expect(metros.every((m) => m.metroListCount === 0)).toBe(true);
    for (const location of all) {
      if (location.coverageLabel === 'Insufficient data') {
        expect(location.employeeCountBucket.id).toBe('below_threshold');
        expect(location.compTypesEnabled).toEqual([]);
      } else {
        expect(location.compTypesEnabled).toContain('cash');
        expect(location.coverageText).toContain(location.employeeCountBucket.label);
      }
    }
    const onlyMetros = await request<{ data: Locations }>('/api/benchmarking/catalog/locations?kind=metro', { headers: bearer(company.users.admin!) });
    expect(onlyMetros.body.data.locations.length).toBe(metros.length);
    const bad = await request<ErrorBody>('/api/benchmarking/catalog/locations?kind=planet', { headers: bearer(company.users.admin!) });
    expect(bad.status).toBe(400);
  });
});
