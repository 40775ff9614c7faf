import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Caller } from '../access/caller.js';
import '../modules.js';
import { flagDefaults } from '../access/flags.js';
import type { PermissionMap } from '../access/permissions.js';
import { bandSetWorkflow } from '../bands/workflow.js';
import { type ResolvedReviewers, type ReviewFacts, type ReviewerFacts, chainSource, resolveReviewers, skipLostReviewers } from '../meritCycles/reviewers.js';
import { meritCycleWorkflow, worksheetWorkflow } from '../meritCycles/workflow.js';
import { CANDIDATE_ACTOR, SYSTEM_ACTOR as OFFER_SYSTEM, offerWorkflow } from '../offers/workflow.js';
import { SYSTEM_ACTOR as SURVEY_SYSTEM, pulseSurveyWorkflow } from '../pulseSurveys/workflow.js';
import { rewardLettersWorkflow } from '../rewardLetters/workflow.js';
import type { Workflow } from './definition.js';
import { availableActions } from './service.js';

/*
 * Every workflow has a way out: walked from its start over random org trees, approval chains and
 * reviewer sets, no state is reached where nobody may move it on (or back). The merit cycle's
 * worksheets are walked with the rules the service applies (meritCycles/reviewers.ts: the chain a
 * worksheet takes, the reviewers skipped at submission; the workflow's guards), at the engine level:
 * no database, no HTTP, a few hundred runs in well under a second.
 */

const caller = (userId: string, permissions: PermissionMap): Caller => ({
  userId,
  email: `${userId}@example.test`,
  firstName: userId,
  lastName: 'Test',
  companyId: 'company',
  isInternalAdmin: false,
  isCandidate: false,
  emailVerified: true,
  termsAcceptedAt: null,
  roles: [],
  permissions,
  allRolePermissions: permissions,
  flags: flagDefaults(),
  viewAs: null,
  via: 'apiToken',
});

// ── merit cycles ────────────────────────────────────────────────────────────────────────────

type Reach = 'all' | 'reports' | 'none';
const PLANNING: Record<Reach, PermissionMap> = {
  all: { compensationPlanning: [{ authority: 'edit', scope: 'all' }] },
  reports: { compensationPlanning: [{ authority: 'edit', scope: 'reports' }] },
  none: {},
};

interface Scenario {
  /** users[0] set the cycle up: whole-company planner, the owner. */
  reaches: Reach[];
  /** Each employee's manager (an earlier employee) or none, and the user they sign in as. */
  employees: { manager: number | null; user: number | null }[];
  companyChain: number[] | null;
  branchChains: { branch: number; reviewers: number[] }[];
  /** Before the walk's move `at`, `user` loses access (role taken away or removed); never the owner. */
  losses: { at: number; user: number }[];
  /** The walk's choices. */
  choices: number[];
}

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    reaches: fc.array(fc.constantFrom<Reach>('all', 'reports', 'none'), { minLength: 1, maxLength: 6 }),
    employees: fc.array(fc.record({ manager: fc.nat(), user: fc.option(fc.nat()) }), { minLength: 1, maxLength: 12 }),
    companyChain: fc.option(fc.array(fc.nat(), { maxLength: 4 })),
    branchChains: fc.array(fc.record({ branch: fc.nat(), reviewers: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }) }), { maxLength: 3 }),
    losses: fc.array(fc.record({ at: fc.nat({ max: 60 }), user: fc.nat() }), { maxLength: 3 }),
    choices: fc.array(fc.nat(), { minLength: 400, maxLength: 400 }),
  })
  .map((raw) => {
    const reaches: Reach[] = ['all', ...raw.reaches.slice(1)];
    const users = reaches.length;
    const linked = new Set<number>();
    const employees = raw.employees.map((employee, index) => {
      // A manager is an earlier employee (a forest); a user signs in as one employee at most.
      const managerAt = employee.manager % (index + 1);
      const user = employee.user === null ? null : employee.user % users;
      const own = user !== null && !linked.has(user) ? user : null;
      if (own !== null) linked.add(own);
      return { manager: managerAt === index ? null : managerAt, user: own };
    });
    const chain = (list: number[]) => [...new Set(list.map((user) => user % users))];
    return {
      reaches,
      employees,
      companyChain: raw.companyChain ? chain(raw.companyChain) : null,
      branchChains: raw.branchChains.map((entry) => ({ branch: entry.branch % employees.length, reviewers: chain(entry.reviewers) })),
      losses: users > 1 ? raw.losses.map((loss) => ({ at: loss.at, user: 1 + (loss.user % (users - 1)) })) : [],
      choices: raw.choices,
    };
  });

