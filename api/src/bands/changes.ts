import type { Knex } from 'knex';
import { type Caller, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { badRequest } from '../http/errors.js';
import type { BandJobRow } from './store.js';
import { listBands } from './store.js';
import { callerZoneReach, requireSet } from './sets.js';
import { inReach } from './zoneAccess.js';

type Schemas = components['schemas'];
type BandChange = Schemas['BandChange'];
type Range = Schemas['BandRange'];

const keyOf = (band: BandJobRow): string => `${band.company_job_id}|${band.pay_zone_id}`;

function rangeOf(band: BandJobRow, currency: string): Range {
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

/**
 * What changed in a band set since another of the company's sets (a draft against the live set, a
 * live set against the one it replaced): bands matched by company job and pay zone, added, removed
 * or moved, with the midpoint's change. Unchanged bands are counted, not listed.
 */
export async function bandSetChanges(db: Knex, caller: Caller, bandSetId: string, sinceId: string): Promise<Schemas['BandSetChanges']> {
  const scope = companyScope(caller);
  const [set, since] = [await requireSet(db, scope, bandSetId), await requireSet(db, scope, sinceId)];
  if (since.id === set.id) throw badRequest('Compare a band set with another set, not with itself.', [{ field: 'query.since', message: 'is this band set' }]);
  // A holder limited to some pay zones compares their zones' bands only.
  const reach = await callerZoneReach(db, scope, caller);
  const [bands, earlier] = [inReach(await listBands(db, scope, set.id), reach), inReach(await listBands(db, scope, since.id), reach)];
  const before = new Map(earlier.map((band) => [keyOf(band), band]));
  const counts = { added: 0, removed: 0, changed: 0, unchanged: 0 };
  const changes: BandChange[] = [];
  const entry = (band: BandJobRow, change: BandChange['change'], from: Range | null, to: Range | null): BandChange => ({
    companyJobId: band.company_job_id,
    payZoneId: band.pay_zone_id,
    jobFamilyId: band.job_family_id,
    levelId: band.level_id,
    trackId: band.track,
    change,
    before: from,
    after: to,
    midChangeBp: from && to ? midChangeBp(from, to) : null,
  });
  for (const band of bands) {
    const old = before.get(keyOf(band));
    before.delete(keyOf(band));
    const to = rangeOf(band, set.currency);
    if (!old) {
      counts.added += 1;
      changes.push(entry(band, 'added', null, to));
      continue;
    }
    const from = rangeOf(old, since.currency);
    if (same(from, to)) counts.unchanged += 1;
    else {
      counts.changed += 1;
      changes.push(entry(band, 'changed', from, to));
    }
  }
  for (const old of before.values()) {
    counts.removed += 1;
    changes.push(entry(old, 'removed', rangeOf(old, since.currency), null));
  }
  return { bandSetId: set.id, sinceBandSetId: since.id, counts, bands: changes };
}
