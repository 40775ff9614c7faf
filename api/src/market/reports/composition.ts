import type { components } from '../../contract-types.js';
import { LOCATIONS } from '../../reference/catalog/index.js';
import { describeRelease, disclose, roundDownCount, type CompositionEntry } from '../engine/index.js';
import { presentEntry } from '../present.js';
import { currentRelease } from '../releases.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];

/** Buckets only; a group below the privacy threshold gets the below-threshold bucket. */
function bucketed(entry: CompositionEntry, name?: string): Schemas['MarketingCompositionEntry'] {
  const presented = presentEntry(entry, name);
  return { id: presented.id, name: presented.name, companyBucket: presented.companyBucket, employeeBucket: presented.employeeBucket };
}

const locationNames = new Map(LOCATIONS.map((l) => [l.paybenchLocationId, l.paybenchLocationName]));

/**
 * The data-composition page for prospects: what the served release covers, as buckets and rounded
 * totals only; rounded counts per group are for the people who benchmark.
 */
export async function marketingComposition(ctx: Pick<ServiceContext, 'deps'>): Promise<Schemas['MarketingComposition']> {
  const { deps } = ctx;
  const served = await currentRelease(deps);
  const composition = describeRelease(served.release);
  const whole = disclose({ id: 'all', ...composition });
  return {
    releaseVersion: served.row.version,
    // "At least 750 companies": rounded down (roundDownCount), never the exact count.
    companiesAtLeast: roundDownCount(composition.companies),
    employeesAtLeast: roundDownCount(composition.employees),
    companyBucket: whole.companyBucket,
    employeeBucket: whole.employeeBucket,
    industries: composition.industries.map((e) => bucketed(e)),
    companyStages: composition.companyStages.map((e) => bucketed(e)),
    jobFamilies: composition.jobFamilies.map((e) => bucketed(e)),
    locations: composition.locations.filter((e) => LOCATIONS.find((l) => l.paybenchLocationId === e.id)?.kind !== 'metro').map((e) => bucketed(e, locationNames.get(e.id))),
  };
}
