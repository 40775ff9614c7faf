import { formatMoney } from '../money/format.js';
import { type JurisdictionRule, type Place, jurisdictionRules, ruleCovers, ruleReachesRegion } from './rules.js';

/*
 * checkPosting: every pay-transparency rule that applies to a posting, and whether the posting meets
 * it. A rule applies to a place the posting names (a state rule to its cities, a city rule to its
 * city, a member state's rule to its country) and, for a remote posting, to each hiring region it covers
 * remote roles in. Each finding names the rule's law, source and effective date; a rule not yet in
 * force is still checked, so a posting can be ready, but does not count against `meetsAll`.
 */

export type FindingRequirement = 'employerSize' | 'disclosure' | 'range' | 'goodFaith' | 'spread' | 'benefits' | 'hourlyOrSalary' | 'payHistory' | 'liveBand';
export type FindingStatus = 'meets' | 'fails' | 'notApplicable';

export interface Finding {
  ruleId: string;
  jurisdiction: string;
  law: string;
  sourceName: string;
  sourceUrl: string;
  effectiveDate: string;
  inForce: boolean;
  /** The place of the posting the finding is about; null for a hiring region of a remote posting. */
  locationKey: string | null;
  requirement: FindingRequirement;
  status: FindingStatus;
  message: string;
}

export interface CheckedRange {
  min: number;
  max: number;
  currency: string;
}

export interface CheckedLocation extends Place {
  key: string;
  name: string;
  range: CheckedRange | null;
  band: { min: number; max: number; currency: string } | null;
  /** Why there is no band, when there is none. */
  noBandReason?: string | null;
  /**
   * The place's band in today's live band set, when the posting was drawn from an older set: the
   * posted range is checked against it too. Null: the live set has no band for the place; absent:
   * the posting is drawn from the live set.
   */
  liveBand?: { min: number; max: number; currency: string } | null;
  /** The reader's salary-bands access does not reach the place's pay zone: the findings name no band figure. */
  bandHidden?: boolean;
}

/** Active employees counted at a place (their recorded location), for thresholds counted per jurisdiction. */
export interface EmployeesAt extends Place {
  count: number;
}

export interface CheckedPosting {
  remote: boolean;
  hiringRegions: readonly { countryCode: string; stateCode: string | null }[];
  payBasis: 'salary' | 'hourly';
  payPeriod: 'year' | 'hour';
  benefitsDescription: string;
  asksPayHistory: boolean;
  /** The employer's head count the size thresholds are compared with. */
  headcount: number;
  /** The head count is the one the posting states (its manual override), used for every rule. */
  headcountStated?: boolean;
  /** Active employees by recorded place; absent or empty when no employee's place is recorded. */
  employeesByPlace?: readonly EmployeesAt[];
  /** The cities an employee's recorded place can name (the catalog's metros): a city rule naming none of them cannot count its employees. */
  locatableCities?: readonly Place[];
  /** The live band set's name, when the posting was drawn from an older set (see `CheckedLocation.liveBand`). */
  liveSetName?: string | null;
  /** Whether a range outside its band was approved (through the offer approval rules). */
  outOfBandApproved: boolean;
  locations: readonly CheckedLocation[];
}

export interface PostingCheck {
  findings: Finding[];
  /** Every finding of every rule in force meets (or does not apply). */
  meetsAll: boolean;
}

const range = (r: CheckedRange | { min: number; max: number; currency: string }): string =>
  `${formatMoney({ amount: r.min, currency: r.currency })} – ${formatMoney({ amount: r.max, currency: r.currency })}`;

/** " ($100,000 – $140,000)", the band's figures in a message; nothing for a reader whose bands access does not reach the place. */
const bandFigures = (location: Pick<CheckedLocation, 'bandHidden'>, band: CheckedRange): string => (location.bandHidden ? '' : ` (${range(band)})`);

/** Whether a posted range lies inside its band (the same currency: both are the zone's). */
export function withinBand(location: Pick<CheckedLocation, 'range' | 'band'>): boolean {
  const { range: posted, band } = location;
  return !!posted && !!band && posted.currency === band.currency && posted.min >= band.min && posted.max <= band.max;
}

