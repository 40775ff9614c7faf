import { INDUSTRY_GROUPS, JOB_FAMILIES, METROS, type JobFamily, type TrackId } from '../../reference/catalog/index.js';
import { percentileInc } from '../engine/percentile.js';
import {
  catalogDimensions,
  emptyAmounts,
  NO_AMOUNT,
  type MeasureId,
  type ParticipantCompanies,
  type ParticipantEmployees,
  type ParticipantMarket,
  type ReleaseDimensions,
} from '../engine/participants.js';
import { BLS_PERCENTILES, familyWageTargets, type FamilyWageTarget } from './bls.js';
import { generateEquityPractices } from './practices.js';
import * as model from './profiles.js';
import { createRandom, cumulative, type Random } from './random.js';

export interface GenerateMarketOptions {
  seed: number;
  /** Employee records to generate. */
  employees: number;
  /** Participant companies; one per 200 employees when omitted. */
  companies?: number;
  /** BLS calibration targets; read from the shipped BLS file when omitted. */
  wageTargets?: ReadonlyMap<string, FamilyWageTarget>;
}

/** A synthetic participant market, with what it was calibrated against. */
export interface GeneratedMarket extends ParticipantMarket {
  seed: number;
  /** Units per USD used to express generated pay in local currency. */
  forex: Readonly<Record<string, number>>;
  wageTargets: ReadonlyMap<string, FamilyWageTarget>;
}

/** Generates a deterministic market: the same options always give the same companies and records. */
export function generateMarket(options: GenerateMarketOptions): GeneratedMarket {
  const companyCount = options.companies ?? Math.max(10, Math.round(options.employees / 200));
  if (!Number.isInteger(options.employees) || options.employees < companyCount) {
    throw new Error('Need at least one employee record per company');
  }
  const wageTargets = options.wageTargets ?? familyWageTargets();
  const dimensions = catalogDimensions();
  const tables = lookupTables(dimensions);
  const random = createRandom(options.seed);
  const companies = generateCompanies(random, companyCount, dimensions, tables);
  const headcounts = allocateHeadcount(companies.sizeWeight, options.employees);
  const people = generatePeople(random, companies, headcounts, dimensions, tables);
  const anchors = calibrate(people, dimensions, tables, wageTargets);
  const employees = generatePay(random, companies, people, anchors, dimensions, tables);
  const equityPractices = generateEquityPractices(options.seed, dimensions, companies.participant, employees.company, employees.amounts.new_hire_equity);
  return {
    seed: options.seed,
    forex: model.GENERATION_FOREX,
    wageTargets,
    dimensions,
    companies: companies.participant,
    employees,
    equityPractices,
    syntheticCompanies: companies.participant.count,
  };
}

/** Code-indexed views of the pay model, so the record loops do no string lookups. */
interface Tables {
  levelPay: Float64Array;
  equityMultiple: Float64Array;
  bonusTarget: Float64Array;
  executive: Uint8Array;
  founderLevel: number;
  familyLevels: Float64Array[];
  familyEquity: Float64Array;
  variableChance: Float64Array;
  variableShare: Float64Array;
  metroPay: Float64Array;
  metroRate: Float64Array;
  metroCountry: string[];
  metroUs: Uint8Array;
  countryEquity: Float64Array;
  metrosByCountry: Map<string, { codes: number[]; weights: Float64Array }>;
  globalMetros: Float64Array;
  industryFamilies: Float64Array[];
}

