import Fuse from 'fuse.js';
import type { components } from '../contract-types.js';
import { headerWords } from '../hris/mapping.js';

type Schemas = components['schemas'];
export type SurveyFieldName = Schemas['SurveyFieldName'];
/** Survey field → the file's column header. */
export type SurveyMapping = Schemas['SurveyColumnMapping'];

export interface SurveyFieldDefinition {
  field: SurveyFieldName;
  label: string;
  description: string;
  required: boolean;
  /** Header names survey vendors and spreadsheets use for it; matched exactly first, then fuzzily. */
  aliases: string[];
}

const field = (name: SurveyFieldName, label: string, description: string, aliases: string[], required = false): SurveyFieldDefinition => ({ field: name, label, description, required, aliases });

const percentile = (name: 'p10' | 'p25' | 'p50' | 'p75' | 'p90', nth: string, extra: string[] = []): SurveyFieldDefinition =>
  field(name, `${nth} percentile`, `Annual base pay at the ${nth} percentile, in the survey's currency (120000 or 120,000.00).`, [
    name,
    `${nth} percentile`,
    `${nth} pctl`,
    `percentile ${nth.replace(/\D/g, '')}`,
    `base ${name}`,
    `base salary ${name}`,
    `base ${nth} percentile`,
    `${name} base`,
    ...extra,
  ]);

/** A survey file: one row per survey job, keyed by the survey's own job code. */
export const SURVEY_FIELDS: readonly SurveyFieldDefinition[] = [
  field('jobCode', 'Survey job code', 'The survey’s code of the job; associations name it.', ['job code', 'survey job code', 'survey code', 'code', 'benchmark code', 'position code', 'job id', 'survey job id'], true),
  field('title', 'Survey job title', 'The survey’s title of the job.', ['job title', 'title', 'survey job title', 'benchmark title', 'position title', 'job name', 'position'], true),
  field('family', 'Job family', 'The survey’s job family or function, as it writes it.', ['job family', 'family', 'job function', 'function', 'job category', 'discipline']),
  field('level', 'Level', 'The survey’s level or grade, as it writes it.', ['level', 'job level', 'career level', 'grade', 'survey level']),
  field('location', 'Location', 'The geography the figures are for, as the survey writes it.', ['location', 'geography', 'region', 'market', 'area', 'country', 'metro']),
  percentile('p10', '10th'),
  percentile('p25', '25th', ['first quartile', 'q1', 'lower quartile']),
  percentile('p50', '50th', ['median', 'base median', 'median base salary', 'base salary median', 'market median']),
  percentile('p75', '75th', ['third quartile', 'q3', 'upper quartile']),
  percentile('p90', '90th'),
  field('incumbentCount', 'Incumbents', 'How many employees the figures are made of (a whole number).', ['incumbents', 'incumbent count', 'number of incumbents', 'no of incumbents', 'employees', 'employee count', 'n incumbents', 'sample size']),
  field('companyCount', 'Companies', 'How many companies reported the job (a whole number).', ['companies', 'company count', 'number of companies', 'no of companies', 'organizations', 'organisations', 'orgs', 'participants']),
];

/** At least one of these holds a figure on every row. */
export const PERCENTILE_FIELDS = ['p10', 'p25', 'p50', 'p75', 'p90'] as const;

const compact = (text: string): string => headerWords(text).replace(/ /g, '');

// The people-data import's threshold (hris/mapping.ts): looser than this and unrelated headers match.
const FUZZY_THRESHOLD = 0.34;

const namesOf = (definition: SurveyFieldDefinition): string[] => [definition.field, definition.label, ...definition.aliases];

interface Candidate {
  column: string;
  field: SurveyFieldName;
  score: number;
  order: number;
}

/**
 * Suggests which column fills which field, the way the people-data import does (hris/mapping.ts,
 * whose suggestion is bound to its own field catalogue): header words matched exactly against each
 * field's known names first, then the closest fuzzy match (fuse.js); each field and column used once.
 */
