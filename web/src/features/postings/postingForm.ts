import type { components } from '../../../../openapi.d.ts';
import { toMajorText, toMinor } from '../../ui/format';
import type { JobPosting } from './common';

type Input = components['schemas']['JobPostingInput'];

export interface PlaceForm {
  locationId: string;
  city: string;
  stateCode: string;
  min: string;
  max: string;
}

export interface RegionForm {
  countryCode: string;
  stateCode: string;
}

export interface Form {
  companyJobId: string;
  remote: boolean;
  regions: RegionForm[];
  title: string;
  payBasis: 'salary' | 'hourly';
  benefitsDescription: string;
  asksPayHistory: boolean;
  employerHeadcount: string;
  rounding: string;
  places: PlaceForm[];
}

export const EMPTY_PLACE: PlaceForm = { locationId: '', city: '', stateCode: '', min: '', max: '' };
export const EMPTY_REGION: RegionForm = { countryCode: '', stateCode: '' };
export const EMPTY: Form = { companyJobId: '', remote: false, regions: [{ ...EMPTY_REGION }], title: '', payBasis: 'salary', benefitsDescription: '', asksPayHistory: false, employerHeadcount: '', rounding: '1000', places: [{ ...EMPTY_PLACE }] };

export function formOf(posting: JobPosting): Form {
  return {
    companyJobId: posting.companyJobId,
    remote: posting.remote,
    regions: posting.hiringRegions.length ? posting.hiringRegions.map((region) => ({ countryCode: region.countryCode, stateCode: region.stateCode ?? '' })) : [{ ...EMPTY_REGION }],
    title: posting.title,
    payBasis: posting.payBasis,
    benefitsDescription: posting.benefitsDescription,
    asksPayHistory: posting.asksPayHistory,
    employerHeadcount: posting.employerHeadcount === null ? '' : String(posting.employerHeadcount),
    rounding: String(posting.rounding),
    places: posting.locations.map((location) => ({ locationId: location.locationId ?? '', city: location.city ?? '', stateCode: location.stateCode ?? '', min: toMajorText(location.range?.min), max: toMajorText(location.range?.max) })),
  };
}

/** The places as the contract takes them: a narrowed range in minor units of the place's currency (known once proposed). */
function placesOf(form: Form, currencies: readonly (string | undefined)[]): Input['locations'] {
  return form.places
    .filter((place) => place.locationId)
    .map((place, index) => {
      const currency = currencies[index] ?? 'USD';
      const [min, max] = [toMinor(place.min, currency), toMinor(place.max, currency)];
      return {
        locationId: place.locationId,
        ...(place.city.trim() ? { city: place.city.trim() } : {}),
        ...(place.stateCode.trim() ? { stateCode: place.stateCode.trim().toUpperCase() } : {}),
        ...(min !== null && max !== null ? { min, max } : {}),
      };
    });
}

export function inputOf(form: Form, currencies: readonly (string | undefined)[]): Input | null {
  const locations = placesOf(form, currencies);
  if (!form.companyJobId || !locations.length) return null;
  const headcount = form.employerHeadcount.trim() === '' ? null : Number(form.employerHeadcount);
  const rounding = Number(form.rounding);
  return {
    companyJobId: form.companyJobId,
    ...(form.title.trim() ? { title: form.title.trim() } : {}),
    locations,
    remote: form.remote,
    // A remote posting's hiring regions (a country, or a state of it); the API asks for at least one.
    hiringRegions: form.remote
      ? form.regions
          .filter((region) => region.countryCode.trim())
          .map((region) => ({ countryCode: region.countryCode.trim().toUpperCase(), stateCode: region.stateCode.trim() ? region.stateCode.trim().toUpperCase() : null }))
      : [],
    payBasis: form.payBasis,
    benefitsDescription: form.benefitsDescription,
    asksPayHistory: form.asksPayHistory,
    employerHeadcount: headcount !== null && Number.isInteger(headcount) && headcount >= 0 ? headcount : null,
    ...(Number.isInteger(rounding) && rounding >= 1 ? { rounding } : {}),
  };
}
