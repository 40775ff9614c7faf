import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { badRequest } from '../kernel/errors.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { payEquityEmployees } from './peopleReads.js';
import { emit } from '../platform/events.js';
import { type Evaluation, FACTOR_KEYS, jobPoints, parseEvaluation, pointsCategoryId } from './categories.js';
import { evaluationOf, findEvaluation, insertEvaluation } from './store.js';
import { defaultCategoryName, defaultCategoryOf } from './workers.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
export type PresentedEvaluation = Schemas['PayEquityEvaluation'];

const today = (): string => new Date().toISOString().slice(0, 10);

/** The evaluation with every job of the company's current workers (and every job scored), their points and category. */
export async function presentEvaluation(db: Knex, scope: CompanyScope, evaluation: Evaluation): Promise<PresentedEvaluation> {
  const now = today();
  const employees = await payEquityEmployees(db, scope, { from: now, to: now });
  const headcount = new Map<string, number>();
  for (const employee of employees) {
    const job = defaultCategoryOf(employee);
    if (job) headcount.set(job, (headcount.get(job) ?? 0) + 1);
  }
  const scored = new Map(evaluation.jobs.map((job) => [job.jobId, job]));
  const jobIds = [...new Set([...headcount.keys(), ...scored.keys()])];
  const jobs = jobIds
    .map((jobId) => {
      const score = scored.get(jobId);
      const points = score ? jobPoints(evaluation.factors, score.scores) : null;
      return { jobId, name: defaultCategoryName(jobId), employees: headcount.get(jobId) ?? 0, scores: score?.scores ?? null, evidence: score?.evidence ?? '', points, categoryId: points === null ? jobId : pointsCategoryId(points) };
    })
    .sort((a, b) => (b.points ?? -1) - (a.points ?? -1) || a.name.localeCompare(b.name));
  return { factors: evaluation.factors, jobs, version: evaluation.version, updatedAt: evaluation.updatedAt };
}

export async function getEvaluation(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<PresentedEvaluation> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return presentEvaluation(db, scope, parseEvaluation(await findEvaluation(db, scope)));
}

function problemsOf(input: Schemas['PayEquityEvaluationInput']): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const keys = input.factors.map((factor) => factor.key);
  if (new Set(keys).size !== FACTOR_KEYS.length) problems.push({ field: 'body.factors', message: 'must hold each of skills, effort, responsibility and working_conditions once' });
  const weights = input.factors.reduce((sum, factor) => sum + factor.weight, 0);
  if (weights !== 100) problems.push({ field: 'body.factors', message: `weights must add up to 100 (they add up to ${weights})` });
  const levelsOf = new Map(input.factors.map((factor) => [factor.key, factor.levels]));
  const seen = new Set<string>();
  input.jobs.forEach((job, index) => {
    if (seen.has(job.jobId)) problems.push({ field: `body.jobs.${index}.jobId`, message: 'is scored twice' });
    seen.add(job.jobId);
    for (const key of FACTOR_KEYS) {
      const levels = levelsOf.get(key) ?? 0;
      if (job.scores[key] > levels) problems.push({ field: `body.jobs.${index}.scores.${key}`, message: `must be at most ${levels}, the factor's levels` });
    }
  });
  return problems;
}

/** Saves the evaluation at the version read (0: the first), audited. */
export async function saveEvaluation(ctx: Pick<ServiceContext, 'db' | 'caller'>, ifMatch: string, input: Schemas['PayEquityEvaluationInput']): Promise<PresentedEvaluation> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const problems = problemsOf(input);
  if (problems.length > 0) throw badRequest('The job evaluation cannot be saved as it is.', problems);
  const factors = FACTOR_KEYS.map((key) => input.factors.find((factor) => factor.key === key)!);
  const jobs = input.jobs.map((job) => ({ jobId: job.jobId, scores: job.scores, evidence: job.evidence.trim() }));
  const now = new Date().toISOString();
  await db.transaction(async (trx) => {
    const stored = await findEvaluation(trx, scope);
    if (version === 0) {
      if (stored) throw versionConflict('the job evaluation', Number(stored.version));
      await insertEvaluation(trx, { id: newId(), company_id: scope.companyId, factors: JSON.stringify(factors), jobs: JSON.stringify(jobs), version: 1, updated_by: caller.userId, created_at: now, updated_at: now });
    } else {
      if (!stored) throw versionConflict('the job evaluation', 0);
      await updateAtVersion(() => evaluationOf(trx, scope), version, { factors: JSON.stringify(factors), jobs: JSON.stringify(jobs), updated_by: caller.userId, updated_at: now }, 'the job evaluation');
    }
    await emit(trx, {
      name: 'payEquity.evaluation.saved',
      companyId: scope.companyId,
      actorUserId: caller.userId,
      subjectType: 'payEquityEvaluation',
      payload: { version: version + 1, jobs: jobs.length, weights: Object.fromEntries(factors.map((factor) => [factor.key, factor.weight])) },
    });
  });
  return getEvaluation({ db, caller });
}
