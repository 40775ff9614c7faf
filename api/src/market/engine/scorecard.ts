import { COMPANY_STAGES, FOUNDER_TYPES, JOB_FAMILIES, LEVELS, OWNERSHIP_GROUPS } from '../../reference/catalog/index.js';
import { attackHolds, runAttackBattery, type AttackOutcome } from './attacks/index.js';
import { DEFAULT_PRIVACY_RULE, type PrivacyRule } from './privacy.js';
import { queryRelease } from './query.js';
import type { MarketRelease } from './release.js';
import type { BenchmarkRequest } from './request.js';

/** Trial keys the scorecard's battery attacks with (the engine's tests try more). */
export const SCORECARD_KEYS = 2;

/** What publishing a release costs in accuracy: how far its published figures are from the exact ones, and how much is withheld. */
export interface ReleaseUtility {
  /** Cells of the measuring request (every family × level of base pay in each of the release's first countries). */
  cells: number;
  cellsWithheldShare: number;
  /** Published figures measured (percentiles of published cells with a positive exact value). */
  figures: number;
  /** Median and 90th percentile of |published − exact| ÷ exact. */
  medianRelativeMove: number;
  p90RelativeMove: number;
}

export interface PrivacyScorecard {
  passed: boolean;
  /** Why it failed (null when it passed): the attacks whose positive control failed or that recovered a target. */
  reason: string | null;
  computedAt: string;
  attacks: AttackOutcome[];
  utility: ReleaseUtility;
}

/** The request utility is measured on: base pay, every family × level, one market filter per country of the release's first runs, in its currency. */
export function utilityRequest(release: MarketRelease): BenchmarkRequest {
  const everywhere = {
    companyStages: COMPANY_STAGES.map((s) => s.id),
    companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id),
    industries: ['ind_all'],
    founderTypes: FOUNDER_TYPES.map((f) => f.id),
  };
  const countries = ['840', '124', '826', '276'].filter((_, i) => i < Math.max(1, release.sliceRuns));
  return {
    compensationTypes: ['base'],
    marketFilters: countries.map((country) => ({ ...everywhere, locations: [country] })),
    jobFamilies: JOB_FAMILIES.map((f) => f.id),
    levels: LEVELS.map((l) => ({ type: 'level' as const, id: l.id })),
  };
}

/** Utility of a release: the same request with the moves on and off. */
export function measureUtility(release: MarketRelease, options: { forex: Readonly<Record<string, number>>; rule?: PrivacyRule; request?: BenchmarkRequest }): ReleaseUtility {
  const request = options.request ?? utilityRequest(release);
  const privacy = options.rule ?? DEFAULT_PRIVACY_RULE;
  const moved = queryRelease(release, request, { forex: options.forex, privacy }).cells;
  const exact = queryRelease(release, request, { forex: options.forex, privacy, disclosure: false }).cells;
  const moves: number[] = [];
  let withheld = 0;
  moved.forEach((cell, i) => {
    if (cell.status !== 'published' || !cell.percentiles) {
      withheld++;
      return;
    }
    cell.percentiles.forEach((p, k) => {
      const truth = exact[i]?.percentiles?.[k]?.value ?? 0;
      if (truth > 0) moves.push(Math.abs(p.value - truth) / truth);
    });
  });
  moves.sort((a, b) => a - b);
  const at = (q: number): number => (moves.length === 0 ? 0 : moves[Math.min(moves.length - 1, Math.floor(q * moves.length))]!);
  return {
    cells: moved.length,
    cellsWithheldShare: moved.length === 0 ? 0 : withheld / moved.length,
    figures: moves.length,
    medianRelativeMove: at(0.5),
    p90RelativeMove: at(0.9),
  };
}

/**
 * A release's privacy scorecard, computed before it can be published: the attack battery run with the
 * release's disclosure key and rule (every positive control must recover its targets, every protected
 * attack none within 5%; counts are reported), and the utility cost of its published figures. A
 * release whose scorecard fails is not published.
 */
export function privacyScorecard(
  release: MarketRelease,
  options: { disclosureKey: Uint8Array; forex: Readonly<Record<string, number>>; rule?: PrivacyRule; keys?: number; attacks?: AttackOutcome[]; utility?: ReleaseUtility },
): PrivacyScorecard {
  // The battery's outcomes when they were run elsewhere (a thread of their own: they take seconds).
  const attacks = options.attacks ?? runAttackBattery({ disclosureKey: options.disclosureKey, rule: options.rule, keys: options.keys ?? SCORECARD_KEYS });
  const failing = attacks.filter((outcome) => !attackHolds(outcome));
  const reason =
    failing.length === 0
      ? null
      : failing
          .map((o) => (o.controlRecovered < o.targets ? `${o.attack}: the positive control recovered ${o.controlRecovered} of ${o.targets}` : `${o.attack}: ${o.recovered} targets recovered within 5%`))
          .join('; ');
  // The utility when it was measured elsewhere (the build thread: a second of work on the demo market).
  const utility = options.utility ?? measureUtility(release, options);
  return { passed: failing.length === 0, reason, computedAt: new Date().toISOString(), attacks, utility };
}