export function suggestSurveyMapping(columns: readonly string[]): SurveyMapping {
  const exact = new Map<string, SurveyFieldName>();
  for (const definition of SURVEY_FIELDS) for (const name of namesOf(definition)) if (!exact.has(compact(name))) exact.set(compact(name), definition.field);
  const fuse = new Fuse(
    SURVEY_FIELDS.flatMap((definition) => namesOf(definition).map((name) => ({ field: definition.field, words: headerWords(name) }))),
    { keys: ['words'], includeScore: true, threshold: FUZZY_THRESHOLD, ignoreLocation: true, distance: 100 },
  );
  const candidates: Candidate[] = [];
  columns.forEach((column, order) => {
    const known = exact.get(compact(column));
    if (known) {
      candidates.push({ column, field: known, score: 0, order });
      return;
    }
    const words = headerWords(column);
    if (words.length < 2) return;
    for (const hit of fuse.search(words, { limit: 3 })) candidates.push({ column, field: hit.item.field, score: hit.score ?? 1, order });
  });
  candidates.sort((a, b) => a.score - b.score || a.order - b.order);
  const chosen = new Map<SurveyFieldName, string>();
  const usedColumns = new Set<string>();
  for (const candidate of candidates) {
    if (chosen.has(candidate.field) || usedColumns.has(candidate.column)) continue;
    chosen.set(candidate.field, candidate.column);
    usedColumns.add(candidate.column);
  }
  const mapping: SurveyMapping = {};
  for (const definition of SURVEY_FIELDS) {
    const column = chosen.get(definition.field);
    if (column !== undefined) mapping[definition.field] = column;
  }
  return mapping;
}

/** Required fields the mapping leaves without a column; with no percentile at all, "p50" stands for them. */
export function missingSurveyFields(mapping: SurveyMapping): SurveyFieldName[] {
  const missing = SURVEY_FIELDS.filter((definition) => definition.required && !mapping[definition.field]).map((definition) => definition.field);
  if (!PERCENTILE_FIELDS.some((name) => mapping[name])) missing.push('p50');
  return missing;
}

/** Problems with a mapping against a file's columns: columns the file lacks or used twice, required fields left out. */
export function surveyMappingProblems(mapping: SurveyMapping, columns: readonly string[]): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const usedBy = new Map<string, string>();
  for (const [name, column] of Object.entries(mapping) as [SurveyFieldName, string][]) {
    if (!columns.includes(column)) problems.push({ field: `body.mapping.${name}`, message: `the file has no column "${column}"` });
    else if (usedBy.has(column)) problems.push({ field: `body.mapping.${name}`, message: `column "${column}" is already mapped to ${usedBy.get(column)}` });
    usedBy.set(column, name);
  }
  for (const definition of SURVEY_FIELDS) if (definition.required && !mapping[definition.field]) problems.push({ field: `body.mapping.${definition.field}`, message: 'is required: name the column that holds it' });
  if (!PERCENTILE_FIELDS.some((name) => mapping[name])) problems.push({ field: 'body.mapping.p50', message: 'map at least one percentile column (p10, p25, p50, p75 or p90)' });
  return problems;
}

export function presentSurveyField(definition: SurveyFieldDefinition): Schemas['SurveyField'] {
  return { field: definition.field, label: definition.label, description: definition.description, required: definition.required };
}

export function surveyFields(): Schemas['SurveyField'][] {
  return [...SURVEY_FIELDS].sort((a, b) => Number(b.required) - Number(a.required)).map(presentSurveyField);
}

/** Problems with a mapping saved without a file: a column used twice, required fields left out. */
export function savedSurveyMappingProblems(mapping: SurveyMapping): { field: string; message: string }[] {
  return surveyMappingProblems(mapping, Object.values(mapping).filter((column): column is string => column !== undefined));
}
