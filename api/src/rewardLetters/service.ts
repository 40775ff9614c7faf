import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { isoTimestamp, isoTimestampOrNull } from '../db/timestamps.js';
import { documentHtml } from '../documents/html.js';
import { documentBulkPdfJob } from '../documents/jobs.js';
import { getDocumentVersion, getTemplate, updateTemplate, versionPdf } from '../documents/service.js';
import { TemplateSyntaxError, TemplateValueError, parseTemplate, renderTemplate, unofferedVariables } from '../documents/template.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { RawResponse, type ServiceContext } from '../kernel/operations.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import type { JobQueue } from '../jobs/queue.js';
import { startJob } from '../jobs/service.js';
import { type CycleAccess, cycleAccess, descendantsOf, requireWholeCompany } from '../meritCycles/access.js';
import { type CycleRow, findRow, inTransaction, listRows, rowTree } from '../meritCycles/store.js';
import { ownEmployeeId } from '../people/visibility.js';
import { emit } from '../platform/events.js';
import { availableActions } from '../workflow/service.js';
import { DEFAULT_MESSAGE, LETTER_VARIABLES, OFFERED, letterContext, letterVariables, lettersFromRows, renderCycleLetters, renderOneLetter, templateKeyOf } from './letters.js';
import { type RewardLetter, type RewardLetterCycle, type RewardLetterSummary, type RewardLetterTemplate, presentLetter } from './present.js';
import { type Letters, anyReleased, cancelRelease, lettersOfCycle, releaseOrPlan } from './release.js';
import { type LetterRow, findLetter, isEnabled, letterCyclesOf, lettersOf, listLetters, listReleases, markFirst, releasedLettersOf, switchLetter } from './store.js';
import { REWARD_LETTERS_SUBJECT, type RewardLettersAction, type RewardLettersState, rewardLettersWorkflow } from './workflow.js';

type Schemas = components['schemas'];

async function accessOf(db: Knex, scope: CompanyScope, caller: Caller, cycleId: string): Promise<CycleAccess> {
  const tree = await rowTree(db, scope, cycleId);
  return cycleAccess(db, scope, caller, new Map(tree.map((row) => [row.employee_id, row.manager_id])));
}

const cycleFacts = (cycle: CycleRow) => ({ id: cycle.id, name: cycle.name, effectiveDate: cycle.effective_date });

const isOwn = (letter: LetterRow, caller: Caller, own: string | null): boolean => letter.user_id === caller.userId || (own !== null && letter.employee_id === own);

/**
 * Who reads a letter: its employee once it is released to them (to everyone, or to their branch); a
 * manager (the people below them in the cycle's tree) once released to managers; whole-company
 * planners always. Nobody else.
 */
function mayRead(letter: LetterRow, state: RewardLettersState, caller: Caller, access: CycleAccess): boolean {
  // A letter switched off is not written: only whole-company planners see it (to switch it on).
  if (!isEnabled(letter)) return access.all;
  if (isOwn(letter, caller, access.ownEmployeeId)) return letter.released_at !== null || access.all;
  if (access.all) return true;
  return state !== 'draft' && access.below.has(letter.employee_id);
}

function requireWholeCompanyView(access: CycleAccess, what: string): void {
  if (!access.all) throw new HttpError(403, 'forbidden', { message: `${what} needs the compensationPlanning permission (view, whole company).` });
}

// ── the cycle's letters ──────────────────────────────────────────────────────────────────

