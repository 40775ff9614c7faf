import type { components } from '../contract-types.js';
import { type MappingProblem, mappingProblems, missingRequired, suggestMapping } from '../kernel/files/mapping.js';

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

/**
 * Suggests which column fills which field, the way every file import does (kernel/files/mapping.ts):
 * header words matched exactly against each field's known names first, then the closest fuzzy match;
 * each field and column used once.
 */
export function suggestSurveyMapping(columns: readonly string[]): SurveyMapping {
  return suggestMapping(columns, SURVEY_FIELDS);
}

/** Required fields the mapping leaves without a column; with no percentile at all, "p50" stands for them. */
export function missingSurveyFields(mapping: SurveyMapping): SurveyFieldName[] {
  const missing = missingRequired(mapping, SURVEY_FIELDS);
  if (!PERCENTILE_FIELDS.some((name) => mapping[name])) missing.push('p50');
  return missing;
}

/** Problems with a mapping against a file's columns: columns the file lacks or used twice, required fields left out. */
export function surveyMappingProblems(mapping: SurveyMapping, columns: readonly string[]): MappingProblem[] {
  const problems = mappingProblems({ mapping, fields: SURVEY_FIELDS, columns, prefix: 'body.mapping.' });
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
export function savedSurveyMappingProblems(mapping: SurveyMapping): MappingProblem[] {
  return surveyMappingProblems(mapping, Object.values(mapping).filter((column): column is string => column !== undefined));
}
