import type { Knex } from 'knex';
import { type CompanyScope, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { updateAtVersion, versionOf } from '../kernel/versions.js';
import { LEVELS, findJobFamily, findLevel } from '../reference/catalog/index.js';
import { activeCountsByFamilyLevel, activeEmployeesForBands, activeIdsWithinReach } from './peopleReads.js';
import { employeeReach } from '../people/visibility.js';
import { type Unplaced, jobMatcher } from './placement.js';
import { type CompanyJob, presentJob } from './present.js';
import { jobMatchingOf } from './settings.js';
import { type CompanyJobRow, bandsUsingJob, deleteJob, findGrade, findJob, findJobByCell, insertJobs, jobsOf, listGrades, listJobs } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];

/** Plain levels only (not blends): a company job is one level of one track. */
const PLAIN_LEVELS = new Set(LEVELS.map((level) => level.id));

export const cellKey = (jobFamilyId: string, levelId: string): string => `${jobFamilyId}|${levelId}`;

/** Grade id → key, for presenting jobs. */
async function gradeKeys(db: Knex, scope: CompanyScope): Promise<Map<string, string>> {
  return new Map((await listGrades(db, scope)).map((grade) => [grade.id, grade.key]));
}

/** A grade of the company's, or 400 naming the field. */
async function requireGradeId(db: Knex, scope: CompanyScope, gradeId: string | null | undefined): Promise<string | null> {
  if (!gradeId) return null;
  if (!(await findGrade(db, scope, gradeId))) throw badRequest('That comp grade is not one of the company’s.', [{ field: 'body.gradeId', message: 'is not a grade of the company' }]);
  return gradeId;
}

/** Active employees per company job, as the company's job matching maps them. */
async function countsByJob(db: Knex, scope: CompanyScope): Promise<Map<string, number>> {
  const [jobs, employees, matching] = [await listJobs(db, scope), await activeEmployeesForBands(db, scope), await jobMatchingOf(db, scope)];
  const jobOf = jobMatcher(jobs, matching);
  const counts = new Map<string, number>();
  for (const employee of employees) {
    const { job } = jobOf(employee);
    if (job) counts.set(job.id, (counts.get(job.id) ?? 0) + 1);
  }
  return counts;
}

export async function listCompanyJobs(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<CompanyJob[]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const [jobs, counts, grades] = await Promise.all([listJobs(db, scope), countsByJob(db, scope), gradeKeys(db, scope)]);
  return jobs.map((job) => presentJob(job, counts.get(job.id) ?? 0, grades));
}

function defaultTitle(jobFamilyId: string, levelId: string): string {
  const family = findJobFamily(jobFamilyId);
  const level = findLevel(levelId);
  return `${family?.name ?? jobFamilyId} ${level?.displayString ?? levelId.toUpperCase()}`;
}

function newJobRow(scope: CompanyScope, userId: string, jobFamilyId: string, levelId: string, title?: string, jobCode?: string | null): CompanyJobRow {
  const now = new Date().toISOString();
  return {
    id: newId(),
    company_id: scope.companyId,
    job_family_id: jobFamilyId,
    level_id: levelId,
    track: findLevel(levelId)?.track ?? '',
    title: title?.trim() || defaultTitle(jobFamilyId, levelId),
    job_code: jobCode?.trim() || null,
    grade_id: null,
    version: 1,
    updated_by: userId,
    created_at: now,
    updated_at: now,
  };
}

export async function createCompanyJob(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: Schemas['CompanyJobInput']): Promise<CompanyJob> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  if (!findJobFamily(input.jobFamilyId)) throw badRequest(`${input.jobFamilyId} is not a job family of the market catalog.`, [{ field: 'body.jobFamilyId', message: 'is not a catalog job family' }]);
  const level = PLAIN_LEVELS.has(input.levelId) ? findLevel(input.levelId) : undefined;
  if (!level) throw badRequest(`${input.levelId} is not a level of the market catalog.`, [{ field: 'body.levelId', message: 'is not a catalog level' }]);
  if (input.trackId !== undefined && input.trackId !== level.track) {
    throw badRequest(`${level.displayString} is on the ${level.track} track, not ${input.trackId}.`, [{ field: 'body.trackId', message: `must be ${level.track} for level ${level.id}` }]);
  }
  const existing = await findJobByCell(db, scope, input.jobFamilyId, input.levelId);
  if (existing) throw new HttpError(409, 'company_job_exists', { message: `There is already a company job for this family and level: “${existing.title}”.` });
  const row = { ...newJobRow(scope, caller.userId, input.jobFamilyId, input.levelId, input.title, input.jobCode), grade_id: await requireGradeId(db, scope, input.gradeId) };
  await insertJobs(db, [row]);
  return presentJob(row, (await countsByJob(db, scope)).get(row.id) ?? 0, await gradeKeys(db, scope));
}