export async function cycleLetters(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string): Promise<RewardLetterCycle> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const found = await lettersOfCycle(db, scope, cycleId);
  const tree = await rowTree(db, scope, cycleId);
  const access = await cycleAccess(db, scope, caller, new Map(tree.map((row) => [row.employee_id, row.manager_id])));
  const all = await listLetters(db, scope, cycleId);
  const shown = all.filter((letter) => mayRead(letter, found.state, caller, access));
  const visible = shown.filter(isEnabled);
  const subject = { subjectType: REWARD_LETTERS_SUBJECT, subjectId: cycleId, currentState: found.state, version: Number(found.letters.version) };
  const actions = await availableActions(rewardLettersWorkflow, subject, caller);
  return {
    meritCycleId: cycleId,
    cycleName: found.cycle.name,
    effectiveDate: found.cycle.effective_date,
    state: found.state,
    version: Number(found.letters.version),
    letterCount: visible.length,
    disabledCount: shown.length - visible.length,
    releasedCount: visible.filter((letter) => letter.released_at).length,
    viewedCount: visible.filter((letter) => letter.viewed_at).length,
    confirmedCount: visible.filter((letter) => letter.confirmed_at).length,
    renderedAt: isoTimestampOrNull(found.letters.rendered_at),
    releasedToManagersAt: isoTimestampOrNull(found.letters.released_to_managers_at),
    releasedAt: isoTimestampOrNull(found.letters.released_at),
    availableActions: actions.map((action) => action.action),
    branches: access.all ? await branchesOf(db, scope, cycleId, tree, all.filter(isEnabled)) : [],
    releases: access.all ? await releasesOfCycle(db, scope, cycleId) : [],
    letters: shown.map((letter) => presentLetter(letter, cycleFacts(found.cycle), letter.manager_name)),
  };
}

/** The workflow's moves by name (the older way to release to managers or everyone, now). */
export async function transitionLetters(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, ifMatch: string, action: RewardLettersAction): Promise<RewardLetterCycle> {
  const { db, caller } = ctx;
  await releaseOrPlan(db, caller, cycleId, ifMatch, { audience: action === 'releaseToManagers' ? 'managers' : 'all' });
  return cycleLetters({ db, caller }, cycleId);
}

export async function releaseCycleLetters(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, ifMatch: string, input: Schemas['RewardLetterReleaseInput']): Promise<RewardLetterCycle> {
  const { db, caller } = ctx;
  await releaseOrPlan(db, caller, cycleId, ifMatch, input);
  return cycleLetters({ db, caller }, cycleId);
}

export async function cancelCycleRelease(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, releaseId: string, ifMatch: string): Promise<RewardLetterCycle> {
  const { db, caller } = ctx;
  await cancelRelease(db, caller, cycleId, releaseId, ifMatch);
  return cycleLetters({ db, caller }, cycleId);
}

type TreeFacts = Awaited<ReturnType<typeof rowTree>>;

/** Names of the cycle's people, for branches and planned releases (one read of the cycle's rows). */
async function namesInCycle(db: Knex, scope: CompanyScope, cycleId: string): Promise<Map<string, string>> {
  return new Map((await listRows(db, scope, cycleId)).map((row) => [row.employee_id, [row.first_name, row.last_name].filter(Boolean).join(' ')]));
}

/** Every manager with letters in their branch (themselves and everyone below), by name. */
async function branchesOf(db: Knex, scope: CompanyScope, cycleId: string, tree: TreeFacts, letters: readonly LetterRow[]): Promise<Schemas['RewardLetterCycle']['branches']> {
  const managerOf = new Map(tree.map((row) => [row.employee_id, row.manager_id]));
  const managers = new Set(tree.flatMap((row) => (row.manager_id && managerOf.has(row.manager_id) ? [row.manager_id] : [])));
  if (!managers.size) return [];
  const letterOf = new Map(letters.map((letter) => [letter.employee_id, letter]));
  const names = await namesInCycle(db, scope, cycleId);
  const branches: Schemas['RewardLetterCycle']['branches'] = [];
  for (const manager of managers) {
    const inBranch = [manager, ...descendantsOf(manager, managerOf)].flatMap((id) => letterOf.get(id) ?? []);
    if (!inBranch.length) continue;
    branches.push({ managerEmployeeId: manager, name: names.get(manager) ?? manager, letters: inBranch.length, released: inBranch.filter((letter) => letter.released_at).length });
  }
  return branches.sort((a, b) => a.name.localeCompare(b.name) || a.managerEmployeeId.localeCompare(b.managerEmployeeId));
}

