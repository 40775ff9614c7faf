import type { Knex } from 'knex';
import type { Caller, CompanyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound, nulRefused } from '../kernel/errors.js';
import { type PermissionRule, type TransitionSpec, type Workflow, type WorkflowSubject, withArticle } from './definition.js';
import { type WorkflowHistoryEntry, presentHistory } from './present.js';
import { insertHistory, listHistory } from './store.js';

/** Comments are reasons, not documents. */
export const MAX_COMMENT_LENGTH = 4000;

export interface TransitionResult<S extends string, A extends string> {
  /** The state to store on the subject (in the same transaction). */
  state: S;
  from: S;
  action: A;
  historyId: string;
  at: string;
}

type Spec<S extends string, A extends string, Extra extends object> = TransitionSpec<S, A, WorkflowSubject<S> & Extra>;

/** 409 naming the state and the action: "An approved cycle cannot be paused." */
function declaredTransition<S extends string, A extends string, Extra extends object>(workflow: Workflow<S, A, Extra>, state: S, action: A): Spec<S, A, Extra> {
  if (!workflow.isState(state)) throw new Error(`workflow ${workflow.name}: the subject is in ${String(state)}, which is not one of its states`);
  const spec = workflow.transitionFrom(state, action);
  if (!spec) throw new HttpError(409, 'invalid_transition', { message: workflow.refusal(state, action) });
  return spec;
}

interface Describable {
  action: string;
  pastTense?: string;
  permission?: PermissionRule;
  needsComment?: boolean;
}

function permissionRefusal(subjectNoun: string, spec: Describable): string {
  const rule = spec.permission;
  const needs = rule ? `the ${rule.permission} permission (${rule.authority}${rule.scope ? `, ${rule.scope === 'all' ? 'whole company' : rule.scope}` : ''})` : 'a permission you do not have';
  return spec.pastTense ? `Only people with ${needs} can have ${withArticle(subjectNoun)} ${spec.pastTense}.` : `The action “${spec.action}” on ${withArticle(subjectNoun)} needs ${needs}.`;
}

/** Why the actor may not apply the transition, or undefined when they may: the permission, then the guard. */
async function refusalFor<S extends string, A extends string, Extra extends object>(
  workflow: Workflow<S, A, Extra>,
  spec: Spec<S, A, Extra>,
  subject: WorkflowSubject<S> & Extra,
  actor: Caller,
): Promise<string | undefined> {
  const rule = spec.permission;
  if (rule && !hasPermission(actor.permissions, rule.permission, rule.authority, rule.scope)) return permissionRefusal(workflow.subject, spec);
  if (!spec.guard) return undefined;
  const verdict = await spec.guard(actor, subject);
  if (verdict === true) return undefined;
  return typeof verdict === 'string' ? verdict : `You cannot take the action “${spec.action}” on this ${workflow.subject}.`;
}

function commentOf(subjectNoun: string, spec: Describable, comment: string | undefined): string | null {
  const text = comment?.trim() ?? '';
  if (text.includes('\u0000')) throw nulRefused('comment');
  if (text.length > MAX_COMMENT_LENGTH) throw badRequest(`A comment is at most ${MAX_COMMENT_LENGTH} characters.`, [{ field: 'body.comment', message: `must be at most ${MAX_COMMENT_LENGTH} characters` }]);
  if (spec.needsComment && !text) {
    const subject = withArticle(subjectNoun);
    const what = spec.pastTense ? `${subject.charAt(0).toUpperCase()}${subject.slice(1)} is ${spec.pastTense} only with a comment saying why.` : `The action “${spec.action}” needs a comment saying why.`;
    throw badRequest(what, [{ field: 'body.comment', message: 'is required' }]);
  }
  return text || null;
}

/** Subject types and ids are the module's own short names and ids (history columns of 64). */
function checkSubjectRef(subject: { subjectType: string; subjectId: string }): void {
  for (const value of [subject.subjectType, subject.subjectId]) {
    if (!value || value.length > 64) throw new Error(`a subject type or id must be 1 to 64 characters: “${value.slice(0, 80)}”`);
  }
}

