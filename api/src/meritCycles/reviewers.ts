/*
 * Who reviews a submitted worksheet, from its approval chain. Pure (no database): the service reads
 * the facts, and the workflow property test (workflow/test/wayOut.unit.test.ts) walks the same rule.
 *
 * A reviewer who may not review this worksheet is skipped to the next one in the chain: the planner
 * (nobody reviews their own worksheet), a reviewer whose own pay is on it, and one who can no longer
 * plan (signed out for good, or without the compensationPlanning edit permission). When nobody of the
 * chain is left, the cycle's owner reviews it, so a worksheet never waits for nobody.
 */

export interface ChainFacts {
  plannerEmployeeId: string | null;
  /** The cycle's org tree: each employee's manager at launch. */
  managerOf: ReadonlyMap<string, string | null>;
  /** The cycle's chains by the employee at the root of their branch ('' for the company-wide one). */
  chains: ReadonlyMap<string, readonly string[]>;
}

/**
 * Where a worksheet's chain comes from: the chain of the nearest branch at or above its planner,
 * else the company-wide chain, else the planner's manager (the service reads whether they sign in),
 * else none.
 */
export function chainSource(facts: ChainFacts): { chain: readonly string[] } | { managerEmployeeId: string } | null {
  let at = facts.plannerEmployeeId;
  for (let steps = 0; at && steps < 256; steps += 1) {
    const chain = facts.chains.get(at);
    if (chain) return { chain };
    at = facts.managerOf.get(at) ?? null;
  }
  const companyWide = facts.chains.get('');
  if (companyWide) return { chain: companyWide };
  const manager = facts.plannerEmployeeId ? (facts.managerOf.get(facts.plannerEmployeeId) ?? null) : null;
  return manager ? { managerEmployeeId: manager } : null;
}

export type SkipReason = 'planner' | 'ownPay' | 'noAccess';

export interface ReviewerFacts {
  /** The chain the worksheet takes (its branch's, the company-wide one, or the planner's manager), in order. */
  chain: readonly string[];
  plannerUserId: string | null;
  /** Users whose own row is on the worksheet. */
  ownPayUserIds: ReadonlySet<string>;
  /** Users who can still review: active, with compensationPlanning edit. */
  mayReview: (userId: string) => boolean;
  /** Who set the cycle up (else who launched it): the reviewer of last resort. */
  ownerUserId: string | null;
}

export interface ResolvedReviewers {
  reviewers: string[];
  skipped: { userId: string; reason: SkipReason }[];
  /** The chain left nobody: the owner reviews. */
  toOwner: boolean;
}

function skipReason(userId: string, facts: ReviewerFacts): SkipReason | null {
  if (userId === facts.plannerUserId) return 'planner';
  if (facts.ownPayUserIds.has(userId)) return 'ownPay';
  if (!facts.mayReview(userId)) return 'noAccess';
  return null;
}

export function resolveReviewers(facts: ReviewerFacts): ResolvedReviewers {
  const reviewers: string[] = [];
  const skipped: ResolvedReviewers['skipped'] = [];
  for (const userId of new Set(facts.chain)) {
    const reason = skipReason(userId, facts);
    if (reason) skipped.push({ userId, reason });
    else reviewers.push(userId);
  }
  if (reviewers.length || !facts.ownerUserId) return { reviewers, skipped, toOwner: false };
  return { reviewers: [facts.ownerUserId], skipped, toOwner: true };
}

const REASONS: Record<SkipReason, string> = {
  planner: 'plans this worksheet',
  ownPay: 'has their own pay on this worksheet',
  noAccess: 'can no longer review worksheets',
};

/** What the history says of a resolution, or null when the chain was taken as it is. */
export function resolutionNote(resolved: ResolvedReviewers, nameOf: (userId: string) => string): string | null {
  // The planner left out of their own chain is the rule everyone expects: said only alongside a real skip.
  const told = resolved.skipped.filter((skip) => skip.reason !== 'planner');
  if (!told.length && !resolved.toOwner) return null;
  const who = resolved.reviewers.map(nameOf).join(', then ');
  const skipped = resolved.skipped.map((skip) => `${nameOf(skip.userId)} ${REASONS[skip.reason]}`);
  if (!skipped.length) return `The worksheet has no approval chain, so ${who}, who owns the cycle, reviews it.`;
  const head = `Skipped: ${skipped.join('; ')}.`;
  if (resolved.toOwner) return `${head} Nobody else in the chain may review it, so ${who}, who owns the cycle, reviews it.`;
  return `${head} ${who} ${resolved.reviewers.length === 1 ? 'reviews' : 'review'} it.`;
}

export interface ReviewFacts {
  /** The worksheet's reviewers as submission resolved them, and whose turn it is (1-based). */
  reviewers: readonly string[];
  step: number;
  mayReview: (userId: string) => boolean;
  ownerUserId: string | null;
}

/**
 * A worksheet in review after reviewers still to come lost access (role taken away, removed): they
 * are skipped to the next reviewer in the chain, else to the cycle's owner; those who already
 * approved stay in the list. With nobody left (the owner lost access too) the turn is nobody's, so
 * whole-company planners review it. Null when every reviewer to come may still review.
 */
export function skipLostReviewers(facts: ReviewFacts): ResolvedReviewers | null {
  const done = facts.reviewers.slice(0, Math.max(0, facts.step - 1));
  const ahead = facts.reviewers.slice(Math.max(0, facts.step - 1));
  const lost = ahead.filter((userId) => !facts.mayReview(userId));
  if (!lost.length) return null;
  const skipped = lost.map((userId) => ({ userId, reason: 'noAccess' as const }));
  const kept = ahead.filter((userId) => facts.mayReview(userId));
  if (kept.length) return { reviewers: [...done, ...kept], skipped, toOwner: false };
  const owner = facts.ownerUserId && facts.mayReview(facts.ownerUserId) ? facts.ownerUserId : null;
  return owner ? { reviewers: [...done, owner], skipped, toOwner: true } : { reviewers: [...done], skipped, toOwner: false };
}

/** What the history says when reviewers to come were skipped after submission. */
export function lostReviewersNote(resolved: ResolvedReviewers, step: number, nameOf: (userId: string) => string): string {
  const head = `Skipped: ${resolved.skipped.map((skip) => `${nameOf(skip.userId)} ${REASONS[skip.reason]}`).join('; ')}.`;
  const next = resolved.reviewers[step - 1];
  if (!next) return `${head} Nobody else in the chain may review it, so whole-company planners review it.`;
  if (resolved.toOwner) return `${head} Nobody else in the chain may review it, so ${nameOf(next)}, who owns the cycle, reviews it.`;
  return `${head} ${nameOf(next)} reviews it now.`;
}
