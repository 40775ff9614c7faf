import { NO_AMOUNT, UNKNOWN_PRACTICE, catalogPracticeTables, type EquityPractices, type ParticipantCompanies, type ReleaseDimensions } from '../engine/participants.js';
import { createRandom, cumulative, type Random } from './random.js';

/**
 * Equity practices of the demo participants. They come from their own random stream, derived from
 * the market's seed, so adding them left every company and record of a seed exactly as it was.
 */
const PRACTICE_STREAM = 0x45515459; // 'EQTY'

type Weights = readonly number[];

/** Grant vehicle by stage: options early, RSUs late and public. [options, RSUs, RSAs] */
const GRANT_TYPE_BY_STAGE: Readonly<Record<string, Weights>> = {
  seed: [0.9, 0.02, 0.08],
  series_a: [0.92, 0.03, 0.05],
  series_b: [0.85, 0.12, 0.03],
  series_c: [0.68, 0.3, 0.02],
  series_d_plus: [0.4, 0.58, 0.02],
  private_established: [0.5, 0.4, 0.1],
  public: [0.06, 0.94, 0],
};

/** [4 years even, 4 years back-weighted, 3 years, 1 year, 5 years] */
const SCHEDULE_PRIVATE: Weights = [0.86, 0.03, 0.07, 0.01, 0.03];
const SCHEDULE_LATE: Weights = [0.78, 0.08, 0.1, 0.02, 0.02];
const SCHEDULE_PUBLIC: Weights = [0.62, 0.14, 0.12, 0.1, 0.02];

/** [none, 6 months, 1 year] */
const CLIFF_OPTIONS: Weights = [0.04, 0.06, 0.9];
const CLIFF_PRIVATE_RSU: Weights = [0.1, 0.1, 0.8];
const CLIFF_PUBLIC_RSU: Weights = [0.35, 0.1, 0.55];

/** [monthly, quarterly, annually] */
const FREQUENCY_OPTIONS: Weights = [0.85, 0.12, 0.03];
const FREQUENCY_PRIVATE_RSU: Weights = [0.3, 0.6, 0.1];
const FREQUENCY_PUBLIC_RSU: Weights = [0.15, 0.8, 0.05];

/** Chance a company also grants at each timing besides at hire: [annual cycle, on promotion, ad hoc]. */
const TIMING_BY_STAGE: Readonly<Record<string, Weights>> = {
  seed: [0.05, 0.2, 0.45],
  series_a: [0.12, 0.3, 0.45],
  series_b: [0.25, 0.35, 0.4],
  series_c: [0.4, 0.4, 0.35],
  series_d_plus: [0.55, 0.45, 0.3],
  private_established: [0.3, 0.35, 0.3],
  public: [0.75, 0.5, 0.25],
};

function pick(random: Random, weights: Weights): number {
  return random.pick(cumulative([...weights]));
}

export function generateEquityPractices(
  seed: number,
  dimensions: ReleaseDimensions,
  companies: ParticipantCompanies,
  employeeCompany: Uint32Array,
  newHireEquity: Int32Array,
): EquityPractices {
  const count = companies.count;
  const grantsEquity = new Uint8Array(count);
  // A company has an equity programme when any of its people hold a new-hire grant.
  for (let i = 0; i < employeeCompany.length; i++) if (newHireEquity[i] !== NO_AMOUNT) grantsEquity[employeeCompany[i]!] = 1;
  const random = createRandom((seed ^ PRACTICE_STREAM) >>> 0);
  const practices: EquityPractices = {
    tables: catalogPracticeTables(),
    grantsEquity,
    grantType: new Uint8Array(count).fill(UNKNOWN_PRACTICE),
    vestingSchedule: new Uint8Array(count).fill(UNKNOWN_PRACTICE),
    cliff: new Uint8Array(count).fill(UNKNOWN_PRACTICE),
    vestingFrequency: new Uint8Array(count).fill(UNKNOWN_PRACTICE),
    grantTiming: new Uint8Array(count),
  };
  const timing = practices.tables.grantTimings;
  const bit = (id: string): number => 1 << timing.indexOf(id);
  for (let c = 0; c < count; c++) {
    // Every company draws the same number of values, so one company's practice never shifts another's.
    const draws = [random.next(), random.next(), random.next(), random.next(), random.next(), random.next(), random.next()];
    if (grantsEquity[c] === 0) continue;
    const stage = dimensions.stages[companies.stage[c]!] ?? 'series_b';
    const isPublic = stage === 'public';
    const late = stage === 'series_d_plus' || stage === 'private_established';
    const local = createRandom(Math.floor(draws[0]! * 2 ** 32));
    const grantType = pick(local, GRANT_TYPE_BY_STAGE[stage] ?? GRANT_TYPE_BY_STAGE.series_b!);
    const rsu = practices.tables.grantTypes[grantType] === 'rsu';
    const schedule = pick(local, isPublic ? SCHEDULE_PUBLIC : late ? SCHEDULE_LATE : SCHEDULE_PRIVATE);
    const yearly = practices.tables.vestingSchedules[schedule] === 'one_year';
    practices.grantType[c] = grantType;
    practices.vestingSchedule[c] = schedule;
    // A grant that vests within a year has no cliff to speak of.
    practices.cliff[c] = yearly ? 0 : pick(local, rsu ? (isPublic ? CLIFF_PUBLIC_RSU : CLIFF_PRIVATE_RSU) : CLIFF_OPTIONS);
    practices.vestingFrequency[c] = pick(local, rsu ? (isPublic ? FREQUENCY_PUBLIC_RSU : FREQUENCY_PRIVATE_RSU) : FREQUENCY_OPTIONS);
    const chances = TIMING_BY_STAGE[stage] ?? TIMING_BY_STAGE.series_b!;
    let mask = bit('at_hire');
    if (draws[1]! < chances[0]!) mask |= bit('annual_cycle');
    if (draws[2]! < chances[1]!) mask |= bit('on_promotion');
    if (draws[3]! < chances[2]!) mask |= bit('ad_hoc');
    practices.grantTiming[c] = mask;
  }
  return practices;
}
