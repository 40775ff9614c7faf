import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REFERENCE_DATA_DIR } from '../reference/files.js';

/*
 * The pay-transparency rules, one per jurisdiction, shipped as data with their sources
 * (api/reference-data/pay-transparency-rules.json, described in its SOURCES.md).
 */

export type Requirement = 'range' | 'goodFaith' | 'benefits' | 'hourlyOrSalary';

export interface JurisdictionRule {
  id: string;
  name: string;
  /** `eu`: an EU member state's rule under the Pay Transparency Directive (one per member state). */
  kind: 'state' | 'city' | 'eu';
  /** ISO 3166-1 alpha-2. */
  country: string;
  state: string | null;
  /** The city names (and their common names) a city rule covers; null for a state or EU rule. */
  cities: string[] | null;
  law: string;
  sourceName: string;
  sourceUrl: string;
  effectiveDate: string;
  minEmployees: number;
  /** Whose employees the threshold counts: the whole employer's (absent), or only those in the rule's jurisdiction. */
  countsEmployees?: 'inJurisdiction';
  coversRemote: boolean;
  requires: Record<Requirement, boolean>;
  where: ('posting' | 'promotion' | 'onRequest' | 'beforeInterview')[];
  forbidsPayHistoryQuestion: boolean;
  /** The widest range, as a percentage over its minimum, the regulator's guidance accepts; null where it gives no number. */
  maxSpreadPercent: number | null;
  notes: string;
}

interface RulesFile {
  reviewedOn: string;
  rules: JurisdictionRule[];
}

let loaded: RulesFile | null = null;

/** The shipped rules, read once. */
export function jurisdictionRules(): readonly JurisdictionRule[] {
  loaded ??= JSON.parse(readFileSync(path.join(REFERENCE_DATA_DIR, 'pay-transparency-rules.json'), 'utf8')) as RulesFile;
  return loaded.rules;
}

/** A place the rules are matched against. */
export interface Place {
  countryCode: string;
  stateCode: string | null;
  city: string | null;
}

const same = (a: string | null | undefined, b: string | null | undefined): boolean => !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether a rule's jurisdiction holds the place (a state rule every city of its state, a member state's rule the whole country). */
export function ruleCovers(rule: JurisdictionRule, place: Place): boolean {
  if (rule.kind === 'eu') return same(rule.country, place.countryCode);
  if (!same(rule.country, place.countryCode) || !same(rule.state, place.stateCode)) return false;
  return rule.kind === 'state' || (rule.cities ?? []).some((city) => same(city, place.city));
}

/**
 * Whether a rule reaches a hiring region of a remote posting (a country, or a state of it): a remote
 * role that could be filled there, where the rule covers remote roles.
 */
export function ruleReachesRegion(rule: JurisdictionRule, region: { countryCode: string; stateCode: string | null }): boolean {
  if (!rule.coversRemote) return false;
  if (!same(rule.country, region.countryCode)) return false;
  if (rule.kind === 'eu') return true;
  // A whole country as the region reaches each of its states' rules; a city rule only through a named city.
  if (rule.kind === 'city') return false;
  return region.stateCode === null || same(rule.state, region.stateCode);
}