function lookupTables(dimensions: ReleaseDimensions): Tables {
  const byLevel = (values: Readonly<Record<string, number>>): Float64Array => Float64Array.from(dimensions.levels, (id) => values[id] ?? 0);
  const metroCountry = dimensions.locations.map((id) => METROS.find((m) => m.paybenchLocationId === id)?.country ?? 'US');
  const metroProfile = (id: string): model.MetroProfile => model.METRO_PROFILE[id] ?? { weight: 0, pay: 1 };
  const metrosByCountry = new Map<string, { codes: number[]; weights: Float64Array }>();
  for (const country of Object.keys(model.COUNTRY_WEIGHT)) {
    const codes = metroCountry.flatMap((c, code) => (c === country ? [code] : []));
    metrosByCountry.set(country, { codes, weights: cumulative(codes.map((code) => metroProfile(dimensions.locations[code]!).weight)) });
  }
  const globalWeights = dimensions.locations.map((id, code) => {
    const country = metroCountry[code]!;
    const countryTotal = metroCountry.reduce((sum, c, other) => (c === country ? sum + metroProfile(dimensions.locations[other]!).weight : sum), 0);
    return ((model.COUNTRY_WEIGHT[country] ?? 0) * metroProfile(id).weight) / countryTotal;
  });
  return {
    levelPay: byLevel(model.LEVEL_PAY),
    equityMultiple: byLevel(model.EQUITY_MULTIPLE),
    bonusTarget: byLevel(model.BONUS_TARGET),
    executive: Uint8Array.from(dimensions.levels, (id) => (id.startsWith('e') ? 1 : 0)),
    founderLevel: dimensions.levels.indexOf('e9'),
    familyLevels: dimensions.families.map((id) => cumulative(levelWeights(familyOf(id), dimensions))),
    familyEquity: Float64Array.from(dimensions.families, (id) => model.GROUP_EQUITY[familyOf(id).familyBlendGroupUpstreamId] ?? 1),
    variableChance: Float64Array.from(dimensions.families, (id) => (model.VARIABLE_PAY[id] ?? model.DEFAULT_VARIABLE_PAY).chance),
    variableShare: Float64Array.from(dimensions.families, (id) => (model.VARIABLE_PAY[id] ?? model.DEFAULT_VARIABLE_PAY).share),
    metroPay: Float64Array.from(dimensions.locations, (id) => metroProfile(id).pay),
    metroRate: Float64Array.from(dimensions.locationCurrencies, (currency) => rateOf(currency)),
    metroCountry,
    metroUs: Uint8Array.from(metroCountry, (country) => (country === 'US' ? 1 : 0)),
    countryEquity: Float64Array.from(metroCountry, (country) => model.COUNTRY_EQUITY[country] ?? 1),
    metrosByCountry,
    globalMetros: cumulative(globalWeights),
    industryFamilies: dimensions.industries.map((sub) => cumulative(familyWeights(sub, dimensions))),
  };
}

function familyOf(id: string): JobFamily {
  const family = JOB_FAMILIES.find((f) => f.id === id);
  if (!family) throw new Error(`Unknown job family ${id}`);
  return family;
}

function rateOf(currency: string): number {
  const rate = model.GENERATION_FOREX[currency];
  if (rate === undefined) throw new Error(`No generation exchange rate for ${currency}`);
  return rate;
}

/** A family's level mix: its tracks' shares spread over each track's levels. */
function levelWeights(family: JobFamily, dimensions: ReleaseDimensions): number[] {
  const has = (track: TrackId): boolean => family.trackSupport.some((t) => t.trackUpstreamId === track && t.status !== 'not_in_catalog');
  const support = has('tr_s') ? (model.SUPPORT_SHARE[family.id] ?? 0.1) : 0;
  const vicePresident = has('tr_vp') ? model.VICE_PRESIDENT_SHARE : 0;
  const executive = has('tr_c') ? model.EXECUTIVE_SHARE : 0;
  const rest = 1 - support - vicePresident - executive;
  const shares: Record<string, number> = {
    tr_s: support,
    tr_p: rest * (1 - model.MANAGER_SHARE),
    tr_m: has('tr_m') ? rest * model.MANAGER_SHARE : 0,
    tr_vp: vicePresident,
    tr_c: executive,
  };
  return dimensions.levels.map((level) => {
    for (const [track, mix] of Object.entries(model.LEVEL_MIX)) {
      const share = mix[level];
      if (share !== undefined) return (shares[track] ?? 0) * share;
    }
    return 0;
  });
}

function familyWeights(subIndustry: string, dimensions: ReleaseDimensions): number[] {
  const group = INDUSTRY_GROUPS.find((g) => g.subIndustries.some((s) => s.upstreamId === subIndustry))?.upstreamId ?? '';
  const byGroup = model.FAMILY_WEIGHT_BY_INDUSTRY[group] ?? {};
  const bySub = model.FAMILY_WEIGHT_BY_INDUSTRY[subIndustry] ?? {};
  return dimensions.families.map((id) => (model.FAMILY_WEIGHT[id] ?? 1) * (byGroup[id] ?? 1) * (bySub[id] ?? 1));
}

interface GeneratedCompanies {
  participant: ParticipantCompanies;
  sizeWeight: Float64Array;
  /** Log base-pay effect of the company's stage, industry and own pay policy. */
  pay: Float64Array;
  executivePay: Float64Array;
  bonusChance: Float64Array;
  equityValue: Float64Array;
  equityChance: Float64Array;
  founderChance: Float64Array;
  country: string[];
}

