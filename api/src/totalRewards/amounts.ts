import type { components } from '../contract-types.js';
import { multiply, pow10, round } from '../money/rational.js';
import type { Converter, Money } from '../money/converter.js';

type Amount = components['schemas']['TotalRewardsAmount'];
type Exchange = components['schemas']['StatementExchange'];

/**
 * A statement's money: every amount in the employee's pay currency (local) and the company's, each
 * converted exactly by the converter at the reference rates on or before the statement's day
 * (rounded once; null where no rate converts it). Sums add the converted parts, so a total always
 * equals the parts the statement shows beside it.
 */
export class StatementMoney {
  constructor(
    readonly converter: Converter,
    readonly local: string,
    readonly company: string,
  ) {}

  async amount(money: Money): Promise<Amount> {
    return { local: await this.converter.convert(money, this.local), company: await this.converter.convert(money, this.company) };
  }

  /** A sum of amounts; a currency is null when any part lacks it. */
  sum(amounts: readonly Amount[]): Amount {
    const total = (side: 'local' | 'company', currency: string): Money | null => {
      let sum = 0;
      for (const amount of amounts) {
        const part = amount[side];
        if (!part) return null;
        sum += part.amount;
      }
      return { amount: sum, currency };
    };
    return { local: total('local', this.local), company: total('company', this.company) };
  }

  /** The rate between the two currencies and the reference rates behind it (and behind every other conversion made). */
  async exchange(): Promise<Exchange> {
    const rate = await this.converter.exactRate(this.local, this.company);
    const used = this.converter.ratesUsed();
    const pair = used.filter((entry) => entry.currency === this.local || entry.currency === this.company);
    const date = this.local === this.company ? null : (pair.map((entry) => entry.date).sort().at(-1) ?? null);
    // Ten decimals: the ECB publishes up to six significant digits, and a cross rate is shown, not computed with.
    const asNumber = rate === null ? null : Number(round(multiply(rate, { n: pow10(10), d: 1n }), 'halfEven')) / 1e10;
    return { local: this.local, company: this.company, rate: asNumber, date, rates: used };
  }
}

export const ZERO_AMOUNT = (money: StatementMoney): Amount => ({ local: { amount: 0, currency: money.local }, company: { amount: 0, currency: money.company } });