async function releasesOfCycle(db: Knex, scope: CompanyScope, cycleId: string): Promise<Schemas['RewardLetterRelease'][]> {
  const rows = await listReleases(db, scope, cycleId);
  if (!rows.length) return [];
  const names = rows.some((row) => row.branch_employee_id) ? await namesInCycle(db, scope, cycleId) : new Map<string, string>();
  return rows.map((row) => ({
    id: row.id,
    audience: row.audience,
    managerEmployeeId: row.branch_employee_id,
    managerName: row.branch_employee_id ? (names.get(row.branch_employee_id) ?? null) : null,
    releaseAt: isoTimestamp(row.release_at),
    status: row.status,
    outcome: row.outcome,
  }));
}

// ── the template ─────────────────────────────────────────────────────────────────────────

const VARIABLE_LIST = Object.entries(LETTER_VARIABLES).map(([name, spec]) => ({ name, kind: spec.kind, description: spec.description }));

async function templateOf(db: Knex, scope: CompanyScope, found: Letters): Promise<RewardLetterTemplate> {
  const template = await getTemplate(db, scope, templateKeyOf(found.cycle.id));
  if (!template) throw new Error(`the letters of cycle ${found.cycle.id} have no template`);
  return {
    meritCycleId: found.cycle.id,
    title: template.title,
    body: template.body,
    message: found.letters.message,
    version: Number(found.letters.version),
    templateVersion: template.version,
    editable: found.state === 'draft' && !(await anyReleased(db, scope, found.cycle.id)),
    variables: VARIABLE_LIST,
  };
}

export async function letterTemplate(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string): Promise<RewardLetterTemplate> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const found = await lettersOfCycle(db, scope, cycleId);
  requireWholeCompanyView(await accessOf(db, scope, caller, cycleId), 'Reading the letter template of a cycle');
  return templateOf(db, scope, found);
}

/** A template change before release: saved at the version read, and every letter issued again from it. */
export async function updateLetterTemplate(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, ifMatch: string, input: Schemas['RewardLetterTemplateInput']): Promise<RewardLetterTemplate> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  requireWholeCompany(caller, 'Changing the letter template of a cycle');
  return inTransaction(db, async (trx) => {
    const found = await lettersOfCycle(trx, scope, cycleId);
    if (Number(found.letters.version) !== version) throw versionConflict('these reward letters', Number(found.letters.version));
    if (found.state !== 'draft' || (await anyReleased(trx, scope, cycleId))) throw new HttpError(409, 'letters_released', { message: 'These reward letters are released; a released letter never changes, so the template cannot be changed any more.' });
    const current = await getTemplate(trx, scope, templateKeyOf(cycleId));
    if (!current) throw new Error(`the letters of cycle ${cycleId} have no template`);
    await updateTemplate(trx, scope, { actorUserId: caller.userId, id: current.id, version: current.version, input: { title: input.title, body: input.body }, rules: { variables: OFFERED } });
    const now = new Date().toISOString();
    await updateAtVersion(() => letterCyclesOf(trx, scope).where({ cycle_id: cycleId }), version, { message: (input.message ?? found.letters.message).trim(), updated_at: now }, 'these reward letters');
    await renderCycleLetters(trx, scope, found.cycle, caller.userId);
    return templateOf(trx, scope, await lettersOfCycle(trx, scope, cycleId));
  });
}

/** One employee's letter from the stored template or a draft of it; nothing is stored. */
export async function previewLetter(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, body: Schemas['RewardLetterPreviewInput']): Promise<Schemas['RewardLetterDocument']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  requireWholeCompany(caller, 'Previewing a cycle’s reward letters');
  const found = await lettersOfCycle(db, scope, cycleId);
  const row = await findRow(db, scope, cycleId, body.employeeId);
  const [facts] = row ? lettersFromRows([row]) : [];
  if (!row || !facts) throw notFound(row ? `${row.first_name} ${row.last_name} is not eligible in this cycle or has no base salary, so no letter.` : 'The content could not be found.');
  const stored = await getTemplate(db, scope, templateKeyOf(cycleId));
  const draft = { title: body.title ?? stored?.title ?? '', body: body.body ?? stored?.body ?? '' };
  let parsed;
  try {
    parsed = parseTemplate(draft);
    const problems = unofferedVariables(parsed, OFFERED);
    if (problems.length) throw new TemplateSyntaxError(problems);
  } catch (error) {
    if (!(error instanceof TemplateSyntaxError)) throw error;
    throw badRequest(`The template cannot be used. ${error.message}`, error.problems.map((problem) => ({ field: `body.${problem.part}`, message: problem.line ? `line ${problem.line}: ${problem.message}` : problem.message })));
  }
  const context = await letterContext(db, scope, found.cycle, body.message ?? found.letters.message ?? DEFAULT_MESSAGE, [row, ...(await siblingsFor(db, scope, cycleId, row.manager_id))]);
  try {
    const rendered = renderTemplate(parsed, letterVariables(facts, context));
    return { title: rendered.title, html: documentHtml({ title: rendered.title, branding: context.branding, blocks: rendered.blocks }) };
  } catch (error) {
    if (!(error instanceof TemplateValueError)) throw error;
    throw badRequest(error.message, [{ field: `body.body`, message: error.message }]);
  }
}