function generateCompanies(random: Random, count: number, dimensions: ReleaseDimensions, tables: Tables): GeneratedCompanies {
  const stageIds = dimensions.stages;
  const stagePick = cumulative(stageIds.map((id) => model.STAGE_PROFILE[id]?.weight ?? 0));
  const groupIds = INDUSTRY_GROUPS.map((g) => g.upstreamId);
  const groupPick = cumulative(groupIds.map((id) => model.INDUSTRY_WEIGHT[id] ?? 0));
  const countries = Object.keys(model.COUNTRY_WEIGHT);
  const countryPick = cumulative(countries.map((c) => model.COUNTRY_WEIGHT[c] ?? 0));
  const taken = new Set<string>();
  const ids: string[] = [];
  const names: string[] = [];
  const out: GeneratedCompanies = {
    participant: {
      count,
      ids,
      names,
      stage: new Uint8Array(count),
      ownership: new Uint8Array(count),
      industry: new Uint8Array(count),
      headquarters: new Uint8Array(count),
      valuationUsd: new Float64Array(count),
      priceRatio: new Float64Array(count),
    },
    sizeWeight: new Float64Array(count),
    pay: new Float64Array(count),
    executivePay: new Float64Array(count),
    bonusChance: new Float64Array(count),
    equityValue: new Float64Array(count),
    equityChance: new Float64Array(count),
    founderChance: new Float64Array(count),
    country: [],
  };
  const p = out.participant;
  for (let c = 0; c < count; c++) {
    const stageCode = random.pick(stagePick);
    const stageId = stageIds[stageCode]!;
    const stage = model.STAGE_PROFILE[stageId]!;
    const ownershipId = ownershipOf(stageId, random);
    const group = INDUSTRY_GROUPS[random.pick(groupPick)]!;
    const sub = group.subIndustries[Math.floor(random.next() * group.subIndustries.length)]!;
    const country = countries[random.pick(countryPick)]!;
    const metros = tables.metrosByCountry.get(country)!;
    ids.push(`demo_company_${String(c + 1).padStart(5, '0')}`);
    names.push(companyName(random, taken, group.upstreamId));
    p.stage[c] = stageCode;
    p.ownership[c] = dimensions.ownershipGroups.indexOf(ownershipId);
    p.industry[c] = dimensions.industries.indexOf(sub.upstreamId);
    p.headquarters[c] = metros.codes[random.pick(metros.weights)]!;
    p.valuationUsd[c] = random.logNormal(stage.valuationUsd, 0.8);
    p.priceRatio[c] = random.logNormal(stage.priceRatio, stageId === 'public' ? 0.35 : 0.25);
    out.sizeWeight[c] = random.logNormal(stage.headcount, 0.7);
    const industryPay = (model.INDUSTRY_PAY[group.upstreamId] ?? 0) + (model.INDUSTRY_PAY[sub.upstreamId] ?? 0);
    out.pay[c] = stage.pay + industryPay + model.COMPANY_PAY_SIGMA * random.normal();
    out.executivePay[c] = stage.executivePay;
    out.bonusChance[c] = stage.bonusChance;
    out.equityValue[c] = stage.equityValue;
    out.equityChance[c] = model.EQUITY_ELIGIBILITY[ownershipId] ?? 0;
    out.founderChance[c] = stage.founderChance;
    out.country.push(country);
  }
  return out;
}

function ownershipOf(stageId: string, random: Random): string {
  if (stageId === 'public') return 'public';
  if (stageId !== 'private_established') return 'venture_backed';
  return random.chance(model.PRIVATE_EQUITY_SHARE) ? 'private_equity_backed' : 'founder_owned';
}

const NAME_SYLLABLES = 'al bren cor dal el fen gal hal ix jor ka lum mer nov or pel quin ra sol tor ul ven wex yar zen'.split(' ');
const NAME_ENDINGS: Readonly<Record<string, string[]>> = {
  ind_technology: ['Labs', 'Systems', 'Cloud', 'Software', 'AI'],
  ind_financial_services: ['Capital', 'Pay', 'Financial', 'Ledger'],
  ind_healthcare: ['Health', 'Bio', 'Therapeutics', 'Care'],
  ind_consumer: ['Goods', 'Media', 'Market', 'Studios'],
  ind_industrials: ['Works', 'Energy', 'Logistics', 'Robotics'],
  ind_services: ['Partners', 'Group', 'Learning', 'Properties'],
};

