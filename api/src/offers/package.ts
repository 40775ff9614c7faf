import type { CompanyRow } from '../access/usersStore.js';
import type { components } from '../contract-types.js';
import type { FieldError } from '../kernel/errors.js';
import type { Converter } from '../money/converter.js';

type Schemas = components['schemas'];
export type PackageInput = Schemas['OfferPackageInput'];
export type AlternativeInput = Schemas['OfferAlternativeInput'];

/* A package as stored (JSON on the offer): integer minor units of the offer's currency, prices in micros. */

export interface StoredEquity {
  type: 'option' | 'rsu';
  shares: number;
  /** The value asked for (minor units of the offer's currency) when the grant was given as one. */
  valueAmount: number | null;
  /** Per share, millionths of a unit of the company currency; null for RSUs. */
  strikeMicros: number | null;
  strikeDefaulted: boolean;
  vestingMonths: number;
  cliffMonths: number;
  vestingFrequency: 'monthly' | 'quarterly' | 'annually';
}

export interface StoredPackage {
  base: number;
  /** Basis points of base (1250 = 12.5%). */
  bonusTargetBp: number | null;
  variable: number | null;
  signOn: number | null;
  equity: StoredEquity | null;
}

export interface StoredAlternative {
  id: string;
  label: string;
  package: StoredPackage;
}

/** The company's equity facts an offer is priced with. */
export interface EquityPrices {
  currency: string;
  sharePriceMicros: number;
  exercisePriceMicros: number | null;
  valuationMinor: number | null;
}

export const equityPricesOf = (company: CompanyRow): EquityPrices => ({
  currency: company.currency,
  sharePriceMicros: Number(company.share_price_micros),
  exercisePriceMicros: company.exercise_price_micros === null ? null : Number(company.exercise_price_micros),
  valuationMinor: company.valuation_minor === null ? null : Number(company.valuation_minor),
});

const MICROS = 1_000_000;

function basisPoints(percent: number, field: string, errors: FieldError[]): number | null {
  const bp = Math.round(percent * 100);
  if (Math.abs(bp - percent * 100) > 1e-6) {
    errors.push({ field, message: 'must have at most two decimals' });
    return null;
  }
  return bp;
}

/**
 * Turns an input package into the stored one: a bonus target as basis points, a grant given as a
 * value into whole shares at the company's share price (the value converted into the company's
 * currency at the reference rate first), an option's strike defaulted to the company's exercise
 * price, else its share price (the latest fair market value).
 */
export async function storePackage(input: PackageInput, at: { currency: string; prices: EquityPrices; converter: Converter; field: string; errors: FieldError[] }): Promise<StoredPackage> {
  const { currency, prices, converter, field, errors } = at;
  const bonusTargetBp = input.bonusTargetPercent === undefined || input.bonusTargetPercent === null ? null : basisPoints(input.bonusTargetPercent, `${field}.bonusTargetPercent`, errors);
  let equity: StoredEquity | null = null;
  const grant = input.equity;
  if (grant) {
    let shares = grant.shares ?? null;
    const valueAmount = grant.value ?? null;
    if (shares !== null && valueAmount !== null) errors.push({ field: `${field}.equity`, message: 'give either shares or a value, not both' });
    else if (shares === null && valueAmount === null) errors.push({ field: `${field}.equity`, message: 'give the number of shares or a value' });
    else if (shares === null && valueAmount !== null) {
      if (prices.sharePriceMicros <= 0) errors.push({ field: `${field}.equity.value`, message: 'a grant given as a value needs the company’s share price (company settings)' });
      else {
        const converted = await converter.convert({ amount: valueAmount, currency }, prices.currency);
        if (!converted) errors.push({ field: `${field}.equity.value`, message: `no reference exchange rate from ${currency} to ${prices.currency}` });
        else {
          const major = converted.amount / 10 ** converter.minorUnit(prices.currency);
          shares = Math.floor((major * MICROS) / prices.sharePriceMicros);
          if (shares < 1) errors.push({ field: `${field}.equity.value`, message: 'is worth less than one share' });
        }
      }
    }
    const cliffMonths = grant.cliffMonths ?? 12;
    const vestingMonths = grant.vestingMonths ?? 48;
    if (cliffMonths > vestingMonths) errors.push({ field: `${field}.equity.cliffMonths`, message: 'must not be longer than the vesting' });
    let strikeMicros: number | null = null;
    let strikeDefaulted = false;
    if (grant.type === 'option') {
      if (grant.strikePrice !== undefined && grant.strikePrice !== null) strikeMicros = Math.round(grant.strikePrice * MICROS);
      else {
        strikeMicros = prices.exercisePriceMicros ?? prices.sharePriceMicros;
        strikeDefaulted = true;
      }
    } else if (grant.strikePrice !== undefined && grant.strikePrice !== null) {
      errors.push({ field: `${field}.equity.strikePrice`, message: 'RSUs have no strike price' });
    }
    equity = {
      type: grant.type,
      shares: shares ?? 0,
      valueAmount,
      strikeMicros,
      strikeDefaulted,
      vestingMonths,
      cliffMonths,
      vestingFrequency: grant.vestingFrequency ?? 'monthly',
    };
  }
  return {
    base: input.base,
    bonusTargetBp,
    variable: input.variable ?? null,
    signOn: input.signOn ?? null,
    equity,
  };
}

export const bonusTargetOf = (pkg: StoredPackage): number | null => (pkg.bonusTargetBp === null ? null : Math.round((pkg.base * pkg.bonusTargetBp) / 10_000));

export function presentPackage(pkg: StoredPackage, currency: string, prices: EquityPrices): Schemas['OfferPackage'] {
  const money = (amount: number | null) => (amount === null ? null : { amount, currency });
  const bonus = bonusTargetOf(pkg);
  const equity = pkg.equity;
  return {
    base: { amount: pkg.base, currency },
    bonusTargetPercent: pkg.bonusTargetBp === null ? null : pkg.bonusTargetBp / 100,
    bonusTarget: money(bonus),
    variable: money(pkg.variable),
    signOn: money(pkg.signOn),
    equity: equity
      ? {
          type: equity.type,
          shares: equity.shares,
          value: money(equity.valueAmount),
          strikePrice: equity.strikeMicros === null ? null : equity.strikeMicros / MICROS,
          strikeDefaulted: equity.strikeDefaulted,
          pricePerShare: prices.sharePriceMicros / MICROS,
          priceCurrency: prices.currency,
          vestingMonths: equity.vestingMonths,
          cliffMonths: equity.cliffMonths,
          vestingFrequency: equity.vestingFrequency,
        }
      : null,
    totalCash: { amount: pkg.base + (bonus ?? 0) + (pkg.variable ?? 0), currency },
  };
}

export const parsePackage = (text: string): StoredPackage => JSON.parse(text) as StoredPackage;
export const parseAlternatives = (text: string): StoredAlternative[] => JSON.parse(text) as StoredAlternative[];