/** The manager's own row, so the preview names them as the letter will. */
async function siblingsFor(db: Knex, scope: CompanyScope, cycleId: string, managerId: string | null) {
  if (!managerId) return [];
  const manager = await findRow(db, scope, cycleId, managerId);
  return manager ? [manager] : [];
}

export async function startLetterExport(ctx: Pick<ServiceContext, 'db'>, jobs: JobQueue, caller: Caller, cycleId: string, socketId: string | undefined) {
  const { db } = ctx;
  const scope = companyScope(caller);
  const found = await lettersOfCycle(db, scope, cycleId);
  requireWholeCompanyView(await accessOf(db, scope, caller, cycleId), 'Exporting a cycle’s reward letters');
  const versionIds = (await listLetters(db, scope, cycleId, { enabledOnly: true })).flatMap((letter) => (letter.document_version_id ? [letter.document_version_id] : []));
  if (!versionIds.length) throw new HttpError(409, 'no_letters', { message: 'Every letter of this cycle is switched off, so there are no letters to export.' });
  const filename = `reward-letters-${found.cycle.name}-${found.cycle.effective_date}`;
  return startJob(jobs, caller, documentBulkPdfJob, { versionIds, filename, permission: null }, socketId);
}

// ── switching a letter on or off ─────────────────────────────────────────────────────────

/**
 * Switches one employee's letter on (written now from the stored template) or off (not written,
 * released, reminded or exported) before it is released, at the letter's version.
 */
export async function switchLetterOnOrOff(
  ctx: Pick<ServiceContext, 'db' | 'caller'>,
  { cycleId, employeeId, ifMatch, enabled }: { cycleId: string; employeeId: string; ifMatch: string; enabled: boolean },
): Promise<RewardLetterSummary> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  requireWholeCompany(caller, 'Switching a reward letter on or off');
  return inTransaction(db, async (trx) => {
    const found = await lettersOfCycle(trx, scope, cycleId);
    const letter = await findLetter(trx, scope, cycleId, employeeId);
    if (!letter) throw notFound();
    if (Number(letter.version) !== version) throw versionConflict('this reward letter', Number(letter.version));
    if (letter.released_at || found.state === 'released') {
      throw new HttpError(409, 'letter_released', { message: 'This letter is released; a released letter never changes, so it can no longer be switched on or off.' });
    }
    const now = new Date().toISOString();
    const was = isEnabled(letter);
    const documentVersionId = !enabled ? null : was && letter.document_version_id ? letter.document_version_id : await renderOneLetter(trx, scope, { cycle: found.cycle, message: found.letters.message, letterId: letter.id, employeeId, createdBy: caller.userId });
    if (!(await switchLetter(trx, scope, { letterId: letter.id, version, enabled, documentVersionId, at: now }))) throw versionConflict('this reward letter', Number(letter.version) + 1);
    const goingOut = (await listLetters(trx, scope, cycleId, { enabledOnly: true })).length;
    await letterCyclesOf(trx, scope).where({ cycle_id: cycleId }).update({ letters: goingOut, updated_at: now });
    if (was !== enabled) {
      await emit(trx, {
        name: 'rewardLetter.switched',
        companyId: scope.companyId,
        actorUserId: caller.userId,
        subjectType: REWARD_LETTERS_SUBJECT,
        subjectId: cycleId,
        payload: { meritCycleId: cycleId, employeeId, enabled },
      });
    }
    const stored = await findLetter(trx, scope, cycleId, employeeId);
    if (!stored) throw notFound();
    return presentLetter(stored, cycleFacts(found.cycle), stored.manager_name);
  });
}

