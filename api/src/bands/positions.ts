import type { Knex } from 'knex';
import type { Caller, CompanyScope } from '../access/caller.js';
import { moduleAvailable } from '../access/flags.js';
import type { components } from '../contract-types.js';
import type { Converter, Money } from '../money/converter.js';
import { compaRatio, positionIn, rangePenetration } from './formulas.js';
import { type Placeable, type Unplaced, loadBandLocator, missingKeyLabel } from './placement.js';
import { findLiveSet } from './store.js';

/* Where an employee's base sits in the live band set: what other modules (the team view) show of bands. */

export type BandPosition = components['schemas']['TeamBandPosition'];

const UNPLACED_LABELS: Record<Exclude<Unplaced, 'noJobKey'>, string> = {
  noFamilyOrLevel: 'No job family or level',
  noCompanyJob: 'No company job for their family and level',
  noBand: 'No band for their job or its grade in their pay zone',
};

export interface BandPlacer {
  /** Their band in the live set (their job's in their pay zone, else their grade's) and their base's place in it; `label` says why not. */
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
  const locator = await loadBandLocator(db, scope, set.id);
  if (!locator) return null;
  const unplaced = (label: string): BandPosition => ({ bandSetId: set.id, bandSetName: set.name, band: null, source: null, gradeKey: null, compaRatio: null, rangePenetration: null, position: null, label });
  return {
    async place(employee, base) {
      const placement = locator.locate(employee);
      if (!placement.band) return unplaced(placement.unplaced === 'noJobKey' ? missingKeyLabel(locator.matching) : UNPLACED_LABELS[placement.unplaced]);
      const band = placement.band;
      const [min, mid, max] = [Number(band.min_amount), Number(band.mid_amount), Number(band.max_amount)];
      const money = (amount: number) => ({ amount, currency: band.currency });
      const placed = { ...unplaced(''), band: { min: money(min), mid: money(mid), max: money(max) }, source: placement.source, gradeKey: placement.gradeKey };
      if (!base) return { ...placed, label: 'No base salary' };
      const converted = await converter.convert(base, band.currency);
      if (!converted) return { ...placed, label: `No reference exchange rate from ${base.currency} to ${band.currency}` };
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
