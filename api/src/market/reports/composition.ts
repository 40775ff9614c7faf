import type { components } from '../../contract-types.js';
import type { AppDeps } from '../../deps.js';
import { COMPANY_COUNT_BUCKETS, EMPLOYEE_COUNT_BUCKETS, LOCATIONS, bucketOf } from '../catalog/index.js';
import { describeRelease, type CompositionEntry } from '../engine/index.js';
import { presentEntry } from '../present.js';
import { currentRelease } from '../releases.js';

type Schemas = components['schemas'];

/** Rounded down to two significant figures: "at least 750 companies", never the exact count. */
export function atLeast(count: number): number {
  if (count < 100) return Math.floor(count / 10) * 10;
  const magnitude = 10 ** (Math.floor(Math.log10(count)) - 1);
  return Math.floor(count / magnitude) * magnitude;
}

function bucketed(entry: CompositionEntry, name?: string): Schemas['MarketingCompositionEntry'] {
  const presented = presentEntry(entry, name);
  return { id: presented.id, name: presented.name, companyBucket: presented.companyBucket, employeeBucket: presented.employeeBucket };
}

const locationNames = new Map(LOCATIONS.map((l) => [l.paybenchLocationId, l.paybenchLocationName]));

/**
 * The data-composition page for prospects: what the served release covers, as buckets and rounded
 * totals only; exact counts stay with the people who benchmark.
 */
export async function marketingComposition(deps: AppDeps): Promise<Schemas['MarketingComposition']> {
  const served = await currentRelease(deps);
  const composition = describeRelease(served.release);
  return {
    releaseVersion: served.row.version,
    companiesAtLeast: atLeast(composition.companies),
    employeesAtLeast: atLeast(composition.employees),
    companyBucket: bucketOf(COMPANY_COUNT_BUCKETS, composition.companies),
    employeeBucket: bucketOf(EMPLOYEE_COUNT_BUCKETS, composition.employees),
    industries: composition.industries.map((e) => bucketed(e)),
    companyStages: composition.companyStages.map((e) => bucketed(e)),
    jobFamilies: composition.jobFamilies.map((e) => bucketed(e)),
    locations: composition.locations.filter((e) => LOCATIONS.find((l) => l.paybenchLocationId === e.id)?.kind !== 'metro').map((e) => bucketed(e, locationNames.get(e.id))),
  };
}
