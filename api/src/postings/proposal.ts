import type { Knex } from 'knex';
import type { Caller, CompanyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import { type BandLocator, loadBandLocator } from '../bands/placement.js';
import { type BandSetRow, type CompanyJobRow, findLiveSet } from '../bands/store.js';
import { seesAllZones, zoneReach } from '../bands/zoneAccess.js';
import type { components } from '../contract-types.js';
import { HttpError, type FieldError, badRequest } from '../kernel/errors.js';
import { decimalsOf } from '../money/format.js';
import { findLocation } from '../reference/catalog/index.js';

/*
 * Where a posting's ranges come from: each place's pay zone (the bands' own zone rules), that zone's
 * band for the job in the live band set (else the job's grade band there), in the band's currency
 * (its zone's), rounded inwards to the company's chosen unit so the range stays inside the band. The
 * recruiter may narrow it; a range beyond the band is kept and marked, and needs approval.
 */

type Schemas = components['schemas'];

export interface StoredFigures {
  min: number;
  max: number;
}

export interface StoredLocation {
  key: string;
  locationId: string | null;
  name: string;
  countryCode: string;
  stateCode: string | null;
  city: string | null;
  payZoneId: string | null;
  payZoneName: string | null;
  currency: string;
  band: StoredFigures | null;
  bandSource: 'job' | 'grade' | null;
  range: StoredFigures | null;
  label: string | null;
}

export interface LiveBands {
  set: BandSetRow | null;
  locator: BandLocator | null;
  /** The zones the caller's bands access reaches; null: every zone. */
  reach: ReadonlySet<string> | null;
}

/** Whether the caller's bands access is limited to some pay zones (a `bands` grant, none over every zone). */
export function zoneLimited(caller: Caller): boolean {
  return hasPermission(caller.permissions, 'bands', 'view', undefined) && !seesAllZones(caller);
}

/** The live set ready to price places; `caller` null: every zone (a check the company runs, not a reader). */
export async function liveBands(db: Knex, scope: CompanyScope, caller: Caller | null): Promise<LiveBands> {
  const set = (await findLiveSet(db, scope)) ?? null;
  const locator = set ? await loadBandLocator(db, scope, set.id, 'familyLevel') : null;
  const reach = locator && caller && zoneLimited(caller) ? zoneReach(caller, locator.zones) : null;
  return { set, locator, reach };
}

const slug = (text: string): string => text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** The place a location input names: from the catalog unless given. */
function placeOf(input: Schemas['JobPostingLocationInput'], field: string, errors: FieldError[]) {
  const catalog = input.locationId ? findLocation(input.locationId) : undefined;
  if (input.locationId && !catalog) errors.push({ field: `${field}.locationId`, message: `is not a location of the catalog (“${input.locationId}”)` });
  const countryCode = input.countryCode ?? catalog?.country ?? null;
  if (!countryCode) {
    errors.push({ field: `${field}.countryCode`, message: 'is needed when no catalog location names the country' });
    return null;
  }
  const stateCode = input.stateCode !== undefined ? input.stateCode : (catalog?.state ?? null);
  const city = input.city !== undefined ? input.city?.trim() || null : catalog?.kind === 'metro' ? catalog.paybenchLocationName : null;
  const name = [city ?? (catalog && catalog.kind !== 'country' ? catalog.paybenchLocationName : null), stateCode, countryCode === 'US' && stateCode ? null : countryCode].filter(Boolean).join(', ');
  return { locationId: catalog?.paybenchLocationId ?? null, countryCode, stateCode, city, name, key: slug(`${countryCode}-${stateCode ?? ''}-${city ?? catalog?.paybenchLocationId ?? ''}`) };
}

/** A range rounded inwards to `rounding` whole units; the band itself when rounding would leave nothing. */
export function roundedInwards(band: StoredFigures, currency: string, rounding: number): StoredFigures {
  const unit = rounding * 10 ** decimalsOf(currency);
  const min = Math.ceil(band.min / unit) * unit;
  const max = Math.floor(band.max / unit) * unit;
  return min <= max ? { min, max } : { ...band };
}

export interface ProposeOptions {
  job: CompanyJobRow;
  rounding: number;
  inputs: readonly Schemas['JobPostingLocationInput'][];
  /** The body path of the locations, for field errors. */
  at: string;
}

/** Each place with its zone, band and range; refuses a place in a zone the caller's bands access does not reach (403). */
export function proposeLocations(live: LiveBands, options: ProposeOptions): StoredLocation[] {
  const errors: FieldError[] = [];
  const out: StoredLocation[] = [];
  options.inputs.forEach((input, index) => {
    const field = `${options.at}[${index}]`;
    const place = placeOf(input, field, errors);
    if (!place) return;
    if (out.some((other) => other.key === place.key)) errors.push({ field, message: `names ${place.name} twice` });
    if ((input.min === undefined) !== (input.max === undefined)) errors.push({ field, message: 'min and max go together' });
    if (input.min !== undefined && input.max !== undefined && input.min > input.max) errors.push({ field: `${field}.min`, message: 'must not be above max' });
    const stored: StoredLocation = { ...place, payZoneId: null, payZoneName: null, currency: live.set?.currency ?? 'USD', band: null, bandSource: null, range: null, label: null };
    if (!live.set || !live.locator) stored.label = live.set ? 'No pay zones' : 'No live band set';
    else {
      const placed = live.locator.locate({ job_family_id: options.job.job_family_id, level_id: options.job.level_id, title: null, job_code: null, country_code: place.countryCode, location_id: place.locationId });
      const zone = live.locator.zones.find((candidate) => candidate.id === placed.zoneId);
      if (live.reach && !live.reach.has(placed.zoneId)) {
        throw new HttpError(403, 'forbidden', { message: `Your salary-bands access does not reach the pay zone “${zone?.name ?? placed.zoneId}” of ${place.name}.` });
      }
      stored.payZoneId = placed.zoneId;
      stored.payZoneName = zone?.name ?? null;
      stored.currency = zone?.currency ?? live.set.currency;
      if (placed.band) {
        stored.currency = placed.band.currency;
        stored.band = { min: Number(placed.band.min_amount), max: Number(placed.band.max_amount) };
        stored.bandSource = placed.source;
      } else stored.label = placed.unplaced === 'noCompanyJob' ? 'No company job for this family and level' : 'No band for this job or its grade in this pay zone';
    }
    if (input.min !== undefined && input.max !== undefined) stored.range = { min: input.min, max: input.max };
    else if (stored.band) stored.range = roundedInwards(stored.band, stored.currency, options.rounding);
    out.push(stored);
  });
  if (errors.length) throw badRequest('The posting’s places are not valid.', errors);
  return out;
}

/** The bands a stored place has under a (new) live set, keeping its posted range: what a band change is compared with. */
export function rebandLocation(live: LiveBands, job: CompanyJobRow, location: StoredLocation): StoredLocation {
  if (!live.set || !live.locator) return { ...location, band: null, bandSource: null, label: live.set ? 'No pay zones' : 'No live band set' };
  const placed = live.locator.locate({ job_family_id: job.job_family_id, level_id: job.level_id, title: null, job_code: null, country_code: location.countryCode, location_id: location.locationId });
  const zone = live.locator.zones.find((candidate) => candidate.id === placed.zoneId);
  const base = { ...location, payZoneId: placed.zoneId, payZoneName: zone?.name ?? null };
  if (!placed.band) return { ...base, band: null, bandSource: null, label: 'No band for this job or its grade in this pay zone' };
  return { ...base, band: { min: Number(placed.band.min_amount), max: Number(placed.band.max_amount) }, bandSource: placed.source, label: null, currency: placed.band.currency };
}

export const isOutOfBand = (location: StoredLocation): boolean => !!location.range && !!location.band && (location.range.min < location.band.min || location.range.max > location.band.max);
