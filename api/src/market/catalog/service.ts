import type { components } from '../../contract-types.js';
import { FAMILY_BLEND_GROUPS, JOB_FAMILIES, LOCATIONS, type Location, type LocationKind } from '../../reference/catalog/index.js';
import { describeRelease, disclose, type DisclosedEntry } from '../engine/index.js';
import { currentRelease } from '../releases.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];

/** The catalog's job families and family blend groups: reference data, the same for every company. */
export function catalogFamilies(): { jobFamilies: Schemas['CatalogJobFamily'][]; familyBlendGroups: Schemas['FamilyBlendGroup'][] } {
  return {
    jobFamilies: JOB_FAMILIES.map((f) => ({
      id: f.id,
      upstreamId: f.upstreamId,
      name: f.name,
      isFamilySearchable: f.isFamilySearchable,
      isSearchableOfferInsights: f.isSearchableOfferInsights,
      description: f.description,
      familyBlendGroupUpstreamId: f.familyBlendGroupUpstreamId,
    })),
    familyBlendGroups: FAMILY_BLEND_GROUPS.map((g) => {
      const members = JOB_FAMILIES.filter((f) => g.associatedFamilies.includes(f.id));
      return {
        id: g.id,
        upstreamId: g.upstreamId,
        name: g.name,
        // A group is searchable where one of its families is.
        isFamilySearchable: members.some((f) => f.isFamilySearchable),
        isSearchableOfferInsights: members.some((f) => f.isSearchableOfferInsights),
        description: g.description,
        familyBlendGroupUpstreamId: g.upstreamId,
        associatedFamilies: [...g.associatedFamilies],
      };
    }),
  };
}

/** Published employees from which a location's coverage reads high, then medium; anything published below is low. */
export const HIGH_COVERAGE_EMPLOYEES = 1000;
export const MEDIUM_COVERAGE_EMPLOYEES = 100;

export function coverageLabel(entry: DisclosedEntry | undefined): Schemas['CatalogLocation']['coverageLabel'] {
  if (!entry || entry.belowThreshold || entry.employees === null) return 'Insufficient data';
  if (entry.employees >= HIGH_COVERAGE_EMPLOYEES) return 'High coverage';
  if (entry.employees >= MEDIUM_COVERAGE_EMPLOYEES) return 'Medium coverage';
  return 'Low coverage';
}

export function coverageText(entry: DisclosedEntry | undefined): string {
  if (!entry || entry.belowThreshold) return 'Not enough records in this release to publish figures for this location.';
  return `${entry.employeeBucket.label} employees at ${entry.companyBucket.label} companies in this release.`;
}

const BELOW = { id: 'below_threshold', label: 'Below the threshold', min: 0, max: null };

/**
 * Every location with what the served release says of it. Counts are the composition's disclosed
 * ones (the same the data-composition screen shows), so nothing here is finer than what it publishes.
 */
export async function catalogLocations(ctx: Pick<ServiceContext, 'deps'>, kind: LocationKind | undefined): Promise<{ releaseVersion: string; locations: Schemas['CatalogLocation'][] }> {
  const { deps } = ctx;
  const served = await currentRelease(deps);
  const composition = describeRelease(served.release);
  const byId = new Map(composition.locations.map((entry) => [entry.id, disclose(entry)]));
  const releaseTypes = (['cash', 'equity'] as const).filter((type) => composition.familyCoverage.some((c) => c.broadCompType === type));
  const metroCount = (location: Location): number => {
    const below = new Set([location.paybenchLocationId]);
    // Parents come before their children in the catalog, except metros naming a tier declared later: loop to a fixed point.
    for (let grew = true; grew; ) {
      grew = false;
      for (const l of LOCATIONS) {
        if (l.parentId && below.has(l.parentId) && !below.has(l.paybenchLocationId)) {
          below.add(l.paybenchLocationId);
          grew = true;
        }
      }
    }
    return LOCATIONS.filter((l) => l.kind === 'metro' && l.paybenchLocationId !== location.paybenchLocationId && below.has(l.paybenchLocationId)).length;
  };
  return {
    releaseVersion: served.row.version,
    locations: LOCATIONS.filter((l) => !kind || l.kind === kind).map((l) => {
      const entry = byId.get(l.paybenchLocationId);
      const published = Boolean(entry && !entry.belowThreshold);
      return {
        paybenchLocationId: l.paybenchLocationId,
        paybenchLocationName: l.paybenchLocationName,
        kind: l.kind,
        description: l.description,
        parentId: l.parentId,
        metroListCount: metroCount(l),
        marketTierLocationId: l.marketTierLocationId,
        locationAliases: [...l.locationAliases],
        globalRegion: l.globalRegion,
        country: l.country,
        state: l.state,
        coordinates: l.coordinates ? { latitude: l.coordinates.latitude, longitude: l.coordinates.longitude } : null,
        isFree: l.isFree,
        isAvailable: l.isAvailable,
        isReleased: l.isReleased,
        isReleasedExecComp: l.isReleasedExecComp,
        currencyCode: l.currencyCode,
        coverageLabel: coverageLabel(entry),
        coverageText: coverageText(entry),
        isSearchableOfferInsights: l.isSearchableOfferInsights,
        employeeCountBucket: entry && published ? { ...entry.employeeBucket } : { ...BELOW },
        compTypesEnabled: published ? [...releaseTypes] : [],
      };
    }),
  };
}