/** Where the rule asks for the range, and what of it the posting answers: a lawyer's first question. */
export function whereText(rule: JurisdictionRule): string {
  if (!rule.where.includes('posting') && !rule.where.includes('beforeInterview')) {
    return `${rule.name} asks for the pay range only when an applicant asks for it; the posting need not show it, and Paybench keeps it ready.`;
  }
  const places = [rule.where.includes('beforeInterview') ? 'in the job posting or, at the latest, before the first interview' : 'in the job posting'];
  if (rule.where.includes('promotion')) places.push('in promotion and transfer opportunities announced to current employees');
  if (rule.where.includes('onRequest')) places.push('to an applicant or employee who asks for it');
  const last = places.pop() ?? '';
  const said = places.length ? `${places.join(', ')} and ${last}` : last;
  return `${rule.name} asks for the pay range ${said}.`;
}

function locationFindings(rule: JurisdictionRule, posting: CheckedPosting, location: CheckedLocation, base: Omit<Finding, 'requirement' | 'status' | 'message'>): Finding[] {
  const out: Finding[] = [];
  const add = (requirement: FindingRequirement, status: FindingStatus, message: string) => out.push({ ...base, requirement, status, message });
  const inPosting = rule.where.includes('posting') || rule.where.includes('beforeInterview');
  // Where the range must be given; whether the posting gives it is the `range` finding below.
  const reuse = inPosting && location.range && (rule.where.includes('promotion') || rule.where.includes('onRequest')) ? ' The posted range is the one to give there too.' : '';
  add('disclosure', 'meets', `${whereText(rule)}${reuse}`);
  if (inPosting && rule.requires.range) {
    if (location.range) add('range', 'meets', `The posting shows ${range(location.range)} for ${location.name}.`);
    else add('range', 'fails', `${rule.name} asks for the pay range, and ${location.name} has none: ${location.noBandReason ?? 'no band prices this job there'}.`);
  }
  if (inPosting && rule.requires.goodFaith && location.range) {
    if (!location.band) add('goodFaith', 'fails', `No band grounds the range for ${location.name} in good faith.`);
    else if (withinBand(location)) add('goodFaith', 'meets', `The range lies within the band${bandFigures(location, location.band)}.`);
    else if (posting.outOfBandApproved) add('goodFaith', 'meets', `The range goes beyond the band${bandFigures(location, location.band)} and was approved.`);
    else add('goodFaith', 'fails', `The range ${range(location.range)} goes beyond the band${bandFigures(location, location.band)} without approval.`);
  }
  if (inPosting && rule.maxSpreadPercent !== null && location.range && location.range.min > 0) {
    // Spread over the minimum, in whole percent: (max − min) / min.
    const spread = ((location.range.max - location.range.min) * 100) / location.range.min;
    if (spread > rule.maxSpreadPercent) add('spread', 'fails', `The range is ${Math.round(spread)}% wide, more than the ${rule.maxSpreadPercent}% ${rule.name}'s guidance accepts.`);
    else add('spread', 'meets', `The range is ${Math.round(spread)}% wide, within the ${rule.maxSpreadPercent}% ${rule.name}'s guidance accepts.`);
  }
  if (inPosting && rule.requires.benefits) {
    if (posting.benefitsDescription.trim()) add('benefits', 'meets', 'The posting describes benefits and other compensation.');
    else add('benefits', 'fails', `${rule.name} asks for a general description of benefits and other compensation.`);
  }
  if (inPosting && rule.requires.hourlyOrSalary) {
    if (posting.payBasis === 'hourly' && posting.payPeriod !== 'hour') add('hourlyOrSalary', 'fails', `An hourly role states its hourly rate in ${rule.name}, not a yearly salary.`);
    else add('hourlyOrSalary', 'meets', posting.payBasis === 'hourly' ? 'The hourly role states its hourly rate.' : `The salaried role states its salary per ${posting.payPeriod}.`);
  }
  if (rule.forbidsPayHistoryQuestion) {
    if (posting.asksPayHistory) add('payHistory', 'fails', `${rule.name} forbids asking applicants about their pay history; remove the question.`);
    else add('payHistory', 'meets', 'The application does not ask about pay history.');
  }
  return out;
}

/**
 * The employee count a rule's threshold is compared with, and how it was counted: the posting's
 * stated count when given; for a rule counting employees in its jurisdiction, the active employees
 * whose recorded place the rule covers; otherwise (or when no place is recorded) the company-wide count.
 */
