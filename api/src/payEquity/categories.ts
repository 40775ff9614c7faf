import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { PayEquityEmployee } from './peopleReads.js';
import { findEvaluation } from './store.js';
import { defaultCategoryName, defaultCategoryOf } from './workers.js';

/*
 * Categories of workers (Directive Art. 4): by default each job — family × level × track — is a
 * category. With a point-factor evaluation the admin scores each job on the four criteria of
 * Art. 4(4) — skills, effort, responsibility, working conditions — each factor with a weight
 * (the weights add up to 100) and a number of levels; a job's points are
 *   Σ factor weight × (the job's level on it ÷ the factor's levels) × 10   (0–1,000, rounded),
 * and jobs with equal points do work of equal value: they form one category. A job not scored
 * stays a category of its own.
 */

export const FACTOR_KEYS = ['skills', 'effort', 'responsibility', 'working_conditions'] as const;
export type FactorKey = (typeof FACTOR_KEYS)[number];

export interface Factor {
  key: FactorKey;
  name: string;
  /** Percent; the four add up to 100. */
  weight: number;
  /** Levels a job can be scored on (1…levels). */
  levels: number;
  description: string;
}

export interface JobScore {
  /** The job: family|level|track. */
  jobId: string;
  scores: Record<FactorKey, number>;
  /** Why the job sits at these levels. */
  evidence: string;
}

export interface Evaluation {
  factors: Factor[];
  jobs: JobScore[];
  version: number;
  updatedAt: string | null;
}

export const DEFAULT_FACTORS: Factor[] = [
  { key: 'skills', name: 'Skills', weight: 35, levels: 5, description: 'Knowledge, qualifications and experience the job requires, and interpersonal and problem-solving skills.' },
  { key: 'effort', name: 'Effort', weight: 20, levels: 5, description: 'Mental, physical and emotional effort the job requires.' },
  { key: 'responsibility', name: 'Responsibility', weight: 35, levels: 5, description: 'Responsibility for people, money, results and the wellbeing of others.' },
  { key: 'working_conditions', name: 'Working conditions', weight: 10, levels: 5, description: 'The environment the work is done in: hours, travel, hazards, stress.' },
];

/** A job's points: Σ weight × level ÷ levels × 10, rounded. */
export function jobPoints(factors: readonly Factor[], scores: Record<string, number>): number {
  let points = 0;
  for (const factor of factors) points += (factor.weight * (scores[factor.key] ?? 0)) / factor.levels * 10;
  return Math.round(points);
}

export const pointsCategoryId = (points: number): string => `points:${points}`;

export function parseEvaluation(row: { factors: string; jobs: string; version: number; updated_at: string } | undefined): Evaluation {
  if (!row) return { factors: DEFAULT_FACTORS, jobs: [], version: 0, updatedAt: null };
  return { factors: JSON.parse(row.factors) as Factor[], jobs: JSON.parse(row.jobs) as JobScore[], version: Number(row.version), updatedAt: String(row.updated_at) };
}

export interface CategoryResolver {
  evaluation: Evaluation;
  categoryOf: (employee: PayEquityEmployee) => string | null;
  nameOf: (categoryId: string) => string | null;
  /** The jobs each points category holds. */
  jobsOf: (categoryId: string) => string[];
}

export function resolverOf(evaluation: Evaluation): CategoryResolver {
  const pointsOfJob = new Map(evaluation.jobs.map((job) => [job.jobId, jobPoints(evaluation.factors, job.scores)]));
  const jobsByCategory = new Map<string, string[]>();
  for (const [jobId, points] of pointsOfJob) {
    const key = pointsCategoryId(points);
    jobsByCategory.set(key, [...(jobsByCategory.get(key) ?? []), jobId]);
  }
  return {
    evaluation,
    categoryOf: (employee) => {
      const job = defaultCategoryOf(employee);
      if (job === null) return null;
      const points = pointsOfJob.get(job);
      return points === undefined ? job : pointsCategoryId(points);
    },
    nameOf: (categoryId) => {
      if (!categoryId.startsWith('points:')) return defaultCategoryName(categoryId);
      const jobs = (jobsByCategory.get(categoryId) ?? []).map(defaultCategoryName).sort();
      return `${categoryId.slice('points:'.length)} points: ${jobs.join('; ')}`;
    },
    jobsOf: (categoryId) => jobsByCategory.get(categoryId) ?? [categoryId],
  };
}

export async function categoryResolver(db: Knex, scope: CompanyScope): Promise<CategoryResolver> {
  return resolverOf(parseEvaluation(await findEvaluation(db, scope)));
}
