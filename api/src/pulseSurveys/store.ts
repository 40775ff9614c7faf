import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

export interface PulseSurveyRow {
  id: string;
  company_id: string;
  title: string;
  introduction: string | null;
  state: string;
  target_kind: string;
  target_values: string;
  opens_on: string;
  closes_on: string;
  audience_size: number | null;
  reminders_sent: number;
  last_reminded_at: string | Date | null;
  created_by: string | null;
  version: number;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface PulseQuestionRow {
  id: string;
  company_id: string;
  survey_id: string;
  position: number;
  text: string;
  text_key: string;
}

export interface PulseAudienceRow {
  company_id: string;
  survey_id: string;
  user_id: string;
  department: string;
  location_id: string;
  level_id: string;
  answered: boolean | number;
}

/** A results breakdown; `all` holds one group, '' (everyone who answered). */
export type PulseDimension = 'all' | 'department' | 'location' | 'level';

export interface PulseTallyRow {
  question_id: string;
  dimension: PulseDimension;
  group_key: string;
  score: number;
  answers: number;
}

export interface PulseRespondentsRow {
  survey_id: string;
  dimension: PulseDimension;
  group_key: string;
  respondents: number;
}

export const surveysOf = (db: Knex, scope: CompanyScope) => db<PulseSurveyRow>('pulse_surveys').where('pulse_surveys.company_id', scope.companyId);

export async function listSurveyRows(db: Knex, scope: CompanyScope): Promise<PulseSurveyRow[]> {
  return surveysOf(db, scope).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
}

export async function findSurveyRow(db: Knex, scope: CompanyScope, id: string): Promise<PulseSurveyRow | undefined> {
  return surveysOf(db, scope).where({ id }).first();
}

export async function insertSurveyRow(db: Knex, row: PulseSurveyRow): Promise<void> {
  await db('pulse_surveys').insert(row);
}

export async function questionRows(db: Knex, scope: CompanyScope, surveyIds: readonly string[]): Promise<PulseQuestionRow[]> {
  if (!surveyIds.length) return [];
  return db<PulseQuestionRow>('pulse_survey_questions').where({ company_id: scope.companyId }).whereIn('survey_id', [...surveyIds]).orderBy([{ column: 'survey_id' }, { column: 'position' }]);
}

export async function replaceQuestionRows(db: Knex, scope: CompanyScope, surveyId: string, rows: PulseQuestionRow[]): Promise<void> {
  await db('pulse_survey_questions').where({ company_id: scope.companyId, survey_id: surveyId }).delete();
  if (rows.length) await db('pulse_survey_questions').insert(rows);
}

/** Respondents of the whole survey (the `all` group), by survey. */
export async function overallRespondents(db: Knex, scope: CompanyScope, surveyIds: readonly string[]): Promise<Map<string, number>> {
  if (!surveyIds.length) return new Map();
  const rows = (await db('pulse_survey_respondents')
    .where({ company_id: scope.companyId, dimension: 'all' })
    .whereIn('survey_id', [...surveyIds])
    .select('survey_id', 'respondents')) as { survey_id: string; respondents: number | string }[];
  return new Map(rows.map((row) => [row.survey_id, Number(row.respondents)]));
}

export async function insertAudienceRows(db: Knex, rows: PulseAudienceRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += 200) await db('pulse_survey_audience').insert(rows.slice(at, at + 200));
}

export async function findAudienceRow(db: Knex, scope: CompanyScope, surveyId: string, userId: string): Promise<PulseAudienceRow | undefined> {
  return db<PulseAudienceRow>('pulse_survey_audience').where({ company_id: scope.companyId, survey_id: surveyId, user_id: userId }).first();
}

/** Sets the person's "has answered" mark; 0 when it was already set (a second answer). */
export async function markAnswered(db: Knex, scope: CompanyScope, surveyId: string, userId: string): Promise<number> {
  return db('pulse_survey_audience').where({ company_id: scope.companyId, survey_id: surveyId, user_id: userId, answered: false }).update({ answered: true });
}

/** Open surveys whose audience holds the person, by closing date, with their mark. */
export async function assignedSurveyRows(db: Knex, scope: CompanyScope, userId: string): Promise<(PulseSurveyRow & { answered: boolean | number })[]> {
  return db('pulse_surveys as s')
    .join('pulse_survey_audience as a', 'a.survey_id', 's.id')
    .where({ 's.company_id': scope.companyId, 'a.company_id': scope.companyId, 'a.user_id': userId, 's.state': 'open' })
    .select('s.*', 'a.answered')
    .orderBy([{ column: 's.closes_on' }, { column: 's.id' }]);
}

