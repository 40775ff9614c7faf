import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { findCompany } from '../access/usersStore.js';
import type { components } from '../contract-types.js';
import { type Rational, multiply, pow10, round } from '../money/rational.js';
import { notFound } from '../kernel/errors.js';
import { Converter } from '../money/converter.js';
import type { EquityGrantRow } from './store.js';
import { type VestingFrequency, type VestingStatus, type VestingTerms, sharesValue, vestingStatus } from './vesting.js';

type Money = components['schemas']['Money'];

const MICROS = 1_000_000n;

/** What valuing grants needs from the company settings: its share currency, price and strike. */
export interface ShareTerms {
  currency: string;
  minorUnit: number;
  sharePriceMicros: number;
  exercisePriceMicros: number | null;
}

/** What valuing and vesting a grant reads of it. */
export type GrantTerms = Pick<
  EquityGrantRow,
  'id' | 'grant_type' | 'shares' | 'exercise_price' | 'currency' | 'vesting_start_date' | 'vesting_months' | 'cliff_months' | 'vesting_frequency'
>;

/** What vesting reads of the holder: vesting stops on the day they leave. */
export interface Holder {
  status: string;
  termination_date?: string | null;
}

export function vestingTerms(grant: GrantTerms): VestingTerms {
  const frequency = (['monthly', 'quarterly', 'annually'] as const).includes(grant.vesting_frequency as VestingFrequency)
    ? (grant.vesting_frequency as VestingFrequency)
    : 'monthly';
  return { shares: grant.shares, vestingStartDate: grant.vesting_start_date, vestingMonths: grant.vesting_months, cliffMonths: grant.cliff_months, frequency };
}

/** The day vesting stopped: a terminated employee's last day; null while they are employed. */
export const vestingStopsOn = (holder: Holder): string | null => (holder.status === 'terminated' ? (holder.termination_date?.slice(0, 10) ?? null) : null);

/** One grant's vesting on a day, stopped at the holder's termination (the people module and the team view agree). */
export const vestingOn = (grant: GrantTerms, holder: Holder, day: string): VestingStatus => vestingStatus(vestingTerms(grant), day, vestingStopsOn(holder));

/**
 * The one rule for what grants are worth, in the company currency at its share price: shares ×
 * (share price − strike), never below zero, rounded once to minor units. Options carry their
 * strike, converted exactly at the reference rate when it is in another currency (no rate: no
 * value), or the company's current exercise price when they have none; RSUs, RSAs and common
 * stock have no strike.
 */
export class EquityValuation {
  private readonly spreads = new Map<string, Promise<bigint | null>>();

  constructor(
    readonly terms: ShareTerms,
    readonly converter: Converter,
  ) {}

  /** At the company's prices (share price and exercise price in millionths of its currency). */
  static of(company: { currency: string; share_price_micros: number | string; exercise_price_micros: number | string | null }, converter: Converter): EquityValuation {
    return new EquityValuation(
      {
        currency: company.currency,
        minorUnit: converter.minorUnit(company.currency),
        sharePriceMicros: Number(company.share_price_micros),
        exercisePriceMicros: company.exercise_price_micros === null ? null : Number(company.exercise_price_micros),
      },
      converter,
    );
  }

  /** The company's valuation today. */
  static async open(db: Knex, scope: CompanyScope): Promise<EquityValuation> {
    const company = await findCompany(db, scope);
    if (!company) throw notFound();
    return EquityValuation.of(company, await Converter.open(db, new Date().toISOString().slice(0, 10)));
  }

  get currency(): string {
    return this.terms.currency;
  }

  /** Share price − strike per share, in millionths of the company currency (negative: underwater); null without a rate. */
  spreadMicros(grant: GrantTerms): Promise<bigint | null> {
    let spread = this.spreads.get(grant.id);
    if (!spread) {
      spread = this.computeSpread(grant);
      this.spreads.set(grant.id, spread);
    }
    return spread;
  }

  private async computeSpread(grant: GrantTerms): Promise<bigint | null> {
    const price = BigInt(this.terms.sharePriceMicros);
    if (grant.grant_type !== 'option') return price;
    if (grant.exercise_price === null) return price - BigInt(this.terms.exercisePriceMicros ?? 0);
    const rate: Rational | null = await this.converter.exactRate(grant.currency, this.terms.currency);
    if (!rate) return null;
    const strike = round(multiply(multiply({ n: BigInt(grant.exercise_price), d: 1n }, rate), { n: MICROS, d: pow10(this.converter.minorUnit(grant.currency)) }), 'halfEven');
    return price - strike;
  }

  /** shares × spread (never below zero; nothing without a rate), in minor units of the company currency. */
  valueOf(shares: number, spread: bigint | null): Money {
    return { amount: spread === null ? 0 : sharesValue(shares, spread, this.terms.minorUnit), currency: this.terms.currency };
  }
}