type Resolver = (facts: ReviewerFacts) => ResolvedReviewers;
/** What happens to worksheets in review when someone loses access (the service's `skipReviewersWithoutAccess`). */
type Reskipper = (facts: ReviewFacts) => ResolvedReviewers | null;

interface Sheet {
  id: string;
  plannerEmployee: string | null;
  plannerUser: string | null;
  rows: Set<string>;
  state: (typeof worksheetWorkflow.states)[number];
  reviewers: string[];
  step: number | null;
  backward: number;
}

/** The org and its worksheets as launch makes them: one per manager, one for the people without a manager. */
function launch(input: Scenario) {
  const userId = (index: number) => `u${index}`;
  const employeeId = (index: number) => `e${index}`;
  const managerOf = new Map(input.employees.map((employee, index) => [employeeId(index), employee.manager === null ? null : employeeId(employee.manager)]));
  const userOf = new Map(input.employees.map((employee, index) => [employeeId(index), employee.user === null ? null : userId(employee.user)]));
  const employeeOfUser = new Map([...userOf].filter((entry): entry is [string, string] => entry[1] !== null).map(([employee, user]) => [user, employee]));
  const sheets = new Map<string, Sheet>();
  const sheetOf = (manager: string | null): Sheet => {
    const id = manager ?? 'top';
    let sheet = sheets.get(id);
    if (!sheet) {
      sheet = { id, plannerEmployee: manager, plannerUser: manager ? (userOf.get(manager) ?? null) : null, rows: new Set(), state: 'planning', reviewers: [], step: null, backward: 0 };
      sheets.set(id, sheet);
    }
    return sheet;
  };
  for (const [employee, manager] of managerOf) sheetOf(manager).rows.add(employee);
  const chains = new Map<string, string[]>();
  if (input.companyChain) chains.set('', input.companyChain.map(userId));
  for (const entry of input.branchChains) chains.set(employeeId(entry.branch), entry.reviewers.map(userId));
  const users = input.reaches.map((reach, index) => ({ id: userId(index), reach, caller: caller(userId(index), PLANNING[reach]) }));
  return { managerOf, userOf, employeeOfUser, sheets: [...sheets.values()], chains, users, owner: userId(0) };
}

function below(root: string, managerOf: ReadonlyMap<string, string | null>, employee: string | null): boolean {
  let at = employee ? (managerOf.get(employee) ?? null) : null;
  for (let steps = 0; at && steps < 64; steps += 1) {
    if (at === root) return true;
    at = managerOf.get(at) ?? null;
  }
  return false;
}

/**
 * Walks one cycle to its close, the moves chosen by `choices`; answers why it got stuck, or null.
 * Sending back and reopening are allowed twice per worksheet, so every walk ends.
 */