/**
 * Applies `action` to a subject: checks it is declared from the current state (409
 * `invalid_transition`), that the actor may take it (403), that a required comment is there (400),
 * and writes the history row with `trx`. Nothing is written when any check fails. The caller stores
 * the returned state on its record in the same transaction (at the version it read).
 */
export async function transition<S extends string, A extends string, Extra extends object>(
  trx: Knex,
  scope: CompanyScope,
  workflow: Workflow<S, A, Extra>,
  step: { subject: NoInfer<WorkflowSubject<S> & Extra>; action: NoInfer<A>; actor: Caller; comment?: string | undefined },
): Promise<TransitionResult<S, A>> {
  const { subject, action, actor, comment } = step;
  // A subject of one company is never changed by someone of another.
  if (actor.companyId !== scope.companyId) throw notFound();
  checkSubjectRef(subject);
  const spec = declaredTransition(workflow, subject.currentState, action);
  const refused = await refusalFor(workflow, spec, subject, actor);
  if (refused) throw new HttpError(403, 'forbidden', { message: refused });
  const why = commentOf(workflow.subject, spec, comment);
  const at = new Date().toISOString();
  const historyId = newId();
  await insertHistory(trx, {
    id: historyId,
    company_id: scope.companyId,
    workflow: workflow.name,
    subject_type: subject.subjectType,
    subject_id: subject.subjectId,
    subject_version: subject.version ?? null,
    from_state: subject.currentState,
    to_state: spec.to,
    action,
    actor_user_id: actor.userId,
    comment: why,
    created_at: at,
  });
  return { state: spec.to, from: subject.currentState, action, historyId, at };
}

/**
 * Writes a history row for what the product did along a transition without changing the state (a
 * reviewer skipped at submission): from and to are the subject's state, the action a name of the
 * module's own, not one of the workflow's transitions (nobody can take it).
 */
export async function recordNote<S extends string, A extends string, Extra extends object>(
  trx: Knex,
  scope: CompanyScope,
  workflow: Workflow<S, A, Extra>,
  subject: NoInfer<WorkflowSubject<S>>,
  note: { action: string; actor: Pick<Caller, 'userId'>; comment: string; /** The transition it goes with: the note is listed after it. */ after?: TransitionResult<S, A> },
): Promise<void> {
  checkSubjectRef(subject);
  if ((workflow.actions as readonly string[]).includes(note.action)) throw new Error(`workflow ${workflow.name}: a note cannot be named like the action ${note.action}`);
  await insertHistory(trx, {
    id: newId(),
    company_id: scope.companyId,
    workflow: workflow.name,
    subject_type: subject.subjectType,
    subject_id: subject.subjectId,
    subject_version: subject.version ?? null,
    from_state: subject.currentState,
    to_state: subject.currentState,
    action: note.action,
    actor_user_id: note.actor.userId,
    comment: note.comment.slice(0, MAX_COMMENT_LENGTH),
    // The history is read by time, then id: a millisecond after the transition keeps the order.
    created_at: new Date(Math.max(Date.now(), note.after ? Date.parse(note.after.at) + 1 : 0)).toISOString(),
  });
}

export interface AvailableAction<S extends string, A extends string> {
  action: A;
  to: S;
  needsComment: boolean;
}

/** What the actor could do next from the subject's state: the buttons a screen offers. */
export async function availableActions<S extends string, A extends string, Extra extends object>(
  workflow: Workflow<S, A, Extra>,
  subject: NoInfer<WorkflowSubject<S> & Extra>,
  actor: Caller,
): Promise<AvailableAction<S, A>[]> {
  const available: AvailableAction<S, A>[] = [];
  for (const spec of workflow.transitionsFrom(subject.currentState)) {
    if ((await refusalFor(workflow, spec, subject, actor)) === undefined) available.push({ action: spec.action, to: spec.to, needsComment: spec.needsComment ?? false });
  }
  return available;
}

/** Every change of a subject's state, oldest first; another company's subject has none. */
export async function history(db: Knex, scope: CompanyScope, subjectType: string, subjectId: string): Promise<WorkflowHistoryEntry[]> {
  return (await listHistory(db, scope, subjectType, subjectId)).map(presentHistory);
}
