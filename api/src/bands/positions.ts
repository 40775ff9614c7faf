import type { Knex } from 'knex';
import type { Caller, CompanyScope } from '../access/caller.js';
import { moduleAvailable } from '../access/flags.js';
import type { components } from '../contract-types.js';
import type { Converter, Money } from '../money/converter.js';
import { compaRatio, positionIn, rangePenetration } from './formulas.js';
import { cellKey } from './jobs.js';
import { type BandJobRow, findLiveSet, listBands, listJobs, listZones } from './store.js';
import { zoneMatcher } from './zones.js';

/* Where an employee's base sits in the live band set: what other modules (the team view) show of bands. */

export type BandPosition = components['schemas']['TeamBandPosition'];

/** What placing someone needs of them: their job and their place. */
export interface Placeable {
  job_family_id: string | null;
  level_id: string | null;
  country_code: string | null;
  location_id: string | null;
}

export interface BandPlacer {
  /** Their band in the live set (by company job × pay zone) and their base's place in it; `label` says why not. */
  place(employee: Placeable, base: Money | null): Promise<BandPosition>;
}

/**
 * The live band set ready to place people, read once per request; null while the company has no
 * bands module or no live set (then there is nothing to show, not "no band").
 */
export async function liveBandPlacer(db: Knex, scope: CompanyScope, caller: Caller, converter: Converter): Promise<BandPlacer | null> {
  if (!moduleAvailable('bands', caller.flags)) return null;
  const set = await findLiveSet(db, scope);
  if (!set) return null;
  const [bands, jobs, zones] = [await listBands(db, scope, set.id), await listJobs(db, scope), await listZones(db, scope)];
  if (!zones.length) return null;
  const jobByCell = new Map(jobs.map((job) => [cellKey(job.job_family_id, job.level_id), job.id]));
  const bandByJobZone = new Map<string, BandJobRow>(bands.map((band) => [`${band.company_job_id}|${band.pay_zone_id}`, band]));
  const zoneOf = zoneMatcher(zones);
  const unplaced = (label: string): BandPosition => ({ bandSetId: set.id, bandSetName: set.name, band: null, compaRatio: null, rangePenetration: null, position: null, label });
  return {
    async place(employee, base) {
      const jobId = employee.job_family_id && employee.level_id ? jobByCell.get(cellKey(employee.job_family_id, employee.level_id)) : undefined;
      if (!jobId) return unplaced('No company job for their family and level');
      const band = bandByJobZone.get(`${jobId}|${zoneOf(employee)}`);
      if (!band) return unplaced('No band for their job and pay zone');
      const [min, mid, max] = [Number(band.min_amount), Number(band.mid_amount), Number(band.max_amount)];
      const placed = { ...unplaced(''), band: { min: { amount: min, currency: set.currency }, mid: { amount: mid, currency: set.currency }, max: { amount: max, currency: set.currency } } };
      if (!base) return { ...placed, label: 'No base salary' };
      const converted = await converter.convert(base, set.currency);
      if (!converted) return { ...placed, label: `No reference exchange rate from ${base.currency} to ${set.currency}` };
      return {
        ...placed,
        compaRatio: compaRatio(converted.amount, mid),
        rangePenetration: rangePenetration(converted.amount, min, max),
        position: positionIn(converted.amount, min, max),
        label: null,
      };
    },
  };
}