async function walk(input: Scenario, resolve: Resolver, reskip: Reskipper = skipLostReviewers): Promise<string | null> {
  const cycle = launch(input);
  const ownerCaller = cycle.users[0]?.caller as Caller;
  const reaches = (user: (typeof cycle.users)[number], sheet: Sheet): boolean => {
    if (user.reach === 'none') return false;
    if (user.reach === 'all' || sheet.reviewers.includes(user.id)) return true;
    const own = cycle.employeeOfUser.get(user.id);
    return Boolean(own && sheet.plannerEmployee && (sheet.plannerEmployee === own || below(own, cycle.managerOf, sheet.plannerEmployee)));
  };
  const movesOf = async (sheet: Sheet) => {
    const moves: { user: (typeof cycle.users)[number]; action: (typeof worksheetWorkflow.actions)[number] }[] = [];
    const last = !sheet.reviewers.length || (sheet.step ?? 1) >= sheet.reviewers.length;
    for (const user of cycle.users) {
      if (!reaches(user, sheet)) continue;
      const own = cycle.employeeOfUser.get(user.id);
      const subject = {
        subjectType: 'meritWorksheet',
        subjectId: sheet.id,
        currentState: sheet.state,
        plannerUserId: sheet.plannerUser,
        currentReviewerUserId: sheet.state === 'in_review' && sheet.step ? (sheet.reviewers[sheet.step - 1] ?? null) : null,
        callerPlansParent: false,
        callerRowHere: Boolean(own && sheet.rows.has(own)),
        ownerUserId: cycle.owner,
      };
      for (const { action } of await availableActions(worksheetWorkflow, subject, user.caller)) {
        if (action === 'pullUp' || (action === 'approve' && !last) || (action === 'approveStep' && last)) continue;
        moves.push({ user, action });
      }
    }
    return moves;
  };
  const describe = (sheet: Sheet) => `worksheet ${sheet.id} (${sheet.state}, planner ${sheet.plannerUser ?? 'none'}, reviewers ${sheet.reviewers.join(',') || 'none'} at step ${sheet.step})`;

  // The property: a worksheet not yet approved can be moved on by someone, now. Only the worksheet
  // moved changes (its facts are its own), so each is checked at launch and after each of its moves.
  const stuck = async (sheet: Sheet) => {
    if (sheet.state === 'approved') return null;
    const forward = (await movesOf(sheet)).filter((move) => move.action === 'submit' || move.action === 'approve' || move.action === 'approveStep');
    return forward.length ? null : `nobody may move ${describe(sheet)} on`;
  };
  for (const sheet of cycle.sheets) {
    const why = await stuck(sheet);
    if (why) return why;
  }
  const loseAccess = async (userIndex: number) => {
    const user = cycle.users[userIndex];
    if (!user) return null;
    user.reach = 'none';
    user.caller = caller(user.id, PLANNING.none);
    const mayReview = (id: string) => cycle.users.find((candidate) => candidate.id === id)?.reach !== 'none';
    for (const sheet of cycle.sheets.filter((candidate) => candidate.state === 'in_review')) {
      const moved = reskip({ reviewers: sheet.reviewers, step: sheet.step ?? 1, mayReview, ownerUserId: cycle.owner });
      if (moved) sheet.reviewers = moved.reviewers;
    }
    for (const sheet of cycle.sheets) {
      const why = await stuck(sheet);
      if (why) return `after ${user.id} lost access, ${why}`;
    }
    return null;
  };
  for (const [at, choice] of input.choices.entries()) {
    for (const loss of input.losses.filter((candidate) => candidate.at === at)) {
      const why = await loseAccess(loss.user);
      if (why) return why;
    }
    const open = cycle.sheets.filter((sheet) => sheet.state !== 'approved');
    if (!open.length) break;
    const sheet = open[choice % open.length] as Sheet;
    const moves = (await movesOf(sheet)).filter((move) => (move.action === 'sendBack' ? sheet.backward < 2 : true));
    const move = moves[Math.floor(choice / open.length) % moves.length];
    if (!move) return `nobody may move ${describe(sheet)}`;
    if (move.action === 'submit') {
      const source = chainSource({ plannerEmployeeId: sheet.plannerEmployee, managerOf: cycle.managerOf, chains: cycle.chains });
      const chain = !source ? [] : 'chain' in source ? source.chain : [cycle.userOf.get(source.managerEmployeeId)].filter((user): user is string => Boolean(user));
      const ownPay = new Set([...sheet.rows].map((employee) => cycle.userOf.get(employee)).filter((user): user is string => Boolean(user)));
      const reach = new Map(cycle.users.map((user) => [user.id, user.reach]));
      sheet.reviewers = resolve({ chain, plannerUserId: sheet.plannerUser, ownPayUserIds: ownPay, mayReview: (user) => reach.get(user) !== 'none', ownerUserId: cycle.owner }).reviewers;
      sheet.step = 1;
    }
    if (move.action === 'approveStep') sheet.step = (sheet.step ?? 1) + 1;
    if (move.action === 'sendBack') sheet.backward += 1;
    sheet.state = worksheetWorkflow.transitionFrom(sheet.state, move.action)?.to ?? sheet.state;
    if (sheet.state !== 'in_review') sheet.step = null;
    const why = await stuck(sheet);
    if (why) return why;
  }
  const unfinished = cycle.sheets.find((sheet) => sheet.state !== 'approved');
  if (unfinished) return `the walk did not end: ${describe(unfinished)}`;
  // Every worksheet approved: the owner closes the cycle, and may still reopen a worksheet.
  const cycleMoves = await availableActions(meritCycleWorkflow, { subjectType: 'meritCycle', subjectId: 'c', currentState: 'active' }, ownerCaller);
  if (!cycleMoves.some((move) => move.action === 'close')) return 'the owner may not close the cycle';
  return null;
}

/** The rule before the fix: the chain without its planner, nobody else skipped, nobody instead. */
const withoutSkipping: Resolver = (facts) => ({ reviewers: facts.chain.filter((user) => user !== facts.plannerUserId), skipped: [], toOwner: false });

