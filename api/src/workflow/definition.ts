import type { Caller } from '../access/caller.js';
import type { PermissionName } from '../access/permissions.js';

/**
 * A workflow is a declared table of states and transitions (a merit cycle, an offer, an approval
 * chain). It is pure data plus its checks: the service (`service.ts`) applies it to a subject in a
 * transaction and writes the history. No state-machine library: a table and three checks do it.
 */

/** What a transition is applied to: the module's record, named by type and id, in its current state. */
export interface WorkflowSubject<S extends string = string> {
  subjectType: string;
  subjectId: string;
  currentState: S;
  /** The record's version the actor saw; kept in the history (what exactly was approved). */
  version?: number;
}

/** `true` allows; `false` refuses with the default message; a string refuses with that reason. */
export type GuardResult = boolean | string;

/** Who may apply a transition beyond a permission: "the approver of this step", "not the submitter". */
export type Guard<Subject> = (actor: Caller, subject: Subject) => GuardResult | Promise<GuardResult>;

export interface PermissionRule {
  permission: PermissionName;
  authority: 'view' | 'edit';
  /** A scope the grant must cover (`all`, `reports`); any scope when absent. */
  scope?: string;
}

export interface TransitionSpec<S extends string, A extends string, Subject> {
  action: A;
  from: readonly S[];
  to: S;
  /** How messages name the action done: "paused" → "An approved cycle cannot be paused." */
  pastTense?: string;
  permission?: PermissionRule;
  guard?: Guard<Subject>;
  /** A comment saying why is required (returning a worksheet, rejecting an offer). */
  needsComment?: boolean;
}

export interface WorkflowDefinition<S extends string, A extends string, Extra extends object> {
  /** Stored in the history: keep it stable ('meritCycle'). */
  name: string;
  /** What messages call the subject ("cycle"); the name when absent. */
  subject?: string;
  states: readonly S[];
  /** How messages name a state when its name will not do ('not_started' reads "not started" anyway). */
  labels?: Partial<Record<NoInfer<S>, string>>;
  initial: NoInfer<S>;
  transitions: readonly TransitionSpec<NoInfer<S>, A, WorkflowSubject<NoInfer<S>> & Extra>[];
}

export interface Workflow<S extends string, A extends string, Extra extends object = object> {
  readonly name: string;
  readonly subject: string;
  readonly states: readonly S[];
  readonly initial: S;
  readonly actions: readonly A[];
  readonly transitions: readonly TransitionSpec<S, A, WorkflowSubject<S> & Extra>[];
  /** The transition `action` takes from `state`, if declared. */
  transitionFrom(state: S, action: A): TransitionSpec<S, A, WorkflowSubject<S> & Extra> | undefined;
  /** Every transition declared from `state` (what could be offered, before permissions). */
  transitionsFrom(state: S): TransitionSpec<S, A, WorkflowSubject<S> & Extra>[];
  /** "An approved cycle cannot be paused." */
  refusal(state: S, action: A): string;
  /** "approved" */
  label(state: S): string;
  /** Narrows a state read from the database (a text column) to the declared ones. */
  isState(value: string): value is S;
}

/** The states of a workflow, as a type: `StateOf<typeof meritCycle>`. */
export type StateOf<W> = W extends { readonly states: readonly (infer S)[] } ? S : never;
/** The actions of a workflow, as a type. */
export type ActionOf<W> = W extends { readonly actions: readonly (infer A)[] } ? A : never;

/** "an approved", "a cycle": by the first letter, which is right for the words workflows use. */
export const withArticle = (word: string): string => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;

interface Table {
  name: string;
  states: readonly string[];
  initial: string;
  transitions: readonly { action: string; from: readonly string[]; to: string }[];
}

/** The history stores names in columns of 64 characters. */
const MAX_NAME = 64;

function checkDefinition(definition: Table): void {
  const states = new Set(definition.states);
  const where = `workflow ${definition.name}`;
  const names = [definition.name, ...definition.states, ...definition.transitions.map((transition) => transition.action)];
  const long = names.find((name) => !name || name.length > MAX_NAME);
  if (long !== undefined) throw new Error(`${where}: “${long}” is not a name of 1 to ${MAX_NAME} characters`);
  if (states.size !== definition.states.length) throw new Error(`${where}: a state is declared twice`);
  if (!states.has(definition.initial)) throw new Error(`${where}: the initial state ${definition.initial} is not one of its states`);
  const taken = new Set<string>();
  for (const transition of definition.transitions) {
    if (!transition.from.length) throw new Error(`${where}: ${transition.action} starts from no state`);
    for (const state of [...transition.from, transition.to]) {
      if (!states.has(state)) throw new Error(`${where}: ${transition.action} names ${state}, which is not one of its states`);
    }
    // One action may lead to different places from different states, never two from one state.
    for (const from of transition.from) {
      const key = `${from}\u0000${transition.action}`;
      if (taken.has(key)) throw new Error(`${where}: ${transition.action} is declared twice from ${from}`);
      taken.add(key);
    }
  }
}

/**
 * Declares a workflow. The states and actions become literal types, so applying an undeclared
 * action or naming an unknown state does not compile; a guard's subject type (annotate its
 * parameter) becomes what `transition` demands. A contradictory table throws at start-up.
 */
export function defineWorkflow<const S extends string, const A extends string, Extra extends object = object>(
  definition: WorkflowDefinition<S, A, Extra>,
): Workflow<S, A, Extra> {
  checkDefinition(definition);
  const subject = definition.subject ?? definition.name;
  const labels: Partial<Record<S, string>> = definition.labels ?? {};
  const label = (state: S): string => labels[state] ?? state.replace(/_/g, ' ');
  const transitionsFrom = (state: S) => definition.transitions.filter((transition) => transition.from.includes(state));
  const transitionFrom = (state: S, action: A) => transitionsFrom(state).find((transition) => transition.action === action);
  const pastTense = (action: A): string | undefined => definition.transitions.find((transition) => transition.action === action && transition.pastTense)?.pastTense;
  return {
    name: definition.name,
    subject,
    states: definition.states,
    initial: definition.initial,
    actions: [...new Set(definition.transitions.map((transition) => transition.action))],
    transitions: definition.transitions,
    transitionFrom,
    transitionsFrom,
    label,
    isState: (value: string): value is S => (definition.states as readonly string[]).includes(value),
    refusal(state, action) {
      const done = pastTense(action);
      const stated = withArticle(`${label(state)} ${subject}`);
      const what = `${stated.charAt(0).toUpperCase()}${stated.slice(1)}`;
      return done ? `${what} cannot be ${done}.` : `${what} cannot take the action “${action}”.`;
    },
  };
}
