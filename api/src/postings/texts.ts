import { decimalsOf, formatMoney } from '../money/format.js';
import { findJobFamily } from '../reference/catalog/index.js';
import type { StoredLocation } from './proposal.js';

/*
 * What a posting says of pay, in plain words and as schema.org structured data. Ranges are stored as
 * annual amounts; an hourly posting states them per hour over a 2,080-hour year (40 hours × 52 weeks),
 * to the cent.
 */

export const HOURS_PER_YEAR = 2080;

export interface TextPosting {
  title: string;
  payPeriod: 'year' | 'hour';
  payBasis: 'salary' | 'hourly';
  benefitsDescription: string;
}

/** The amount as the posting states it: whole units a year, or to the cent an hour. */
function stated(amount: number, currency: string, period: 'year' | 'hour'): string {
  return period === 'year' ? formatMoney({ amount, currency }, 'whole') : formatMoney({ amount: Math.round(amount / HOURS_PER_YEAR), currency }, 'minor');
}

/** "Denver, CO: $150,000 to $180,000 a year (base salary)." — or why the place has no range yet. */
export function payText(posting: TextPosting, location: StoredLocation): string {
  if (!location.range) return `${location.name}: no pay range yet (${location.label ?? 'no band prices this job there'}).`;
  const per = posting.payPeriod === 'year' ? 'a year' : 'an hour';
  const what = posting.payBasis === 'hourly' ? 'hourly wage' : 'base salary';
  const { min, max } = location.range;
  const amounts = min === max ? stated(min, location.currency, posting.payPeriod) : `${stated(min, location.currency, posting.payPeriod)} to ${stated(max, location.currency, posting.payPeriod)}`;
  const benefits = posting.benefitsDescription.trim() ? ` Benefits and other compensation: ${posting.benefitsDescription.trim()}` : '';
  return `${location.name}: ${amounts} ${per} (${what}), the range we in good faith expect to pay.${benefits}`;
}

/** A value in major units, as schema.org's MonetaryAmount carries it: whole units a year, to the cent an hour. */
function major(amount: number, currency: string, period: 'year' | 'hour'): number {
  const minor = period === 'year' ? amount : Math.round(amount / HOURS_PER_YEAR);
  const value = minor / 10 ** decimalsOf(currency);
  return period === 'year' ? Math.round(value) : value;
}

export interface JsonLdOptions {
  datePosted: string;
  hiringOrganization: string;
  remote: boolean;
  hiringRegions: readonly { countryCode: string; stateCode: string | null }[];
  jobFamilyId: string;
}

/**
 * A schema.org JobPosting per place: `baseSalary` a MonetaryAmount whose value is a
 * QuantitativeValue (minValue, maxValue, unitText YEAR or HOUR).
 */
export function jobPostingJsonLd(posting: TextPosting, location: StoredLocation, options: JsonLdOptions): Record<string, unknown> {
  const unitText = posting.payPeriod === 'year' ? 'YEAR' : 'HOUR';
  const place = {
    '@type': 'Place',
    address: { '@type': 'PostalAddress', addressCountry: location.countryCode, ...(location.stateCode ? { addressRegion: location.stateCode } : {}), ...(location.city ? { addressLocality: location.city } : {}) },
  };
  return {
    '@context': 'https://schema.org/',
    '@type': 'JobPosting',
    title: posting.title,
    description: payText(posting, location),
    datePosted: options.datePosted,
    employmentType: 'FULL_TIME',
    occupationalCategory: findJobFamily(options.jobFamilyId)?.name ?? options.jobFamilyId,
    hiringOrganization: { '@type': 'Organization', name: options.hiringOrganization },
    ...(options.remote
      ? { jobLocationType: 'TELECOMMUTE', applicantLocationRequirements: options.hiringRegions.map((region) => ({ '@type': region.stateCode ? 'State' : 'Country', name: region.stateCode ? `${region.stateCode}, ${region.countryCode}` : region.countryCode })), jobLocation: place }
      : { jobLocation: place }),
    ...(location.range
      ? {
          baseSalary: {
            '@type': 'MonetaryAmount',
            currency: location.currency,
            value: { '@type': 'QuantitativeValue', minValue: major(location.range.min, location.currency, posting.payPeriod), maxValue: major(location.range.max, location.currency, posting.payPeriod), unitText },
          },
        }
      : {}),
  };
}
