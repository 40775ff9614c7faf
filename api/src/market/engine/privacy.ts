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
}

export const DEFAULT_PRIVACY_RULE: Readonly<PrivacyRule> = Object.freeze({ minCompanies: 5, minEmployees: 10, maxCompanyShare: 0.25, minOutsideFour: 2 });

export interface CellSampleCounts {
  companies: number;
  employees: number;
  /** Records of the company holding the most records in the cell. */
  largestCompanyEmployees: number;
  /** Records of the four companies holding the most (all of them when there are four or fewer); unchecked when absent. */
  largestFourEmployees?: number;
}

/** Which part of the rule failed: for tests and diagnostics only, never published (it narrows the cell). */
export type InsufficientReason = 'companies' | 'employees' | 'concentration';

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
  return rule;
}