export async function unansweredUserIds(db: Knex, scope: CompanyScope, surveyId: string): Promise<string[]> {
  const rows = (await db('pulse_survey_audience').where({ company_id: scope.companyId, survey_id: surveyId, answered: false }).select('user_id').orderBy('user_id')) as { user_id: string }[];
  return rows.map((row) => row.user_id);
}

/** How many people of each group the survey was sent to. */
export async function audienceCounts(db: Knex, scope: CompanyScope, surveyId: string): Promise<{ dimension: Exclude<PulseDimension, 'all'>; key: string; people: number }[]> {
  const counts: { dimension: Exclude<PulseDimension, 'all'>; key: string; people: number }[] = [];
  for (const [dimension, column] of [['department', 'department'], ['location', 'location_id'], ['level', 'level_id']] as const) {
    const rows = (await db('pulse_survey_audience').where({ company_id: scope.companyId, survey_id: surveyId }).groupBy(column).select(column).count({ people: '*' })) as Record<string, string | number>[];
    for (const row of rows) counts.push({ dimension, key: String(row[column] ?? ''), people: Number(row.people) });
  }
  return counts;
}

/** Adds one answer to the counts: the score of each question in each of the respondent's groups. */
export async function addToTallies(db: Knex, scope: CompanyScope, surveyId: string, groups: readonly { dimension: PulseDimension; key: string }[], scores: readonly { questionId: string; score: number }[]): Promise<void> {
  const tallies = groups.flatMap((group) =>
    scores.map((score) => ({ company_id: scope.companyId, survey_id: surveyId, question_id: score.questionId, dimension: group.dimension, group_key: group.key, score: score.score, answers: 1 })),
  );
  await db('pulse_survey_tallies')
    .insert(tallies)
    .onConflict(['survey_id', 'question_id', 'dimension', 'group_key', 'score'])
    .merge({ answers: db.raw('pulse_survey_tallies.answers + 1') });
  await db('pulse_survey_respondents')
    .insert(groups.map((group) => ({ company_id: scope.companyId, survey_id: surveyId, dimension: group.dimension, group_key: group.key, respondents: 1 })))
    .onConflict(['survey_id', 'dimension', 'group_key'])
    .merge({ respondents: db.raw('pulse_survey_respondents.respondents + 1') });
}

export async function insertComment(db: Knex, row: { id: string; company_id: string; survey_id: string; text: string }): Promise<void> {
  await db('pulse_survey_comments').insert(row);
}

export async function tallyRows(db: Knex, scope: CompanyScope, surveyIds: readonly string[], dimension?: PulseDimension): Promise<(PulseTallyRow & { survey_id: string })[]> {
  if (!surveyIds.length) return [];
  const query = db('pulse_survey_tallies').where({ company_id: scope.companyId }).whereIn('survey_id', [...surveyIds]);
  if (dimension) query.andWhere({ dimension });
  const rows = (await query.select('survey_id', 'question_id', 'dimension', 'group_key', 'score', 'answers')) as (PulseTallyRow & { survey_id: string; answers: number | string })[];
  return rows.map((row) => ({ ...row, score: Number(row.score), answers: Number(row.answers) }));
}

export async function respondentRows(db: Knex, scope: CompanyScope, surveyId: string): Promise<PulseRespondentsRow[]> {
  const rows = (await db('pulse_survey_respondents').where({ company_id: scope.companyId, survey_id: surveyId }).select('survey_id', 'dimension', 'group_key', 'respondents')) as (PulseRespondentsRow & { respondents: number | string })[];
  return rows.map((row) => ({ ...row, respondents: Number(row.respondents) }));
}

/** Comments sorted by their text, so nothing about when they were written shows in their order. */
export async function commentTexts(db: Knex, scope: CompanyScope, surveyId: string): Promise<string[]> {
  const rows = (await db('pulse_survey_comments').where({ company_id: scope.companyId, survey_id: surveyId }).select('text').orderBy([{ column: 'text' }, { column: 'id' }])) as { text: string }[];
  return rows.map((row) => row.text);
}

/** Questions of the company's opened surveys with one of these folded texts, with their survey. */
export async function questionsByKey(db: Knex, scope: CompanyScope, keys: readonly string[]): Promise<(PulseQuestionRow & { title: string; opens_on: string; closes_on: string; state: string })[]> {
  if (!keys.length) return [];
  return db('pulse_survey_questions as q')
    .join('pulse_surveys as s', 's.id', 'q.survey_id')
    .where({ 'q.company_id': scope.companyId, 's.company_id': scope.companyId })
    .whereIn('q.text_key', [...keys])
    .whereNot('s.state', 'draft')
    .select('q.*', 's.title', 's.opens_on', 's.closes_on', 's.state')
    .orderBy([{ column: 's.opens_on' }, { column: 's.closes_on' }, { column: 's.id' }]);
}
