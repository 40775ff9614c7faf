import type { components } from '../contract-types.js';
import { badRequest } from '../kernel/errors.js';
import type { Converter } from '../money/converter.js';
import { applyDifferential, roundFigures, roundHalfUp, widthAround, type Width } from './formulas.js';
import { LOCATIONS, UNITED_STATES_ID, findLocation } from '../reference/catalog/index.js';
import { parseRules } from './present.js';
import type { PayZoneRow } from './store.js';

type ZoneCurrencyConversion = components['schemas']['ZoneCurrencyConversion'];

/**
 * How a build prices one zone from a figure in the set's currency: converted into the zone's own
 * currency (a UK zone's bands in GBP) at the reference rate of the set's effective date, then the
 * zone's differential, the width and the rounding, all in the zone's currency.
 */
export interface ZonePricing {
  zone: PayZoneRow;
  currency: string;
  differentialBp: number;
  /** Minor units per major unit of the zone's currency. */
  scale: number;
  /** The conversion a source records; absent for a zone in the set's currency. */
  conversion?: ZoneCurrencyConversion;
  /** A figure in major units of the set's currency, in major units of the zone's, before its differential. */
  convert: (value: number) => number;
}

/** Every zone's pricing; a zone whose currency the reference rates do not cover stops the build (400). */
export async function zonePricings(zones: readonly PayZoneRow[], set: { currency: string; effective_date: string }, converter: Converter): Promise<ZonePricing[]> {
  const pricings: ZonePricing[] = [];
  for (const zone of zones) {
    const currency = zone.currency ?? set.currency;
    const base = { zone, currency, differentialBp: Number(zone.differential_bp), scale: 10 ** converter.minorUnit(currency) };
    if (currency === set.currency) {
      pricings.push({ ...base, convert: (value) => value });
      continue;
    }
    const rate = await converter.exactRate(set.currency, currency);
    if (!rate) {
      throw badRequest(`There is no reference exchange rate from ${set.currency} to ${currency} on or before ${set.effective_date}, so the zone “${zone.name}” cannot be priced.`, [
        { field: 'path.bandSetId', message: `${zone.name} is paid in ${currency}` },
      ]);
    }
    const factor = Number(rate.n) / Number(rate.d);
    const dates = converter.ratesUsed().filter((used) => used.currency === currency || used.currency === set.currency).map((used) => used.date);
    const date = dates.sort().at(-1) ?? converter.onOrBefore;
    pricings.push({ ...base, conversion: { currency, rate: Number(factor.toPrecision(6)), date }, convert: (value) => value * factor });
  }
  return pricings;
}

/** A band's min / mid / max in the zone's major units from the anchor's figure in the set's. */
export function zoneFigures(pricing: ZonePricing, value: number, width: Width, rounding: number): { min: number; mid: number; max: number } {
  return roundFigures(widthAround(applyDifferential(pricing.convert(value), pricing.differentialBp), width), rounding);
}

/** The zone's benchmark in its minor units, from the anchor's figure in major units of the set's currency. */
export function zoneBenchmarkOf(pricing: ZonePricing, value: number): number {
  return roundHalfUp(applyDifferential(pricing.convert(value), pricing.differentialBp) * pricing.scale);
}

/** Major units of the zone's currency in its minor units. */
export const minorOf = (pricing: ZonePricing, figures: { min: number; mid: number; max: number }): { min_amount: number; mid_amount: number; max_amount: number } => ({
  min_amount: Math.round(figures.min * pricing.scale),
  mid_amount: Math.round(figures.mid * pricing.scale),
  max_amount: Math.round(figures.max * pricing.scale),
});

/** Where the anchor zone is priced: the philosophy's location, else the anchor's one country in the market, else the US. */
export function marketLocationFor(requested: string | undefined, anchor: PayZoneRow | undefined): string {
  if (requested !== undefined) {
    if (!findLocation(requested)) throw badRequest(`${requested} is not a location of the market catalog.`, [{ field: 'body.marketLocationId', message: 'is not a catalog location' }]);
    return requested;
  }
  const countries = [...new Set(anchor ? parseRules(anchor.rules).map((rule) => rule.country) : [])];
  if (countries.length === 1) {
    const country = LOCATIONS.find((location) => location.kind === 'country' && location.country === countries[0]);
    if (country) return country.paybenchLocationId;
  }
  return UNITED_STATES_ID;
}
