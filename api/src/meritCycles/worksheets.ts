import type { Knex } from 'knex';
import { type VersionSource, VersionedCache } from '../access/authCache.js';
import { type Caller, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { keptForSending } from '../http/keptJson.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { moveVersionOn, updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { emit } from '../platform/events.js';
import { hasPermission } from '../access/permissions.js';
import { parsePermissions, rolesOfUsers } from '../access/store.js';
import { availableActions, recordNote, transition } from '../workflow/service.js';
import { usersById } from '../access/userContacts.js';
import { type BudgetTree, budgetTree, ownFigures } from './budgets.js';
import { parse } from './config.js';
import { type CycleContext, EDITABLE_STATES, branchOf, loadContext, requireStageOpen, treeOf, windowState } from './context.js';
import { historyEntries } from './cycles.js';
import { presentRow } from './present.js';
import { chainSource, resolutionNote, resolveReviewers } from './reviewers.js';
import { noteViewer, viewerNoteDue } from './realtime.js';
import { type CycleRow, NO_SUMS, type WorksheetRow, addSums, addToSums, isoOf, listChains, listRows, rowsOf, sumsOf, userNames, worksheetsOf, inTransaction } from './store.js';
import { WORKSHEET_SUBJECT, type WorksheetGuardFacts, worksheetStateInWords, worksheetWorkflow } from './workflow.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type Worksheet = Schemas['Worksheet'];
type WorksheetDetail = Schemas['WorksheetDetail'];
type PlannerMode = Schemas['PlannerMode'];

export function requireWorksheet(context: CycleContext, worksheetId: string): WorksheetRow {
  const worksheet = context.byId.get(worksheetId);
  if (!worksheet || !context.access.seesWorksheet(worksheet)) throw notFound();
  return worksheet;
}

const reviewersOf = (worksheet: WorksheetRow): string[] => parse<string[]>(worksheet.reviewers);

/** Whose turn it is while in review (null: an empty chain). */
export function currentReviewer(worksheet: WorksheetRow): string | null {
  const reviewers = reviewersOf(worksheet);
  return worksheet.state === 'in_review' && worksheet.review_step ? (reviewers[worksheet.review_step - 1] ?? null) : null;
}

async function subjectOf(context: CycleContext, worksheet: WorksheetRow) {
  const state = worksheet.state;
  if (!worksheetWorkflow.isState(state)) throw new Error(`worksheet ${worksheet.id} is in an unknown state ${state}`);
  const facts: WorksheetGuardFacts = {
    plannerUserId: worksheet.planner_user_id,
    currentReviewerUserId: currentReviewer(worksheet),
    callerPlansParent: context.access.plansParentOf(worksheet, context.byId),
    callerRowHere: (await context.ownWorksheetId()) === worksheet.id,
    ownerUserId: cycleOwner(context.cycle),
  };
  return { subjectType: WORKSHEET_SUBJECT, subjectId: worksheet.id, currentState: state, version: Number(worksheet.version), ...facts };
}

/** The approval step that finishes the review: the last reviewer, or anyone allowed when the chain is empty. */
const isLastStep = (worksheet: WorksheetRow): boolean => {
  const reviewers = reviewersOf(worksheet);
  return !reviewers.length || (worksheet.review_step ?? 1) >= reviewers.length;
};

/** The moves the caller may make on the worksheet now; approving is one move, whichever declared step it takes. */
async function offeredMoves(context: CycleContext, worksheet: WorksheetRow): Promise<{ action: string; needsComment: boolean }[]> {
  if (context.cycle.state !== 'active') return [];
  const offered = await availableActions(worksheetWorkflow, await subjectOf(context, worksheet), context.caller);
  return offered
    .filter((action) => (action.action === 'approveStep' ? !isLastStep(worksheet) : action.action === 'approve' ? isLastStep(worksheet) : true))
    .map((action) => ({ action: action.action === 'approveStep' ? 'approve' : action.action, needsComment: action.needsComment }));
}

async function presentWorksheets(db: Knex, context: CycleContext, worksheets: WorksheetRow[], tree: BudgetTree): Promise<Worksheet[]> {
  const names = await userNames(db, context.scope, worksheets.flatMap(reviewersOf));
  const out: Worksheet[] = [];
  for (const worksheet of worksheets) {
    const sums = tree.sums.get(worksheet.id);
    const actions = await offeredMoves(context, worksheet);
    out.push({
      id: worksheet.id,
      meritCycleId: worksheet.cycle_id,
      planner: worksheet.planner_employee_id ? { employeeId: worksheet.planner_employee_id, name: worksheet.planner_name ?? '', userId: worksheet.planner_user_id } : null,
      parentWorksheetId: worksheet.parent_worksheet_id,
      state: worksheet.state as Worksheet['state'],
      reviewers: reviewersOf(worksheet).map((userId) => ({ userId, name: names.get(userId)?.name ?? null })),
      reviewStep: worksheet.state === 'in_review' ? worksheet.review_step : null,
      pulledUpInto: worksheet.pulled_up_into,
      counts: { employees: sums?.employees ?? 0, eligible: sums?.eligible ?? 0, reviewed: sums?.reviewed ?? 0, flaggedErrors: sums?.flagged_errors ?? 0 },
      budget: ownFigures(worksheet, tree, context.cycle.currency),
      availableActions: actions,
      version: Number(worksheet.version),
      updatedAt: isoOf(worksheet.updated_at),
    });
  }
  return out;
}

export async function listCycleWorksheets(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string): Promise<Worksheet[]> {
  const { db, caller } = ctx;
  const context = await loadContext(db, caller, cycleId);
  const tree = budgetTree(context.worksheets);
  return presentWorksheets(db, context, context.worksheets.filter((worksheet) => context.access.seesWorksheet(worksheet)), tree);
}

async function oneWorksheet(db: Knex, context: CycleContext, worksheet: WorksheetRow): Promise<Worksheet> {
  const tree = budgetTree(context.worksheets);
  const [presented] = await presentWorksheets(db, context, [worksheet], tree);
  if (!presented) throw notFound();
  return presented;
}

/** Why the caller cannot change rows of this worksheet now, or null. */
export function readOnlyReason(context: CycleContext, worksheet: WorksheetRow): string | null {
  if (context.cycle.state !== 'active') return `The cycle is ${context.cycle.state}.`;
  const window = windowState(context, 'planning');
  if (!window.open) return window.opensAt && Date.now() < Date.parse(window.opensAt) ? `The planning window opens at ${window.opensAt}.` : `The planning window closed at ${window.closesAt}.`;
  if (!EDITABLE_STATES.has(worksheet.state)) return `The worksheet is ${worksheetStateInWords(worksheet.state)}.`;
  if (!context.access.plansWorksheet(worksheet, context.config.plannerMode)) return 'You review or follow this worksheet; its planner plans it.';
  return null;
}

/** A worksheet's answer and until when it holds, whatever is committed: the cycle's next window opening or closing. */
interface KeptWorksheet {
  detail: WorksheetDetail;
  until: number;
}

/** Worksheet answers kept per process: a few hundred planners' own sheets. */
const KEPT_WORKSHEETS = 512;
const keptBySource = new WeakMap<VersionSource, VersionedCache<KeptWorksheet>>();

/** The first moment after `now` at which one of the cycle's windows opens or closes (what a kept answer's window state and moves follow). */
function nextBoundary(context: CycleContext, now: number): number {
  const moments = context.config.windows.flatMap((window) => [Date.parse(window.opensAt), Date.parse(window.closesAt)]).filter((at) => at > now);
  return moments.length ? Math.min(...moments) : Infinity;
}

async function readWorksheet(db: Knex, caller: Caller, cycleId: string, worksheetId: string, mode: PlannerMode | undefined): Promise<KeptWorksheet> {
  const now = Date.now();
  const context = await loadContext(db, caller, cycleId);
  const worksheet = requireWorksheet(context, worksheetId);
  const chosen = mode ?? context.config.plannerMode;
  const sheets = chosen === 'allBelow' ? branchOf(worksheet, context.worksheets) : [worksheet];
  const rows = await listRows(db, context.scope, context.cycle.id, sheets.map((sheet) => sheet.id));
  const presented = await oneWorksheet(db, context, worksheet);
  const reason = readOnlyReason(context, worksheet);
  const detail: WorksheetDetail = {
    worksheet: presented,
    mode: chosen,
    columns: context.modes,
    planningWindow: windowState(context, 'planning'),
    readOnly: reason !== null,
    readOnlyReason: reason,
    employees: rows.filter((row) => context.access.seesEmployee(row.employee_id, worksheet)).map((row) => presentRow(row, context.money, context.modes, context.config.recommendation)),
  };
  return { detail, until: nextBoundary(context, now) };
}

/**
 * A worksheet as the caller sees it. Planning season is everyone in their worksheets, reading them
 * again and again: the answer is kept (per caller, as team table pages are, `team/pages.ts`) until
 * the next commit that writes data — a row edited, a move, a role or a flag changed, anywhere — and
 * at most until one of the cycle's windows opens or closes. A refusal is never kept. Without a data
 * version (a database only this process sees) every read is made afresh.
 */
export async function getWorksheet(
  ctx: Pick<ServiceContext, 'db' | 'caller'>,
  of: { cycleId: string; worksheetId: string; mode: PlannerMode | undefined; dataVersion: VersionSource | undefined },
): Promise<WorksheetDetail> {
  const { db, caller } = ctx;
  // The server's one data version (deps.dataVersion): under row-level security `db` is the request's
  // transaction, and a version source made from it would open a listening connection per request.
  const { cycleId, worksheetId, mode, dataVersion: source } = of;
  let answer: KeptWorksheet;
  if (!source) answer = await readWorksheet(db, caller, cycleId, worksheetId, mode);
  else {
    let kept = keptBySource.get(source);
    if (!kept) {
      kept = new VersionedCache<KeptWorksheet>(source, KEPT_WORKSHEETS);
      keptBySource.set(source, kept);
    }
    const key = keptKey(caller, of);
    answer = await kept.get(key, () => readWorksheet(db, caller, cycleId, worksheetId, mode));
    // Past a window's boundary: the answer of the next stretch, kept under a key of its own.
    for (let stretch = 0; answer.until <= Date.now() && stretch < 10; stretch++) {
      const since = answer.until;
      answer = await kept.get(`${key}@${since}`, () => readWorksheet(db, caller, cycleId, worksheetId, mode));
    }
    if (answer.until <= Date.now()) answer = await readWorksheet(db, caller, cycleId, worksheetId, mode);
    // Every reader of a kept answer gets this same object: it is sent as the bytes of its first serialisation.
    else keptForSending(answer.detail);
  }
  await noteViewer(db, companyScope(caller), cycleId, caller.userId);
  return answer.detail;
}

const keptKey = (caller: Caller, of: { cycleId: string; worksheetId: string; mode: PlannerMode | undefined }): string =>
  JSON.stringify([caller.companyId, caller.userId, caller.viewAs?.sessionId ?? null, of.cycleId, of.worksheetId, of.mode ?? null]);

/**
 * The answer `getWorksheet` keeps for the caller, when nothing was committed since and no window
 * opened or closed, and the read needs no note of the viewer; undefined otherwise (`getWorksheet`
 * answers).
 */
export async function keptWorksheet(
  caller: Caller,
  of: { cycleId: string; worksheetId: string; mode: PlannerMode | undefined; dataVersion: VersionSource | undefined },
): Promise<WorksheetDetail | undefined> {
  const kept = of.dataVersion ? keptBySource.get(of.dataVersion) : undefined;
  if (!kept || viewerNoteDue(of.cycleId, caller.userId)) return undefined;
  const answer = await kept.peek(keptKey(caller, of));
  return answer && answer.until > Date.now() ? keptForSending(answer.detail) : undefined;
}

export async function worksheetHistory(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, worksheetId: string): Promise<Schemas['WorkflowHistoryEntry'][]> {
  const { db, caller } = ctx;
  const context = await loadContext(db, caller, cycleId);
  requireWorksheet(context, worksheetId);
  return historyEntries(db, context.scope, WORKSHEET_SUBJECT, worksheetId);
}

/** Who owns a cycle: who set it up, else who launched it. */
export const cycleOwner = (cycle: CycleRow): string | null => cycle.created_by ?? cycle.launched_by;

/**
 * The chain a worksheet takes at submission: the chain of the nearest org branch at or above its
 * planner, else the company-wide chain, else the planner's manager (when they sign in), else none.
 */
async function chainFor(db: Knex, context: CycleContext, worksheet: WorksheetRow): Promise<readonly string[]> {
  const chains = await listChains(db, context.scope, context.cycle.id);
  const source = chainSource({
    plannerEmployeeId: worksheet.planner_employee_id,
    managerOf: context.managerOf.size ? context.managerOf : await treeOf(db, context.scope, context.cycle),
    chains: new Map(chains.map((chain) => [chain.branch_employee_id ?? '', parse<string[]>(chain.reviewers)])),
  });
  if (!source) return [];
  if ('chain' in source) return source.chain;
  const row = (await rowsOf(db, context.scope).where({ cycle_id: context.cycle.id, employee_id: source.managerEmployeeId }).first('user_id')) as { user_id: string | null } | undefined;
  return row?.user_id ? [row.user_id] : [];
}

/**
 * The reviewers a submitted worksheet takes, and what the history says of those skipped
 * (meritCycles/reviewers.ts): the chain without its planner, anyone whose pay is on it and anyone
 * who can no longer review, else the cycle's owner.
 */
async function reviewersAtSubmission(db: Knex, context: CycleContext, worksheet: WorksheetRow): Promise<{ reviewers: string[]; note: string | null }> {
  const chain = await chainFor(db, context, worksheet);
  const owner = cycleOwner(context.cycle);
  const everyone = [...new Set([...chain, ...(owner ? [owner] : [])])];
  const ownRows = chain.length
    ? ((await rowsOf(db, context.scope).where({ cycle_id: context.cycle.id, worksheet_id: worksheet.id }).whereIn('user_id', chain).select('user_id')) as { user_id: string }[])
    : [];
  const users = await usersById(db, context.scope, everyone);
  const roles = await rolesOfUsers(db, context.scope, everyone);
  const mayReview = (userId: string) =>
    Boolean(users.get(userId)?.active) && (roles.get(userId) ?? []).some((role) => hasPermission(parsePermissions(role), 'compensationPlanning', 'edit', undefined));
  const resolved = resolveReviewers({ chain, plannerUserId: worksheet.planner_user_id, ownPayUserIds: new Set(ownRows.map((row) => row.user_id)), mayReview, ownerUserId: owner });
  return { reviewers: resolved.reviewers, note: resolutionNote(resolved, (userId) => users.get(userId)?.name ?? 'A former user') };
}

type WorksheetMove = 'submit' | 'approve' | 'sendBack' | 'reopen';

/**
 * A move of the worksheet's review at the version read. Submitting needs the planning window open
 * and no row in error; reviewing needs the review window open. The person whose turn it is next is
 * told (`meritCycle.worksheetMoved`).
 */
export async function moveWorksheet(
  ctx: Pick<ServiceContext, 'db' | 'caller'>,
  { cycleId, worksheetId, ifMatch, move, comment }: { cycleId: string; worksheetId: string; ifMatch: string; move: WorksheetMove; comment: string | undefined },
): Promise<Worksheet> {
  const { db, caller } = ctx;
  const version = versionOf(ifMatch);
  return inTransaction(db, async (trx) => {
    const context = await loadContext(trx, caller, cycleId);
    const worksheet = requireWorksheet(context, worksheetId);
    if (Number(worksheet.version) !== version) throw versionConflict('this worksheet', Number(worksheet.version));
    const subject = await subjectOf(context, worksheet);
    const action = move === 'approve' ? (isLastStep(worksheet) ? 'approve' : 'approveStep') : move;
    if (!worksheetWorkflow.transitionFrom(subject.currentState, action)) throw new HttpError(409, 'invalid_transition', { message: worksheetWorkflow.refusal(subject.currentState, action) });
    if (move === 'submit') requireStageOpen(context, 'planning');
    else if (move === 'reopen') requireStageOpen(context, 'planning');
    else requireStageOpen(context, 'review');
    const changes: Partial<WorksheetRow> = {};
    let resolution: { reviewers: string[]; note: string | null } | undefined;
    if (move === 'submit') {
      const sums = sumsOf(worksheet);
      if (sums.flagged_errors) {
        throw new HttpError(409, 'worksheet_has_errors', { message: `${sums.flagged_errors} ${sums.flagged_errors === 1 ? 'row is' : 'rows are'} outside the guideline this cycle enforces; bring them inside it before submitting.` });
      }
      resolution = await reviewersAtSubmission(trx, context, worksheet);
      changes.reviewers = JSON.stringify(resolution.reviewers);
      changes.review_step = 1;
    }
    const moved = await transition(trx, context.scope, worksheetWorkflow, { subject, action, actor: caller, comment });
    if (resolution?.note) await recordNote(trx, context.scope, worksheetWorkflow, { ...subject, currentState: moved.state }, { action: 'skipReviewers', actor: caller, comment: resolution.note, after: moved });
    if (action === 'approveStep') changes.review_step = (worksheet.review_step ?? 1) + 1;
    if (move === 'sendBack' || move === 'reopen' || action === 'approve') changes.review_step = null;
    const now = new Date().toISOString();
    await updateAtVersion(() => worksheetsOf(trx, context.scope).where({ cycle_id: context.cycle.id, id: worksheet.id }), version, { ...changes, state: moved.state, updated_at: now }, 'this worksheet');
    const after: WorksheetRow = { ...worksheet, ...changes, state: moved.state, version: version + 1, updated_at: now };
    context.byId.set(after.id, after);
    context.worksheets = context.worksheets.map((sheet) => (sheet.id === after.id ? after : sheet));
    // Only the person who acts next hears of it: the next reviewer, or the planner.
    const nextReviewer = currentReviewer(after);
    const notify = moved.state === 'in_review' ? nextReviewer : after.planner_user_id;
    await emit(trx, {
      name: 'meritCycle.worksheetMoved',
      companyId: context.scope.companyId,
      actorUserId: caller.userId,
      subjectType: WORKSHEET_SUBJECT,
      subjectId: worksheet.id,
      payload: { meritCycleId: context.cycle.id, cycleName: context.cycle.name, worksheetId: worksheet.id, plannerName: worksheet.planner_name, action: move, from: moved.from, to: moved.state, comment: comment?.trim() || null, notifyUserId: notify && notify !== caller.userId ? notify : null },
    });
    return oneWorksheet(trx, context, after);
  });
}

type BulkMove = Schemas['WorksheetMovesInput']['action'];
type MoveResult = Schemas['WorksheetMoveResult'];

const nameOf = (worksheet: Pick<WorksheetRow, 'planner_name'>): string => worksheet.planner_name ?? 'People without a manager';

/**
 * Submits, approves or sends back many worksheets: the named ones, or every one in reach that offers
 * the move to the caller now. Each moves in its own transaction at its current version, by the rules
 * of its own operation, so one refused (another reviewer's turn, rows in error, moved meanwhile) holds
 * none of the others back; the answer says per worksheet what happened. All or nothing would make one
 * late reviewer or one row in error block fifty approvals that are each complete on their own.
 */
export async function moveWorksheets(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, input: { action: BulkMove; worksheetIds?: string[]; comment?: string }): Promise<Schemas['WorksheetMovesReply']['data']> {
  const { db, caller } = ctx;
  if (input.action === 'sendBack' && !input.comment?.trim()) {
    throw badRequest('Worksheets are sent back only with a comment saying why.', [{ field: 'body.comment', message: 'is required' }]);
  }
  const context = await loadContext(db, caller, cycleId);
  const reachable = context.worksheets.filter((worksheet) => context.access.seesWorksheet(worksheet));
  let targets: { id: string; worksheet: WorksheetRow | undefined }[];
  if (input.worksheetIds) {
    const byId = new Map(reachable.map((worksheet) => [worksheet.id, worksheet]));
    targets = input.worksheetIds.map((id) => ({ id, worksheet: byId.get(id) }));
  } else {
    targets = [];
    for (const worksheet of [...reachable].sort((a, b) => a.depth - b.depth)) {
      if ((await offeredMoves(context, worksheet)).some((offered) => offered.action === input.action)) targets.push({ id: worksheet.id, worksheet });
    }
  }
  const results: MoveResult[] = [];
  for (const { id, worksheet } of targets) {
    if (!worksheet) {
      results.push({ worksheetId: id, name: '', moved: false, state: null, code: 'not_found', message: 'There is no such worksheet in your reach in this cycle.' });
      continue;
    }
    try {
      const moved = await moveWorksheet({ db, caller }, { cycleId, worksheetId: id, ifMatch: `"${worksheet.version}"`, move: input.action, comment: input.comment });
      results.push({ worksheetId: id, name: nameOf(worksheet), moved: true, state: moved.state, code: null, message: null });
    } catch (error) {
      if (!(error instanceof HttpError) || error.status >= 500) throw error;
      results.push({ worksheetId: id, name: nameOf(worksheet), moved: false, state: worksheet.state, code: error.code, message: error.message });
    }
  }
  const moved = results.filter((result) => result.moved).length;
  return { moved, refused: results.length - moved, results };
}

/**
 * A manager takes over a report manager's worksheet: its rows (and the worksheets below it) move
 * into the worksheet above, in the same transaction; the pulled worksheet is left `pulled_up`.
 */
export async function pullUpWorksheet(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, worksheetId: string, ifMatch: string): Promise<Worksheet> {
  const { db, caller } = ctx;
  const version = versionOf(ifMatch);
  return inTransaction(db, async (trx) => {
    const context = await loadContext(trx, caller, cycleId);
    const worksheet = requireWorksheet(context, worksheetId);
    if (Number(worksheet.version) !== version) throw versionConflict('this worksheet', Number(worksheet.version));
    const subject = await subjectOf(context, worksheet);
    if (!worksheetWorkflow.transitionFrom(subject.currentState, 'pullUp')) throw new HttpError(409, 'invalid_transition', { message: worksheetWorkflow.refusal(subject.currentState, 'pullUp') });
    const parent = worksheet.parent_worksheet_id ? context.byId.get(worksheet.parent_worksheet_id) : undefined;
    if (!parent) throw new HttpError(409, 'no_worksheet_above', { message: 'This worksheet is at the top of the org; there is no worksheet to pull it up into.' });
    if (!EDITABLE_STATES.has(parent.state)) throw new HttpError(409, 'worksheet_read_only', { message: `The worksheet above is ${worksheetStateInWords(parent.state)}; it takes rows over only while it is being planned.` });
    requireStageOpen(context, 'planning');
    const moved = await transition(trx, context.scope, worksheetWorkflow, { subject, action: 'pullUp', actor: caller, comment: `Pulled up into ${parent.planner_name ?? 'the worksheet above'}’s worksheet.` });
    const now = new Date().toISOString();
    await updateAtVersion(() => worksheetsOf(trx, context.scope).where({ cycle_id: context.cycle.id, id: worksheet.id }), version, { state: moved.state, pulled_up_into: parent.id, updated_at: now }, 'this worksheet');
    await rowsOf(trx, context.scope).where({ cycle_id: context.cycle.id, worksheet_id: worksheet.id }).update({ worksheet_id: parent.id });
    // The rows' sums move with them.
    const moving = sumsOf(worksheet);
    await addToSums(trx, context.scope, context.cycle.id, parent.id, moving);
    await addToSums(trx, context.scope, context.cycle.id, worksheet.id, addSums(NO_SUMS, moving, -1));
    await worksheetsOf(trx, context.scope).where({ cycle_id: context.cycle.id, parent_worksheet_id: worksheet.id }).update({ parent_worksheet_id: parent.id, updated_at: now });
    await moveVersionOn(() => worksheetsOf(trx, context.scope).where({ cycle_id: context.cycle.id, id: parent.id }), { updated_at: now });
    await emit(trx, {
      name: 'meritCycle.worksheetMoved',
      companyId: context.scope.companyId,
      actorUserId: caller.userId,
      subjectType: WORKSHEET_SUBJECT,
      subjectId: worksheet.id,
      payload: { meritCycleId: context.cycle.id, cycleName: context.cycle.name, worksheetId: worksheet.id, plannerName: worksheet.planner_name, action: 'pullUp', from: moved.from, to: moved.state, comment: null, notifyUserId: worksheet.planner_user_id !== caller.userId ? worksheet.planner_user_id : null },
    });
    const fresh = await loadContext(trx, caller, cycleId);
    const into = fresh.byId.get(parent.id);
    if (!into) throw notFound();
    return oneWorksheet(trx, fresh, into);
  });
}