export async function updateCompanyJob(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, patch: Schemas['CompanyJobPatch']): Promise<CompanyJob> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const changes: Partial<CompanyJobRow> = { updated_by: caller.userId, updated_at: new Date().toISOString() };
  if (patch.title !== undefined) {
    if (!patch.title.trim()) throw badRequest('A company job needs a title.', [{ field: 'body.title', message: 'must not be blank' }]);
    changes.title = patch.title.trim();
  }
  if (patch.jobCode !== undefined) changes.job_code = patch.jobCode?.trim() || null;
  if (patch.gradeId !== undefined) changes.grade_id = await requireGradeId(db, scope, patch.gradeId);
  await updateAtVersion(() => jobsOf(db, scope).where({ id }), version, changes, 'this company job');
  const row = await findJob(db, scope, id);
  if (!row) throw notFound();
  return presentJob(row, (await countsByJob(db, scope)).get(row.id) ?? 0, await gradeKeys(db, scope));
}

export async function deleteCompanyJob(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<CompanyJob> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return db.transaction(async (trx) => {
    const row = await findJob(trx, scope, id);
    if (!row) throw notFound();
    const used = await bandsUsingJob(trx, scope, id);
    if (used) throw new HttpError(409, 'company_job_in_use', { message: `${used} band${used === 1 ? '' : 's'} price this job; delete those band sets first.` });
    await deleteJob(trx, scope, id);
    return presentJob(row, 0);
  });
}

/** One job per distinct family × level of the active employees (both in the catalog) that has none yet. */
export async function createJobsFromEmployees(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['CreatedCompanyJobs']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return db.transaction(async (trx) => {
    const counts = await activeCountsByFamilyLevel(trx, scope);
    const existing = new Set((await listJobs(trx, scope)).map((job) => cellKey(job.job_family_id, job.level_id)));
    const rows: CompanyJobRow[] = [];
    let already = 0;
    for (const { jobFamilyId, levelId } of counts) {
      if (!findJobFamily(jobFamilyId) || !PLAIN_LEVELS.has(levelId)) continue;
      if (existing.has(cellKey(jobFamilyId, levelId))) {
        already += 1;
        continue;
      }
      rows.push(newJobRow(scope, caller.userId, jobFamilyId, levelId));
    }
    await insertJobs(trx, rows);
    const countOf = new Map(counts.map((row) => [cellKey(row.jobFamilyId, row.levelId), row.count]));
    return { created: rows.map((row) => presentJob(row, countOf.get(cellKey(row.job_family_id, row.level_id)) ?? 0)), existing: already };
  });
}

const UNMAPPED_REASONS: Record<Exclude<Unplaced, 'noBand' | 'noJobKey'>, Schemas['UnmappedEmployee']['reason']> = { noFamilyOrLevel: 'no_family_or_level', noCompanyJob: 'no_company_job' };

/** Active employees within the caller's team reach that no company job takes under the company's job matching, and why. */
export async function unmappedEmployees(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['UnmappedEmployee'][]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const reach = await employeeReach(db, scope, caller, 'team');
  const [employees, visible, jobs, matching] = await Promise.all([activeEmployeesForBands(db, scope), activeIdsWithinReach(db, scope, reach), listJobs(db, scope), jobMatchingOf(db, scope)]);
  const jobOf = jobMatcher(jobs, matching);
  const out: Schemas['UnmappedEmployee'][] = [];
  for (const employee of employees) {
    if (visible && !visible.has(employee.id)) continue;
    const matched = jobOf(employee);
    if (matched.job) continue;
    const family = employee.job_family_id;
    const level = employee.level_id;
    // By family and level, one outside the catalog is as good as none: no company job can take it.
    const uncatalogued = matching === 'familyLevel' && !(family && level && findJobFamily(family) && PLAIN_LEVELS.has(level));
    out.push({
      employeeId: employee.id,
      name: [employee.first_name, employee.last_name].filter(Boolean).join(' '),
      title: employee.title,
      jobFamilyId: family,
      levelId: level,
      reason: uncatalogued ? 'no_family_or_level' : matched.unplaced === 'noJobKey' ? (matching === 'jobCode' ? 'no_job_code' : 'no_title') : UNMAPPED_REASONS[matched.unplaced],
    });
  }
  return out;
}
