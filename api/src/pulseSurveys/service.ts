import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Caller, CompanyScope } from '../access/caller.js';
import { companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { dataLabFeatures, requireDataLabFeature } from '../dataLab/subscription.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { updateAtVersion, versionOf } from '../kernel/versions.js';
import { findLevel, findLocation } from '../reference/catalog/index.js';
import { pulseSurveyEmployeeNames, pulseSurveyManagers, pulseSurveyOrg, pulseSurveyPeople, type PulseSurveyPerson } from './peopleReads.js';
import { employeeReach } from '../people/visibility.js';
import { queueJobIn } from '../jobs/queue.js';
import { emit } from '../platform/events.js';
import { availableActions, transition } from '../workflow/service.js';
import { closingTime, surveyClosingJob } from './closing.js';
import { groupLabel, isTargetKind, presentQuestionnaire, presentSurvey, targetValues } from './present.js';
import { type GroupInput, MIN_RESPONDENTS, TOO_FEW, groupResult, hiddenGroups, scoreSummary, tallyFor } from './results.js';
import {
  type PulseDimension,
  type PulseQuestionRow,
  type PulseSurveyRow,
  addToTallies,
  assignedSurveyRows,
  audienceCounts,
  commentTexts,
  findAudienceRow,
  findSurveyRow,
  insertAudienceRows,
  insertComment,
  insertSurveyRow,
  listSurveyRows,
  markAnswered,
  overallRespondents,
  questionRows,
  questionsByKey,
  replaceQuestionRows,
  respondentRows,
  surveysOf,
  tallyRows,
  unansweredUserIds,
} from './store.js';
import { PULSE_SURVEY_SUBJECT, type PulseSurveyState, pulseSurveyWorkflow } from './workflow.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type PulseSurvey = Schemas['PulseSurvey'];
type Target = Schemas['PulseSurveyTarget'];
type TargetKind = Schemas['PulseTargetKind'];

const today = (): string => new Date().toISOString().slice(0, 10);
/** Trends match a question across surveys by its words, whatever the case and spacing. */
export const questionKey = (text: string): string => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** The caller's company, once its data-lab subscription is known to have pulse surveys. */
async function pulseScope(db: Knex, caller: Caller): Promise<CompanyScope> {
  const scope = companyScope(caller);
  await requireDataLabFeature(db, scope.companyId, 'pulseSurveys');
  return scope;
}

/**
 * The caller's company for answering: a company without pulse surveys sent nobody one. Answered as
 * any survey not sent to the caller is (nothing, or 404), since the data-lab subscription is for
 * those with dataLab view to read.
 */
async function answeringScope(db: Knex, caller: Caller): Promise<CompanyScope | undefined> {
  const scope = companyScope(caller);
  return (await dataLabFeatures(db, scope.companyId)).pulseSurveys ? scope : undefined;
}

function stateOf(row: PulseSurveyRow): PulseSurveyState {
  if (!pulseSurveyWorkflow.isState(row.state)) throw new Error(`pulse survey ${row.id} is in an unknown state ${row.state}`);
  return row.state;
}

async function surveyOr404(db: Knex, scope: CompanyScope, id: string): Promise<PulseSurveyRow> {
  const row = await findSurveyRow(db, scope, id);
  if (!row) throw notFound();
  return row;
}

/** Surveys as the caller sees them: questions, respondents, target names and the actions open to them. */
async function present(db: Knex, scope: CompanyScope, caller: Caller, rows: readonly PulseSurveyRow[]): Promise<PulseSurvey[]> {
  const ids = rows.map((row) => row.id);
  // One after another: on Postgres `db` is the request's transaction, one connection.
  const questions = await questionRows(db, scope, ids);
  const respondents = await overallRespondents(db, scope, ids);
  const managerIds = rows.filter((row) => row.target_kind === 'managerSubtree').flatMap(targetValues);
  const managerNames = await pulseSurveyEmployeeNames(db, scope, managerIds);
  const shown: PulseSurvey[] = [];
  for (const row of rows) {
    const state = stateOf(row);
    const actions = await availableActions(pulseSurveyWorkflow, { subjectType: PULSE_SURVEY_SUBJECT, subjectId: row.id, currentState: state }, caller);
    shown.push(
      presentSurvey(row, {
        state,
        questions: questions.filter((question) => question.survey_id === row.id),
        respondents: respondents.get(row.id) ?? 0,
        managerNames,
        actions: actions.map((action) => action.action).filter((action): action is 'open' | 'close' => action !== 'expire'),
      }),
    );
  }
  return shown;
}

async function presentOne(db: Knex, scope: CompanyScope, caller: Caller, id: string): Promise<PulseSurvey> {
  const [survey] = await present(db, scope, caller, [await surveyOr404(db, scope, id)]);
  return survey as PulseSurvey;
}

// ── checking what is written ───────────────────────────────────────────────────────────────

function checkDates(opensOn: string, closesOn: string): void {
  if (closesOn < opensOn) throw badRequest('The closing date must be on or after the opening date.', [{ field: 'body.closesOn', message: 'is before opensOn' }]);
}

function checkQuestions(questions: readonly string[]): string[] {
  const texts = questions.map((text) => text.trim().replace(/\s+/g, ' '));
  const empty = texts.findIndex((text) => text.length < 3);
  if (empty >= 0) throw badRequest('Each question needs at least 3 characters.', [{ field: `body.questions.${empty}`, message: 'is too short' }]);
  const keys = texts.map(questionKey);
  const repeated = keys.findIndex((key, index) => keys.indexOf(key) !== index);
  if (repeated >= 0) throw badRequest('A survey asks each question once.', [{ field: `body.questions.${repeated}`, message: 'repeats an earlier question' }]);
  return texts;
}

async function checkTarget(db: Knex, scope: CompanyScope, caller: Caller, target: Target): Promise<string[]> {
  const values = [...new Set(target.values.map((value) => value.trim()))].filter(Boolean);
  const field = 'body.target.values';
  switch (target.kind) {
    case 'everyone':
      if (values.length) throw badRequest('A survey to everyone names no groups.', [{ field, message: 'must be empty for everyone' }]);
      return [];
    case 'department':
      if (!values.length) throw badRequest('Choose at least one department.', [{ field, message: 'is empty' }]);
      return values;
    case 'location': {
      if (!values.length) throw badRequest('Choose at least one location.', [{ field, message: 'is empty' }]);
      const unknown = values.find((value) => !findLocation(value));
      if (unknown) throw badRequest(`“${unknown}” is not a location.`, [{ field, message: 'names an unknown location' }]);
      return values;
    }
    case 'level': {
      if (!values.length) throw badRequest('Choose at least one level.', [{ field, message: 'is empty' }]);
      const unknown = values.find((value) => !findLevel(value));
      if (unknown) throw badRequest(`“${unknown}” is not a level.`, [{ field, message: 'names an unknown level' }]);
      return values;
    }
    case 'managerSubtree': {
      if (values.length !== 1) throw badRequest('Choose one manager.', [{ field, message: 'must name one manager' }]);
      const managers = await pulseSurveyManagers(db, scope, await employeeReach(db, scope, caller, 'team'));
      if (!managers.some((manager) => manager.employeeId === values[0])) throw badRequest('Choose a manager from the list: that person manages nobody you can see.', [{ field, message: 'is not a manager within your reach' }]);
      return values;
    }
  }
}

/** Everyone among `people` that a target covers. */
async function audienceOf(db: Knex, scope: CompanyScope, kind: TargetKind, values: readonly string[], people: readonly PulseSurveyPerson[]): Promise<PulseSurveyPerson[]> {
  const wanted = new Set(values);
  switch (kind) {
    case 'everyone':
      return [...people];
    case 'department':
      return people.filter((person) => person.department !== null && wanted.has(person.department));
    case 'location':
      return people.filter((person) => person.locationId !== null && wanted.has(person.locationId));
    case 'level':
      return people.filter((person) => person.levelId !== null && wanted.has(person.levelId));
    case 'managerSubtree': {
      const subtree = subtreeOf(await pulseSurveyOrg(db, scope), values[0] ?? '');
      return people.filter((person) => subtree.has(person.employeeId));
    }
  }
}

/** A manager and everyone below them, walking the org tree (a cycle in bad data cannot loop). */
function subtreeOf(org: readonly { employeeId: string; managerId: string | null }[], rootId: string): Set<string> {
  const reports = new Map<string, string[]>();
  for (const node of org) if (node.managerId) reports.set(node.managerId, [...(reports.get(node.managerId) ?? []), node.employeeId]);
  const seen = new Set<string>();
  const queue = org.some((node) => node.employeeId === rootId) ? [rootId] : [];
  while (queue.length) {
    const id = queue.shift() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(reports.get(id) ?? []));
  }
  return seen;
}