export function employeesFor(rule: JurisdictionRule, posting: Pick<CheckedPosting, 'headcount' | 'headcountStated' | 'employeesByPlace' | 'locatableCities'>): { count: number; explanation: string } {
  if (rule.countsEmployees !== 'inJurisdiction') return { count: posting.headcount, explanation: `this employer has ${posting.headcount}` };
  if (posting.headcountStated) return { count: posting.headcount, explanation: `this employer has ${posting.headcount} (the count the posting states; ${rule.name} counts employees there)` };
  const places = posting.employeesByPlace ?? [];
  if (!places.length) return { count: posting.headcount, explanation: `this employer has ${posting.headcount} (company-wide: no employee's location is recorded; ${rule.name} counts employees there)` };
  if (rule.kind === 'city' && !(posting.locatableCities ?? []).some((city) => ruleCovers(rule, city))) {
    return { count: posting.headcount, explanation: `this employer has ${posting.headcount} (company-wide: no recorded location names ${rule.name}, so its employees there cannot be counted)` };
  }
  const count = places.filter((place) => ruleCovers(rule, place)).reduce((sum, place) => sum + place.count, 0);
  return { count, explanation: `this employer has ${count} in ${rule.name} (active employees counted by their recorded locations, of ${posting.headcount} company-wide)` };
}

/** Per place, whether today's live band set still holds the range of a posting drawn from an older set. */
function liveBandFindings(posting: CheckedPosting, today: string): Finding[] {
  const out: Finding[] = [];
  for (const location of posting.locations) {
    if (location.liveBand === undefined || !location.range) continue;
    const setName = posting.liveSetName ?? 'the live band set';
    const base = { ruleId: 'live-bands', jurisdiction: location.name, law: 'The company’s live band set', sourceName: `Band set ${setName}`, sourceUrl: '', effectiveDate: today, inForce: true, locationKey: location.key };
    const live = location.liveBand;
    const holds = !!live && withinBand({ range: location.range, band: live });
    let message: string;
    if (!live) message = `The live band set “${setName}” has no band for ${location.name}: the range ${range(location.range)} rests on an older set. Propose the ranges again.`;
    else if (holds) message = `The live band set “${setName}” still holds the range ${range(location.range)}${location.bandHidden ? '' : ` (live band ${range(live)})`}.`;
    else message = `The live band set “${setName}” no longer holds the range ${range(location.range)}${location.bandHidden ? '' : `: the live band is ${range(live)}`}. Propose the ranges again.`;
    out.push({ ...base, requirement: 'liveBand', status: holds ? 'meets' : 'fails', message });
  }
  return out;
}

/** Every rule that applies to the posting, explained, and whether it meets them. `rules` defaults to the shipped set. */
export function checkPosting(posting: CheckedPosting, options: { today: string; rules?: readonly JurisdictionRule[] }): PostingCheck {
  const rules = options.rules ?? jurisdictionRules();
  const findings: Finding[] = [];
  const subjects: { rule: JurisdictionRule; location: CheckedLocation; key: string | null }[] = [];
  for (const location of posting.locations) for (const rule of rules) if (ruleCovers(rule, location)) subjects.push({ rule, location, key: location.key });
  if (posting.remote) {
    for (const region of posting.hiringRegions) {
      for (const rule of rules) {
        if (!ruleReachesRegion(rule, region) || subjects.some((subject) => subject.rule.id === rule.id)) continue;
        // A remote role that could be filled there: each place's pay is what it would be offered.
        for (const location of posting.locations) subjects.push({ rule, location, key: null });
      }
    }
  }
  const seenSize = new Set<string>();
  for (const { rule, location, key } of subjects) {
    const base = { ruleId: rule.id, jurisdiction: rule.name, law: rule.law, sourceName: rule.sourceName, sourceUrl: rule.sourceUrl, effectiveDate: rule.effectiveDate, inForce: rule.effectiveDate <= options.today, locationKey: key };
    const employees = employeesFor(rule, posting);
    if (employees.count < rule.minEmployees) {
      if (!seenSize.has(rule.id)) {
        seenSize.add(rule.id);
        findings.push({ ...base, requirement: 'employerSize', status: 'notApplicable', message: `${rule.name} applies to employers with ${rule.minEmployees} or more employees; ${employees.explanation}.` });
      }
      continue;
    }
    if (!seenSize.has(rule.id)) {
      seenSize.add(rule.id);
      const reach = key === null ? `; it covers remote roles that could be filled there` : '';
      findings.push({ ...base, requirement: 'employerSize', status: 'meets', message: `${rule.name} applies to employers with ${rule.minEmployees} or more employees; ${employees.explanation}${reach}.` });
    }
    findings.push(...locationFindings(rule, posting, location, base));
  }
  findings.push(...liveBandFindings(posting, options.today));
  return { findings, meetsAll: findings.every((finding) => !finding.inForce || finding.status !== 'fails') };
}