/** Invented names, so the demo never looks like it describes a real company's pay. */
function companyName(random: Random, taken: Set<string>, group: string): string {
  const syllable = (): string => NAME_SYLLABLES[Math.floor(random.next() * NAME_SYLLABLES.length)]!;
  const endings = NAME_ENDINGS[group] ?? ['Inc'];
  const stem = syllable() + syllable() + (random.chance(0.5) ? syllable() : '');
  const base = `${stem[0]!.toUpperCase()}${stem.slice(1)} ${endings[Math.floor(random.next() * endings.length)]!}`;
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base} ${n}`;
  taken.add(name);
  return name;
}

/** Splits the records over companies in proportion to their size, every company getting at least one. */
export function allocateHeadcount(weights: Float64Array, records: number): Uint32Array {
  const count = weights.length;
  const counts = new Uint32Array(count).fill(1);
  const spare = records - count;
  const total = weights.reduce((sum, w) => sum + w, 0);
  const remainders: { company: number; fraction: number }[] = [];
  let given = 0;
  for (let c = 0; c < count; c++) {
    const exact = (weights[c]! / total) * spare;
    const whole = Math.floor(exact);
    counts[c]! += whole;
    given += whole;
    remainders.push({ company: c, fraction: exact - whole });
  }
  remainders.sort((a, b) => b.fraction - a.fraction || a.company - b.company);
  for (let k = 0; k < spare - given; k++) counts[remainders[k]!.company]!++;
  return counts;
}

/** Who the employees are, and the structural part of their log pay before calibration. */
interface People {
  count: number;
  company: Uint32Array;
  family: Uint8Array;
  level: Uint8Array;
  location: Uint8Array;
  founder: Uint8Array;
  tenure: Float32Array;
  structuralPay: Float64Array;
  noise: Float64Array;
}

function generatePeople(
  random: Random,
  companies: GeneratedCompanies,
  headcounts: Uint32Array,
  dimensions: ReleaseDimensions,
  tables: Tables,
): People {
  const count = headcounts.reduce((sum, n) => sum + n, 0);
  const people: People = {
    count,
    company: new Uint32Array(count),
    family: new Uint8Array(count),
    level: new Uint8Array(count),
    location: new Uint8Array(count),
    founder: new Uint8Array(count),
    tenure: new Float32Array(count),
    structuralPay: new Float64Array(count),
    noise: new Float64Array(count),
  };
  const founderCode = dimensions.founderTypes.indexOf('founder') + 1;
  const nonFounderCode = dimensions.founderTypes.indexOf('non_founder') + 1;
  const p = companies.participant;
  let i = 0;
  for (let c = 0; c < p.count; c++) {
    const familyPick = tables.industryFamilies[p.industry[c]!]!;
    const home = tables.metrosByCountry.get(companies.country[c]!)!;
    for (let k = 0; k < headcounts[c]!; k++, i++) {
      const family = random.pick(familyPick);
      const level = random.pick(tables.familyLevels[family]!);
      const location = locate(random, p.headquarters[c]!, home, tables);
      const founder = level === tables.founderLevel ? (random.chance(companies.founderChance[c]!) ? founderCode : nonFounderCode) : 0;
      people.company[i] = c;
      people.family[i] = family;
      people.level[i] = level;
      people.location[i] = location;
      people.founder[i] = founder;
      people.tenure[i] = Math.min(15, -Math.log(1 - random.next()) * model.MEAN_TENURE_YEARS);
      people.structuralPay[i] =
        Math.log(tables.levelPay[level]!) +
        Math.log(tables.metroPay[location]!) +
        companies.pay[c]! +
        (tables.executive[level] === 1 ? companies.executivePay[c]! : 0) +
        (founder === founderCode ? Math.log(model.FOUNDER_PAY) : 0);
      people.noise[i] = random.normal();
    }
  }
  return people;
}

function locate(random: Random, headquarters: number, home: { codes: number[]; weights: Float64Array }, tables: Tables): number {
  const u = random.next();
  if (u < model.AT_HEADQUARTERS) return headquarters;
  if (u < model.AT_HEADQUARTERS + model.SAME_COUNTRY) return home.codes[random.pick(home.weights)]!;
  return random.pick(tables.globalMetros);
}

/**
 * How a family's log pay (structure plus noise) becomes dollars: piecewise linear through the
 * family's US log pay at BLS's published percentiles (`from`) onto BLS's (`to`), shifted by the
 * end pieces beyond them. Monotone, so levels, companies and metros keep their order.
 */
interface FamilyAnchor {
  from: number[];
  to: number[];
  noiseSigma: number;
}

/**
 * Per family: sets the within-cell noise so the US spread approaches BLS's interquartile range, then
 * maps pay so the US base lands on BLS's p10, quartiles, median and p90 (before rounding).
 */
function calibrate(
  people: People,
  dimensions: ReleaseDimensions,
  tables: Tables,
  targets: ReadonlyMap<string, FamilyWageTarget>,
): FamilyAnchor[] {
  const families = dimensions.families.length;
  const usCount = new Uint32Array(families + 1);
  const sum = new Float64Array(families);
  const sumSquares = new Float64Array(families);
  for (let i = 0; i < people.count; i++) {
    if (tables.metroUs[people.location[i]!] !== 1) continue;
    const f = people.family[i]!;
    const x = people.structuralPay[i]!;
    usCount[f + 1]!++;
    sum[f]! += x;
    sumSquares[f]! += x * x;
  }
  const noiseSigma = dimensions.families.map((id, f) => {
    const n = usCount[f + 1]!;
    const variance = n > 1 ? (sumSquares[f]! - (sum[f]! * sum[f]!) / n) / (n - 1) : 0;
    const target = targets.get(id)?.sigma ?? model.NOISE_SIGMA_MAX;
    return Math.min(model.NOISE_SIGMA_MAX, Math.max(model.NOISE_SIGMA_MIN, Math.sqrt(Math.max(0, target * target - variance))));
  });
  const offsets = new Uint32Array(families + 1);
  for (let f = 0; f < families; f++) offsets[f + 1] = offsets[f]! + usCount[f + 1]!;
  const cursor = offsets.slice(0, families);
  const usPay = new Float64Array(offsets[families]!);
  for (let i = 0; i < people.count; i++) {
    if (tables.metroUs[people.location[i]!] !== 1) continue;
    const f = people.family[i]!;
    usPay[cursor[f]!++] = people.structuralPay[i]! + noiseSigma[f]! * people.noise[i]!;
  }
  return dimensions.families.map((id, f) => {
    const target = targets.get(id);
    if (!target) throw new Error(`No wage target for ${id}`);
    const pay = usPay.subarray(offsets[f]!, offsets[f + 1]!).sort();
    const targetOf = { 10: target.p10, 25: target.p25, 50: target.median, 75: target.p75, 90: target.p90 };
    const to = BLS_PERCENTILES.map((p) => Math.log(targetOf[p]));
    // A family with no US records yet is only anchored at its median.
    const from = pay.length > 1 ? BLS_PERCENTILES.map((p) => percentileInc(pay, pay.length, p)) : to.map((t) => t - to[2]!);
    return { from: strictlyRising(from), to, noiseSigma: noiseSigma[f]! };
  });
}

/** Sample percentiles can tie in a tiny family; nudging them apart keeps the map a function. */
function strictlyRising(knots: number[]): number[] {
  for (let k = 1; k < knots.length; k++) if (knots[k]! <= knots[k - 1]!) knots[k] = knots[k - 1]! + 1e-6;
  return knots;
}

function mapLogPay(anchor: FamilyAnchor, logPay: number): number {
  const { from, to } = anchor;
  const last = from.length - 1;
  if (logPay <= from[0]!) return logPay + (to[0]! - from[0]!);
  if (logPay >= from[last]!) return logPay + (to[last]! - from[last]!);
  let k = 0;
  while (logPay > from[k + 1]!) k++;
  return to[k]! + ((logPay - from[k]!) * (to[k + 1]! - to[k]!)) / (from[k + 1]! - from[k]!);
}

function generatePay(
  random: Random,
  companies: GeneratedCompanies,
  people: People,
  anchors: FamilyAnchor[],
  dimensions: ReleaseDimensions,
  tables: Tables,
): ParticipantEmployees {
  const amounts = emptyAmounts(people.count);
  const absent = NO_AMOUNT;
  const ownershipOfCompany = companies.participant.ownership;
  const publicCode = dimensions.ownershipGroups.indexOf('public');
  const founderCode = dimensions.founderTypes.indexOf('founder') + 1;
  for (let i = 0; i < people.count; i++) {
    const c = people.company[i]!;
    const f = people.family[i]!;
    const level = people.level[i]!;
    const location = people.location[i]!;
    const anchor = anchors[f]!;
    const rate = tables.metroRate[location]!;
    const baseUsd = Math.exp(mapLogPay(anchor, people.structuralPay[i]! + anchor.noiseSigma * people.noise[i]!));
    const base = toLocal(baseUsd, rate);
    const variable = random.chance(tables.variableChance[f]!)
      ? toLocal(baseUsd * random.logNormal(tables.variableShare[f]!, 0.3), rate)
      : absent;
    // Roles on variable pay seldom also get a company bonus.
    const bonusChance = companies.bonusChance[c]! * (variable === absent ? 1 : 0.2);
    const bonus = random.chance(bonusChance) ? toLocal(baseUsd * tables.bonusTarget[level]! * random.logNormal(1, 0.25), rate) : absent;
    set(amounts, 'base', i, base);
    set(amounts, 'variable', i, variable);
    set(amounts, 'annual_bonus', i, bonus);
    set(amounts, 'total_cash', i, base + Math.max(0, variable) + Math.max(0, bonus));
    // Founders hold founder stock rather than grants.
    if (people.founder[i] === founderCode || !random.chance(companies.equityChance[c]!)) continue;
    const newHire =
      baseUsd *
      tables.equityMultiple[level]! *
      companies.equityValue[c]! *
      tables.familyEquity[f]! *
      tables.countryEquity[location]! *
      random.logNormal(1, 0.45);
    const grants = laterGrants(random, newHire, people.tenure[i]!, ownershipOfCompany[c] === publicCode);
    setEquity(amounts, i, newHire, grants, people.tenure[i]!, random, rate);
  }
  return {
    count: people.count,
    company: people.company,
    family: people.family,
    level: people.level,
    location: people.location,
    founder: people.founder,
    amounts,
  };
}

/** Whole units of local currency. */
function toLocal(usd: number, rate: number): number {
  return Math.round(usd * rate);
}

function set(amounts: Record<MeasureId, Int32Array>, measure: MeasureId, i: number, value: number): void {
  amounts[measure][i] = value;
}

interface LaterGrants {
  refresher: number;
  promotion: number;
  performance: number;
}

/** Grants after hiring, in USD; negative when the employee has none. */
function laterGrants(random: Random, newHire: number, tenure: number, isPublic: boolean): LaterGrants {
  return {
    refresher: tenure >= 1 && random.chance(isPublic ? 0.8 : 0.65) ? newHire * random.logNormal(0.3, 0.35) : -1,
    promotion: tenure >= 1.5 && random.chance(0.18) ? newHire * random.logNormal(0.25, 0.35) : -1,
    performance: tenure >= 1 && random.chance(0.08) ? newHire * random.logNormal(0.2, 0.35) : -1,
  };
}

/** Four-year vesting with a one-year cliff. */
function vestedFraction(tenure: number): number {
  return tenure < 1 ? 0 : Math.min(1, tenure / 4);
}

function setEquity(
  amounts: Record<MeasureId, Int32Array>,
  i: number,
  newHire: number,
  grants: LaterGrants,
  tenure: number,
  random: Random,
  rate: number,
): void {
  const local = (usd: number): number => toLocal(usd, rate);
  const later = Math.max(0, grants.refresher) + Math.max(0, grants.promotion) + Math.max(0, grants.performance);
  const stillVesting = tenure < 4 ? newHire : 0;
  const laterUnvested = later * (0.5 + 0.5 * random.next());
  const unvested = newHire * (1 - vestedFraction(tenure)) + laterUnvested;
  const nextYear = newHire * (vestedFraction(tenure + 1) - vestedFraction(tenure)) + laterUnvested * 0.3;
  set(amounts, 'new_hire_equity', i, local(newHire));
  if (grants.refresher >= 0) set(amounts, 'refresher_equity', i, local(grants.refresher));
  if (grants.promotion >= 0) set(amounts, 'promotion_equity', i, local(grants.promotion));
  if (grants.performance >= 0) set(amounts, 'performance_equity', i, local(grants.performance));
  set(amounts, 'total_equity', i, local((stillVesting + later) / 4));
  set(amounts, 'unvested_equity', i, local(unvested));
  set(amounts, 'unvested_equity_next_12_months', i, local(Math.min(unvested, nextYear)));
}