const questionRowsFor = (scope: CompanyScope, surveyId: string, texts: readonly string[]): PulseQuestionRow[] =>
  texts.map((text, index) => ({ id: newId(), company_id: scope.companyId, survey_id: surveyId, position: index + 1, text, text_key: questionKey(text) }));

// ── admins ─────────────────────────────────────────────────────────────────────────────────

export async function listSurveys(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<PulseSurvey[]> {
  const { db, caller } = ctx;
  const scope = await pulseScope(db, caller);
  return present(db, scope, caller, await listSurveyRows(db, scope));
}

export async function getSurvey(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<PulseSurvey> {
  const { db, caller } = ctx;
  const scope = await pulseScope(db, caller);
  return presentOne(db, scope, caller, id);
}

export async function createSurvey(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: Schemas['PulseSurveyInput']): Promise<PulseSurvey> {
  const { db, caller } = ctx;
  const scope = await pulseScope(db, caller);
  checkDates(input.opensOn, input.closesOn);
  const texts = checkQuestions(input.questions);
  const values = await checkTarget(db, scope, caller, input.target);
  const id = newId();
  const now = new Date().toISOString();
  await db.transaction(async (trx) => {
    await insertSurveyRow(trx, {
      id,
      company_id: scope.companyId,
      title: input.title.trim(),
      introduction: input.introduction?.trim() || null,
      state: pulseSurveyWorkflow.initial,
      target_kind: input.target.kind,
      target_values: JSON.stringify(values),
      opens_on: input.opensOn,
      closes_on: input.closesOn,
      audience_size: null,
      reminders_sent: 0,
      last_reminded_at: null,
      created_by: caller.userId,
      version: 1,
      created_at: now,
      updated_at: now,
    });
    await replaceQuestionRows(trx, scope, id, questionRowsFor(scope, id, texts));
    await emit(trx, { name: 'pulseSurvey.created', companyId: scope.companyId, actorUserId: caller.userId, subjectType: PULSE_SURVEY_SUBJECT, subjectId: id, payload: { title: input.title.trim() } });
  });
  return presentOne(db, scope, caller, id);
}

export async function updateSurvey(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, input: Schemas['PulseSurveyUpdate']): Promise<PulseSurvey> {
  const { db, caller } = ctx;
  const scope = await pulseScope(db, caller);
  const version = versionOf(ifMatch);
  await db.transaction(async (trx) => {
    const row = await surveyOr404(trx, scope, id);
    if (stateOf(row) !== 'draft') throw new HttpError(409, 'survey_not_draft', { message: `An ${row.state} survey no longer changes: its questions and audience stay as they were answered.` });
    const opensOn = input.opensOn ?? row.opens_on;
    const closesOn = input.closesOn ?? row.closes_on;
    checkDates(opensOn, closesOn);
    const changes: Partial<PulseSurveyRow> = { opens_on: opensOn, closes_on: closesOn, updated_at: new Date().toISOString() };
    if (input.title !== undefined) changes.title = input.title.trim();
    if (input.introduction !== undefined) changes.introduction = input.introduction?.trim() || null;
    if (input.target) {
      changes.target_kind = input.target.kind;
      changes.target_values = JSON.stringify(await checkTarget(trx, scope, caller, input.target));
    }
    await updateAtVersion(() => surveysOf(trx, scope).where({ id }), version, changes, 'this survey');
    if (input.questions) await replaceQuestionRows(trx, scope, id, questionRowsFor(scope, id, checkQuestions(input.questions)));
    await emit(trx, { name: 'pulseSurvey.updated', companyId: scope.companyId, actorUserId: caller.userId, subjectType: PULSE_SURVEY_SUBJECT, subjectId: id, payload: { title: changes.title ?? row.title } });
  });
  return presentOne(db, scope, caller, id);
}

/** Opens a draft: the audience is everyone the target covers now, who can answer (an active sign-in). */
export async function openSurvey(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string): Promise<PulseSurvey> {
  const { db, caller } = ctx;
  const scope = await pulseScope(db, caller);
  const version = versionOf(ifMatch);
  await db.transaction(async (trx) => {
    const row = await surveyOr404(trx, scope, id);
    const next = await transition(trx, scope, pulseSurveyWorkflow, { subject: { subjectType: PULSE_SURVEY_SUBJECT, subjectId: id, currentState: stateOf(row), version }, action: 'open', actor: caller });
    if (row.closes_on < today()) throw badRequest(`This survey's closing date (${row.closes_on}) has passed. Choose a later one before opening it.`, [{ field: 'body.closesOn', message: 'has passed' }]);
    const kind: TargetKind = isTargetKind(row.target_kind) ? row.target_kind : 'everyone';
    const audience = await audienceOf(trx, scope, kind, targetValues(row), await pulseSurveyPeople(trx, scope));
    if (!audience.length) throw badRequest('Nobody in this survey’s target can answer it: it needs active employees who can sign in to Paybench.');
    await updateAtVersion(() => surveysOf(trx, scope).where({ id }), version, { state: next.state, audience_size: audience.length, updated_at: next.at }, 'this survey');
    await insertAudienceRows(
      trx,
      audience.map((person) => ({
        company_id: scope.companyId,
        survey_id: id,
        user_id: person.userId,
        department: person.department ?? '',
        location_id: person.locationId ?? '',
        level_id: person.levelId ?? '',
        answered: false,
      })),
    );
    await queueJobIn(trx, surveyClosingJob, { companyId: scope.companyId, ownerUserId: caller.userId, input: { surveyId: id }, runAfter: closingTime(row.closes_on), message: `Closes the survey “${row.title}” after ${row.closes_on}.`, maxAttempts: 3 });
    await emit(trx, { name: 'pulseSurvey.opened', companyId: scope.companyId, actorUserId: caller.userId, subjectType: PULSE_SURVEY_SUBJECT, subjectId: id, payload: { title: row.title, audienceSize: audience.length } });
  });
  return presentOne(db, scope, caller, id);
}

export async function closeSurvey(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string): Promise<PulseSurvey> {
  const { db, caller } = ctx;
  const scope = await pulseScope(db, caller);
  const version = versionOf(ifMatch);
  await db.transaction(async (trx) => {
    const row = await surveyOr404(trx, scope, id);
    const next = await transition(trx, scope, pulseSurveyWorkflow, { subject: { subjectType: PULSE_SURVEY_SUBJECT, subjectId: id, currentState: stateOf(row), version }, action: 'close', actor: caller });
    await updateAtVersion(() => surveysOf(trx, scope).where({ id }), version, { state: next.state, updated_at: next.at }, 'this survey');
    await emit(trx, { name: 'pulseSurvey.closed', companyId: scope.companyId, actorUserId: caller.userId, subjectType: PULSE_SURVEY_SUBJECT, subjectId: id, payload: { title: row.title } });
  });
  return presentOne(db, scope, caller, id);
}

/** Records a reminder; the e-mails go out from the event's subscriber, to whoever has still not answered then. */
export async function remindSurvey(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<{ reminded: number; survey: PulseSurvey }> {
  const { db, caller } = ctx;
  const scope = await pulseScope(db, caller);
  const reminded = await db.transaction(async (trx) => {
    const row = await surveyOr404(trx, scope, id);
    if (stateOf(row) !== 'open') throw new HttpError(409, 'survey_not_open', { message: `Reminders go only to an open survey; this one is ${row.state}.` });
    const waiting = await unansweredUserIds(trx, scope, id);
    const now = new Date().toISOString();
    await surveysOf(trx, scope)
      .where({ id })
      .update({ reminders_sent: Number(row.reminders_sent) + waiting.length, last_reminded_at: now, updated_at: now });
    if (waiting.length) await emit(trx, { name: 'pulseSurvey.reminded', companyId: scope.companyId, actorUserId: caller.userId, subjectType: PULSE_SURVEY_SUBJECT, subjectId: id, payload: { title: row.title } });
    return waiting.length;
  });
  return { reminded, survey: await presentOne(db, scope, caller, id) };
}

export async function listGroups(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['PulseSurveyGroups']> {
  const { db, caller } = ctx;
  const scope = await pulseScope(db, caller);
  const people = await pulseSurveyPeople(db, scope);
  const countBy = (dimension: 'department' | 'location' | 'level', keyOf: (person: PulseSurveyPerson) => string | null) => {
    const counts = new Map<string, number>();
    for (const person of people) {
      const key = keyOf(person);
      if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts].map(([value, count]) => ({ value, label: groupLabel(dimension, value), people: count })).sort((a, b) => a.label.localeCompare(b.label));
  };
  const org = await pulseSurveyOrg(db, scope);
  const managers = await pulseSurveyManagers(db, scope, await employeeReach(db, scope, caller, 'team'));
  const answerable = new Set(people.map((person) => person.employeeId));
  return {
    everyone: people.length,
    department: countBy('department', (person) => person.department),
    location: countBy('location', (person) => person.locationId),
    level: countBy('level', (person) => person.levelId),
    managerSubtree: managers.map((manager) => ({ value: manager.employeeId, label: manager.name, people: [...subtreeOf(org, manager.employeeId)].filter((id) => answerable.has(id)).length })),
  };
}

// ── results ────────────────────────────────────────────────────────────────────────────────

const BREAKDOWNS: readonly { dimension: Exclude<PulseDimension, 'all'>; label: string }[] = [
  { dimension: 'department', label: 'Department' },
  { dimension: 'location', label: 'Location' },
  { dimension: 'level', label: 'Level' },
];

export async function surveyResults(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Schemas['PulseSurveyResults']> {
  const { db, caller } = ctx;
  const scope = await pulseScope(db, caller);
  const survey = await presentOne(db, scope, caller, id);
  const questionIds = survey.questions.map((question) => question.id);
  const tallies = await tallyRows(db, scope, [id]);
  const respondents = await respondentRows(db, scope, id);
  const audience = await audienceCounts(db, scope, id);
  const respondentsOf = (dimension: PulseDimension, key: string) => respondents.find((row) => row.dimension === dimension && row.group_key === key)?.respondents ?? 0;
  const total = respondentsOf('all', '');
  const overall = groupResult(
    { key: '', label: 'Everyone', audience: survey.audienceSize ?? 0, respondents: total },
    questionIds,
    tallyFor(tallies, 'all', ''),
    total < MIN_RESPONDENTS ? TOO_FEW : null,
  );
  const breakdowns = BREAKDOWNS.map(({ dimension, label }) => {
    const groups: GroupInput[] = audience
      .filter((row) => row.dimension === dimension)
      .map((row) => ({ key: row.key, label: groupLabel(dimension, row.key), audience: row.people, respondents: respondentsOf(dimension, row.key) }))
      .sort((a, b) => a.label.localeCompare(b.label));
    const hidden = hiddenGroups(groups);
    return { dimension, label, groups: groups.map((group) => groupResult(group, questionIds, tallyFor(tallies, dimension, group.key), hidden.get(group.key) ?? null)) };
  });
  const comments = total >= MIN_RESPONDENTS ? await commentTexts(db, scope, id) : null;
  return {
    survey,
    minimumRespondents: MIN_RESPONDENTS,
    overall,
    questions: await trends(db, scope, survey),
    breakdowns,
    comments,
    commentsMessage: comments === null ? `Comments show once the survey has ${MIN_RESPONDENTS} answers.` : null,
  };
}

/** Each question of the survey across every opened survey of the company that asked it, oldest first. */
async function trends(db: Knex, scope: CompanyScope, survey: PulseSurvey): Promise<Schemas['PulseQuestionResult'][]> {
  const keys = survey.questions.map((question) => questionKey(question.text));
  const asked = await questionsByKey(db, scope, keys);
  const surveyIds = [...new Set(asked.map((question) => question.survey_id))];
  const respondents = await overallRespondents(db, scope, surveyIds);
  const tallies = await tallyRows(db, scope, surveyIds, 'all');
  return survey.questions.map((question) => {
    const key = questionKey(question.text);
    const trend = asked
      .filter((row) => row.text_key === key)
      .map((row) => {
        const answered = respondents.get(row.survey_id) ?? 0;
        const shown = answered >= MIN_RESPONDENTS;
        const state: PulseSurveyState = pulseSurveyWorkflow.isState(row.state) ? row.state : 'closed';
        return {
          surveyId: row.survey_id,
          title: row.title,
          opensOn: row.opens_on,
          closesOn: row.closes_on,
          state,
          average: shown ? scoreSummary(row.id, tallies.filter((tally) => tally.survey_id === row.survey_id)).average : null,
          respondents: shown ? answered : null,
          message: shown ? null : TOO_FEW,
        };
      });
    return { questionId: question.id, text: question.text, trend };
  });
}

// ── employees ──────────────────────────────────────────────────────────────────────────────

const answerableNow = (row: PulseSurveyRow): boolean => row.state === 'open' && row.opens_on <= today() && today() <= row.closes_on;

export async function assignedSurveys(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['PulseQuestionnaire'][]> {
  const { db, caller } = ctx;
  const scope = await answeringScope(db, caller);
  if (!scope) return [];
  const rows = (await assignedSurveyRows(db, scope, caller.userId)).filter(answerableNow);
  const questions = await questionRows(db, scope, rows.map((row) => row.id));
  return rows.map((row) => presentQuestionnaire(row, questions.filter((question) => question.survey_id === row.id), Boolean(row.answered), true));
}

/** A survey as the person answers it: 404 unless it was sent to them. */
export async function questionnaire(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Schemas['PulseQuestionnaire']> {
  const { db, caller } = ctx;
  const scope = await answeringScope(db, caller);
  if (!scope) throw notFound();
  const row = await surveyOr404(db, scope, id);
  const member = await findAudienceRow(db, scope, id, caller.userId);
  if (!member) throw notFound();
  return presentQuestionnaire(row, await questionRows(db, scope, [id]), Boolean(member.answered), answerableNow(row));
}

function notOpenRefusal(row: PulseSurveyRow): HttpError {
  const message =
    row.state === 'closed' ? 'This survey is closed: it no longer takes answers.' : row.closes_on < today() ? `This survey closed on ${row.closes_on}.` : `This survey opens on ${row.opens_on}.`;
  return new HttpError(409, 'survey_not_open', { message });
}

/**
 * Records an answer as counts only (per question, group and score) and the comment as loose text;
 * the only thing kept about the person is their "has answered" mark. No event is recorded: an audit
 * entry would say who acted and when.
 */
export async function answerSurvey(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, input: Schemas['PulseAnswerInput']): Promise<Schemas['PulseQuestionnaire']> {
  const { db, caller } = ctx;
  const scope = await answeringScope(db, caller);
  if (!scope) throw notFound();
  const row = await surveyOr404(db, scope, id);
  const member = await findAudienceRow(db, scope, id, caller.userId);
  if (!member) throw notFound();
  if (!answerableNow(row)) throw notOpenRefusal(row);
  const questions = await questionRows(db, scope, [id]);
  const scores = new Map(input.scores.map((score) => [score.questionId, score.score]));
  const missing = questions.findIndex((question) => !scores.has(question.id));
  if (missing >= 0 || scores.size !== input.scores.length || scores.size !== questions.length) {
    throw badRequest('Answer every question with a score from 1 to 5.', [{ field: 'body.scores', message: 'must hold one score for each question of the survey' }]);
  }
  const comment = input.comment?.trim() ?? '';
  await db.transaction(async (trx) => {
    if ((await markAnswered(trx, scope, id, caller.userId)) !== 1) {
      throw new HttpError(409, 'already_answered', { message: 'You have already answered this survey. Answers are anonymous, so they cannot be changed.' });
    }
    const groups: { dimension: PulseDimension; key: string }[] = [
      { dimension: 'all', key: '' },
      { dimension: 'department', key: member.department },
      { dimension: 'location', key: member.location_id },
      { dimension: 'level', key: member.level_id },
    ];
    await addToTallies(trx, scope, id, groups, questions.map((question) => ({ questionId: question.id, score: scores.get(question.id) as number })));
    // A random id, not a time-ordered one: comments say nothing about when they were written.
    if (comment) await insertComment(trx, { id: randomUUID(), company_id: scope.companyId, survey_id: id, text: comment });
  });
  return presentQuestionnaire(row, questions, true, true);
}
