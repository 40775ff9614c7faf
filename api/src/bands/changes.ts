import { companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { badRequest } from '../kernel/errors.js';
import { type BandJobRow, listBands, listGradeBands } from './store.js';
import { callerZoneReach, requireSet } from './sets.js';
import { inReach } from './zoneAccess.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type BandChange = Schemas['BandChange'];
type Range = Schemas['BandRange'];

type BandSetCounts = Schemas['BandSetChanges']['counts'];
type RangeRow = Pick<BandJobRow, 'min_amount' | 'mid_amount' | 'max_amount' | 'currency'>;
type GradeBandListRow = Awaited<ReturnType<typeof listGradeBands>>[number];

function rangeOf(band: RangeRow): Range {
  const currency = band.currency;
  return {
    min: { amount: Number(band.min_amount), currency },
    mid: { amount: Number(band.mid_amount), currency },
    max: { amount: Number(band.max_amount), currency },
  };
}

/** The midpoint's move in basis points of the earlier one (4.0% = 400), null across currencies or from nothing. */
function midChangeBp(before: Range, after: Range): number | null {
  if (before.mid.currency !== after.mid.currency || before.mid.amount <= 0) return null;
  return Math.round(((after.mid.amount - before.mid.amount) / before.mid.amount) * 10_000);
}

const same = (before: Range, after: Range): boolean =>
  before.min.currency === after.min.currency && (['min', 'mid', 'max'] as const).every((part) => before[part].amount === after[part].amount);

/** A band of either kind, keyed by what matches it across sets (company job or comp grade, × pay zone). */
interface Comparable<R> {
  key: string;
  row: R;
  range: Range;
}

/** Matches two sets' bands of one kind: the added, removed and moved ones, each built by `entry`; unchanged ones counted. */
function compare<R, C>(
  bands: readonly Comparable<R>[],
  earlier: readonly Comparable<R>[],
  counts: BandSetCounts,
  entry: (row: R, change: BandChange['change'], from: Range | null, to: Range | null) => C,
): C[] {
  const before = new Map(earlier.map((band) => [band.key, band]));
  const changes: C[] = [];
  for (const band of bands) {
    const old = before.get(band.key);
    before.delete(band.key);
    const to = band.range;
    if (!old) {
      counts.added += 1;
      changes.push(entry(band.row, 'added', null, to));
      continue;
    }
    const from = old.range;
    if (same(from, to)) counts.unchanged += 1;
    else {
      counts.changed += 1;
      changes.push(entry(band.row, 'changed', from, to));
    }
  }
  for (const old of before.values()) {
    counts.removed += 1;
    changes.push(entry(old.row, 'removed', old.range, null));
  }
  return changes;
}

const comparable = <R extends RangeRow>(key: (row: R) => string) => (row: R): Comparable<R> => ({ key: key(row), row, range: rangeOf(row) });

/**
 * What changed in a band set since another of the company's sets (a draft against the live set, a
 * live set against the one it replaced): job bands matched by company job and pay zone, grade bands
 * by comp grade and pay zone, added, removed or moved, with the midpoint's change. Unchanged bands
 * are counted, not listed.
 */
export async function bandSetChanges(ctx: Pick<ServiceContext, 'db' | 'caller'>, bandSetId: string, sinceId: string): Promise<Schemas['BandSetChanges']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const [set, since] = [await requireSet(db, scope, bandSetId), await requireSet(db, scope, sinceId)];
  if (since.id === set.id) throw badRequest('Compare a band set with another set, not with itself.', [{ field: 'query.since', message: 'is this band set' }]);
  // A holder limited to some pay zones compares their zones' bands only.
  const reach = await callerZoneReach(db, scope, caller);
  const counts: BandSetCounts = { added: 0, removed: 0, changed: 0, unchanged: 0 };
  const jobBand = comparable<BandJobRow>((band) => `${band.company_job_id}|${band.pay_zone_id}`);
  const bands = compare(
    inReach(await listBands(db, scope, set.id), reach).map(jobBand),
    inReach(await listBands(db, scope, since.id), reach).map(jobBand),
    counts,
    (band, change, from, to): BandChange => ({
      companyJobId: band.company_job_id,
      payZoneId: band.pay_zone_id,
      jobFamilyId: band.job_family_id,
      levelId: band.level_id,
      trackId: band.track,
      change,
      before: from,
      after: to,
      midChangeBp: from && to ? midChangeBp(from, to) : null,
    }),
  );
  const gradeBand = comparable<GradeBandListRow>((band) => `${band.grade_id}|${band.pay_zone_id}`);
  const gradeBands = compare(
    inReach(await listGradeBands(db, scope, set.id), reach).map(gradeBand),
    inReach(await listGradeBands(db, scope, since.id), reach).map(gradeBand),
    counts,
    (band, change, from, to): Schemas['GradeBandChange'] => ({
      gradeId: band.grade_id,
      gradeKey: band.grade_key,
      payZoneId: band.pay_zone_id,
      change,
      before: from,
      after: to,
      midChangeBp: from && to ? midChangeBp(from, to) : null,
    }),
  );
  return { bandSetId: set.id, sinceBandSetId: since.id, counts, bands, gradeBands };
}