// ── one letter ───────────────────────────────────────────────────────────────────────────

interface ReadableLetter {
  found: Letters;
  letter: LetterRow;
  own: boolean;
}

async function readableLetter(db: Knex, scope: CompanyScope, caller: Caller, cycleId: string, employeeId: string): Promise<ReadableLetter> {
  const found = await lettersOfCycle(db, scope, cycleId);
  const letter = await findLetter(db, scope, cycleId, employeeId);
  if (!letter) throw notFound();
  const access = await accessOf(db, scope, caller, cycleId);
  if (!mayRead(letter, found.state, caller, access)) throw notFound();
  return { found, letter, own: isOwn(letter, caller, access.ownEmployeeId) };
}

const switchedOff = (): HttpError => new HttpError(409, 'letter_disabled', { message: 'This letter is switched off, so it is not written. Switch it on to write it.' });

async function presentFull(db: Knex, scope: CompanyScope, found: Letters, letter: LetterRow): Promise<RewardLetter> {
  if (!letter.document_version_id) throw switchedOff();
  const version = await getDocumentVersion(db, scope, letter.document_version_id);
  return {
    letter: presentLetter(letter, cycleFacts(found.cycle), letter.manager_name),
    state: found.state,
    document: { title: version.title, html: version.html },
    issuedAt: isoTimestamp(version.createdAt),
  };
}

/** A letter as issued; the employee's own first reading (once released) is recorded as viewed. */
export async function readLetter(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, employeeId: string): Promise<RewardLetter> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const { found, letter, own } = await readableLetter(db, scope, caller, cycleId, employeeId);
  if (own && letter.released_at && !letter.viewed_at) {
    await markFirst(db, scope, letter.id, 'viewed_at', new Date().toISOString());
    return presentFull(db, scope, found, (await findLetter(db, scope, cycleId, employeeId)) ?? letter);
  }
  return presentFull(db, scope, found, letter);
}

export async function letterPdf(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, employeeId: string): Promise<RawResponse> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const { letter } = await readableLetter(db, scope, caller, cycleId, employeeId);
  if (!letter.document_version_id) throw switchedOff();
  const pdf = await versionPdf(db, scope, letter.document_version_id);
  return new RawResponse(Readable.from([pdf.bytes]), 'application/pdf', pdf.filename, pdf.bytes.length);
}

/** The employee confirms their own released letter; the first confirmation is kept. */
export async function confirmLetter(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, employeeId: string): Promise<RewardLetter> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const { found, letter, own } = await readableLetter(db, scope, caller, cycleId, employeeId);
  if (!own || !letter.released_at) throw new HttpError(403, 'forbidden', { message: 'Only the employee a letter is written to confirms it.' });
  const now = new Date().toISOString();
  await markFirst(db, scope, letter.id, 'viewed_at', now);
  await markFirst(db, scope, letter.id, 'confirmed_at', now);
  return presentFull(db, scope, found, (await findLetter(db, scope, cycleId, employeeId)) ?? letter);
}

/** The caller's own letter of a cycle (released), by their sign-in: the one answer the installed app keeps offline. */
export async function myLetter(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string): Promise<RewardLetter> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const own = await ownEmployeeId(db, scope, caller.userId);
  const letters = await lettersOf(db, scope).where({ cycle_id: cycleId }).andWhere((where) => {
    where.where('user_id', caller.userId);
    if (own) where.orWhere('employee_id', own);
  }).first() as LetterRow | undefined;
  if (!letters) throw notFound();
  return readLetter({ db, caller }, cycleId, letters.employee_id);
}

export async function myLetters(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<RewardLetterSummary[]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const rows = await releasedLettersOf(db, scope, caller.userId, await ownEmployeeId(db, scope, caller.userId));
  return rows.map((row) => presentLetter(row, { id: row.cycle_id, name: row.cycle_name, effectiveDate: row.effective_date }, row.manager_name));
}