describe('every workflow has a way out', () => {
  it('walks merit cycles over random org trees, chains and reviewer sets to their close without a stuck worksheet', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (input) => {
        expect(await walk(input, resolveReviewers)).toBeNull();
      }),
      { numRuns: 300, seed: 20261206 },
    );
  });

  it('finds the cycle that locked itself under the rule before the fix (the property can fail)', async () => {
    const found = await fc.check(
      fc.asyncProperty(scenario, async (input) => (await walk(input, withoutSkipping)) === null),
      { numRuns: 300, seed: 20261206 },
    );
    expect(found.failed).toBe(true);
    // The issue's own case: Alex (the owner, u0) manages Ravi (u1, whole-company, the only reviewer).
    const locked: Scenario = { reaches: ['all', 'all'], employees: [{ manager: null, user: 0 }, { manager: 0, user: 1 }, { manager: 0, user: null }], companyChain: [1], branchChains: [], losses: [], choices: Array(50).fill(0) };
    expect(await walk(locked, withoutSkipping)).toBe('nobody may move worksheet e0 (in_review, planner u0, reviewers u1 at step 1) on');
    expect(await walk(locked, resolveReviewers)).toBeNull();
  });

  it('moves a worksheet on when a reviewer loses access after it was submitted to them (the property can fail without it)', async () => {
    const neverReskip: Reskipper = () => null;
    const found = await fc.check(
      fc.asyncProperty(scenario, async (input) => (await walk(input, resolveReviewers, neverReskip)) === null),
      { numRuns: 300, seed: 20261207 },
    );
    expect(found.failed).toBe(true);
    // Alex (u0) owns the cycle and has pay on the top worksheet; Ravi (u1), its only reviewer, loses
    // access once it waits on him: skipped, Alex reviews it, and the cycle closes.
    const orphaned: Scenario = { reaches: ['all', 'all'], employees: [{ manager: null, user: 0 }, { manager: 0, user: null }], companyChain: [1], branchChains: [], losses: [{ at: 1, user: 1 }], choices: Array(50).fill(0) };
    expect(await walk(orphaned, resolveReviewers, neverReskip)).toBe('after u1 lost access, nobody may move worksheet top (in_review, planner none, reviewers u1 at step 1) on');
    expect(await walk(orphaned, resolveReviewers)).toBeNull();
    // The pure rule: later reviewers first, then the owner; those who approved already stay listed.
    const away = new Set(['u2']);
    const mayReview = (id: string) => !away.has(id);
    expect(skipLostReviewers({ reviewers: ['u1', 'u2', 'u3'], step: 2, mayReview, ownerUserId: 'u0' })).toEqual({ reviewers: ['u1', 'u3'], skipped: [{ userId: 'u2', reason: 'noAccess' }], toOwner: false });
    expect(skipLostReviewers({ reviewers: ['u1', 'u2'], step: 2, mayReview, ownerUserId: 'u0' })).toEqual({ reviewers: ['u1', 'u0'], skipped: [{ userId: 'u2', reason: 'noAccess' }], toOwner: true });
    expect(skipLostReviewers({ reviewers: ['u2', 'u1'], step: 2, mayReview, ownerUserId: 'u0' })).toBeNull();
  });

  it('leaves every other workflow a way on or back from each state but its last, for the people who hold it', async () => {
    const editor = (permission: string) => caller('editor', { [permission]: [{ authority: 'edit', scope: 'all' }] });
    const approver = (permission: string) => caller('approver', { [permission]: [{ authority: 'view', scope: 'all' }] });
    /** The states without a move, of those reachable from the initial one. */
    async function deadEnds<S extends string, A extends string, E extends object>(workflow: Workflow<S, A, E>, actors: Caller[], facts: E): Promise<S[]> {
      const reached = new Set<S>([workflow.initial]);
      for (const state of reached) for (const spec of workflow.transitionsFrom(state)) reached.add(spec.to);
      const dead: S[] = [];
      for (const state of reached) {
        let moves = 0;
        for (const actor of actors) moves += (await availableActions(workflow, { subjectType: workflow.name, subjectId: 's', currentState: state, ...facts }, actor)).length;
        if (!moves) dead.push(state);
      }
      return dead.sort();
    }
    expect(await deadEnds(meritCycleWorkflow, [editor('compensationPlanning')], {})).toEqual(['cancelled', 'closed']);
    expect(await deadEnds(rewardLettersWorkflow, [editor('compensationPlanning')], {})).toEqual(['released']);
    expect(await deadEnds(pulseSurveyWorkflow, [editor('dataLab'), caller(SURVEY_SYSTEM, {})], {})).toEqual(['closed']);
    // Waiting on an approver: the approver it waits for approves or rejects it.
    expect(await deadEnds(bandSetWorkflow, [editor('bands'), approver('bands')], { awaiting: ['approver'] })).toEqual(['archived']);
    // Its approver gone (left, lost the permission): its authors withdraw it back to draft.
    expect(await deadEnds(bandSetWorkflow, [editor('bands')], { awaiting: ['someone-who-left'] })).toEqual(['archived']);
    // An accepted offer's hire can still be cancelled before the start date; a cancelled hire is the end.
    expect(await deadEnds(offerWorkflow, [editor('offers'), approver('offers'), caller(`${CANDIDATE_ACTOR}c1`, {}), caller(OFFER_SYSTEM, {})], { awaiting: ['approver'] })).toEqual(['declined', 'expired', 'hireCancelled', 'rescinded']);
  });
});
