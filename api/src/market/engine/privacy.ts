/** When a cell may be published: enough companies, enough employees, and no company dominating. */
export interface PrivacyRule {
  minCompanies: number;
  minEmployees: number;
  /** Largest share of a cell's records one company may hold (0.25 = 25%, which is still allowed). */
  maxCompanyShare: number;
  /**
   * Fewest records outside the cell's four largest companies: what up to four colluding participants,
   * who know their own employees' pay, cannot know (docs/market-privacy.md, the threat model).
   */
  minOutsideFour: number;
  /**
   * Dominance of the pay mass ((n, k) rules, judged on the sum of each company's pay in the cell, not
   * its head count): the largest company's pay may be at most this share of the cell's (1 switches it off).
   */
  maxLargestPayShare: number;
  /** The two largest companies' pay together may be at most this share of the cell's (1 switches it off). */
  maxTopTwoPayShare: number;
  /**
   * The p% rule against the threat model's coalition: the pay of the records outside the four largest
   * companies (by pay) must be at least this share of the largest company's pay, so that the second to
   * fourth largest together, knowing their own pay, cannot bound the largest company's within p% (0
   * switches it off).
   */
  pPercent: number;
}

export const DEFAULT_PRIVACY_RULE: Readonly<PrivacyRule> = Object.freeze({
  minCompanies: 5,
  minEmployees: 10,
  maxCompanyShare: 0.25,
  minOutsideFour: 2,
  maxLargestPayShare: 0.5,
  maxTopTwoPayShare: 0.75,
  pPercent: 0.15,
});

/** The pay-mass checks switched off: the positive controls of their attacks, and arithmetic tests of other parts of the rule. */
export const NO_PAY_MASS_CHECKS: Readonly<Pick<PrivacyRule, 'maxLargestPayShare' | 'maxTopTwoPayShare' | 'pPercent'>> = Object.freeze({ maxLargestPayShare: 1, maxTopTwoPayShare: 1, pPercent: 0 });

/** Whether any of the pay-mass checks is on (they cost a second pass over a cell's records). */
export function checksPayMass(rule: PrivacyRule): boolean {
  return rule.maxLargestPayShare < 1 || rule.maxTopTwoPayShare < 1 || rule.pPercent > 0;
}

/** A cell's pay mass: the sum of every record's pay, and of the four companies paying the most, largest first. */
export interface CellPayMass {
  total: number;
  largest: readonly [number, number, number, number];
}

/**
 * Why a cell's pay mass must be withheld (dominance or the p% rule), or null. Judged after the head
 * counts pass: never published, like withholdingReason.
 */
export function payMassReason(rule: PrivacyRule, mass: CellPayMass): 'dominance' | 'p_percent' | null {
  const [x1, x2, x3, x4] = mass.largest;
  if (!(mass.total > 0)) return null;
  if (x1 > rule.maxLargestPayShare * mass.total * (1 + SHARE_TOLERANCE)) return 'dominance';
  if (x1 + x2 > rule.maxTopTwoPayShare * mass.total * (1 + SHARE_TOLERANCE)) return 'dominance';
  const outside = mass.total - x1 - x2 - x3 - x4;
  if (rule.pPercent > 0 && outside < rule.pPercent * x1 * (1 - SHARE_TOLERANCE)) return 'p_percent';
  return null;
}

export interface CellSampleCounts {
  companies: number;
  employees: number;
  /** Records of the company holding the most records in the cell. */
  largestCompanyEmployees: number;
  /** Records of the four companies holding the most (all of them when there are four or fewer); unchecked when absent. */
  largestFourEmployees?: number;
}

/** Which part of the rule failed: for tests and diagnostics only, never published (it narrows the cell). */
export type InsufficientReason = 'companies' | 'employees' | 'concentration' | 'dominance' | 'p_percent';

// Tolerates a share like 0.29 × 100 landing on 28.999… in binary.
const SHARE_TOLERANCE = 1e-9;

/** Why a cell must be withheld, or null when it may be published. */
export function withholdingReason(rule: PrivacyRule, sample: CellSampleCounts): InsufficientReason | null {
  if (sample.companies < rule.minCompanies) return 'companies';
  // An empty cell has no percentiles to publish, whatever the thresholds.
  if (sample.employees < Math.max(1, rule.minEmployees)) return 'employees';
  if (sample.largestCompanyEmployees > rule.maxCompanyShare * sample.employees + SHARE_TOLERANCE) return 'concentration';
  if (sample.largestFourEmployees !== undefined && sample.employees - sample.largestFourEmployees < rule.minOutsideFour) return 'concentration';
  return null;
}

export function isPublishable(rule: PrivacyRule, sample: CellSampleCounts): boolean {
  return withholdingReason(rule, sample) === null;
}

/**
 * The rule's minimums alone, for counts of companies and people (data composition): no pay is
 * shown there, so one company's share is not the question; how few stand behind a number is.
 */
export function meetsMinimums(rule: PrivacyRule, counts: { companies: number; employees: number }): boolean {
  return counts.companies >= rule.minCompanies && counts.employees >= Math.max(1, rule.minEmployees);
}

/**
 * The one statement every withheld answer carries, whichever part of the rule failed: saying which
 * would tell a reader that a cell has under 5 companies, or over 10 employees and one dominant company.
 */
export function withheldStatement(rule: PrivacyRule = DEFAULT_PRIVACY_RULE): string {
  const share = Math.round(rule.maxCompanyShare * 1000) / 10;
  return `Fewer than ${rule.minCompanies} companies or ${rule.minEmployees} employees, or one company above ${share}%`;
}

export function privacyRule(overrides: Partial<PrivacyRule> = {}): PrivacyRule {
  const rule = { ...DEFAULT_PRIVACY_RULE, ...overrides };
  if (rule.minCompanies < 0 || rule.minEmployees < 0 || rule.minOutsideFour < 0) throw new Error('Privacy minimums cannot be negative');
  if (!(rule.maxCompanyShare > 0 && rule.maxCompanyShare <= 1)) throw new Error('maxCompanyShare must be in (0, 1]');
  if (!(rule.maxLargestPayShare > 0 && rule.maxLargestPayShare <= 1 && rule.maxTopTwoPayShare > 0 && rule.maxTopTwoPayShare <= 1)) throw new Error('Pay shares must be in (0, 1]');
  if (!(rule.pPercent >= 0)) throw new Error('pPercent cannot be negative');
  return rule;
}
