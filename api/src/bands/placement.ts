import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { cellKey } from './jobs.js';
import { type CompanyJobRow, type PayZoneRow, listBands, listGradeBands, listJobs, listZones } from './store.js';
import { type JobMatching, jobMatchingOf } from './settings.js';
import { zoneMatcher } from './zones.js';

/*
 * Which band of a set prices an employee, the one rule every reader of bands uses (evaluation, the
 * team view, a merit cycle's launch, the data lab): their company job as the company matches jobs
 * (family × level, title × level, title, or job code), their pay zone by place; the job's own band in
 * that zone, else (a job with a comp grade) the grade's band there.
 */

/** The figures a band needs to price someone, in minor units of its currency. */
interface BandFigures {
  id: string;
  pay_zone_id: string;
  currency: string;
  min_amount: number | string;
  mid_amount: number | string;
  max_amount: number | string;
}

export interface JobBandFigures extends BandFigures {
  company_job_id: string;
}

export interface GradeBandFigures extends BandFigures {
  grade_id: string;
  grade_key: string;
}

/** What placing someone needs of them: what their job is matched on, and their place. */
export interface Placeable {
  job_family_id: string | null;
  level_id: string | null;
  title: string | null;
  job_code: string | null;
  country_code: string | null;
  location_id: string | null;
}

/** Why someone has no band in the set (the evaluation counts each); noJobKey: no title, or no job code, to match on. */
export type Unplaced = 'noFamilyOrLevel' | 'noJobKey' | 'noCompanyJob' | 'noBand';

type MatchedJob = Pick<CompanyJobRow, 'id' | 'job_family_id' | 'level_id' | 'title' | 'job_code' | 'grade_id'>;

/** A title or code as people write it: case and runs of spaces do not tell jobs apart. */
const normal = (text: string | null): string => (text ?? '').trim().replace(/\s+/g, ' ').toLowerCase();

/** What a job is found by under each rule, for a job and for an employee ('' when the employee lacks it). */
const KEYS: Record<JobMatching, { job: (job: MatchedJob) => string; employee: (employee: Placeable) => string }> = {
  familyLevel: { job: (job) => cellKey(job.job_family_id, job.level_id), employee: (e) => (e.job_family_id && e.level_id ? cellKey(e.job_family_id, e.level_id) : '') },
  titleLevel: { job: (job) => `${normal(job.title)}|${job.level_id}`, employee: (e) => (normal(e.title) && e.level_id ? `${normal(e.title)}|${e.level_id}` : '') },
  title: { job: (job) => normal(job.title), employee: (e) => normal(e.title) },
  jobCode: { job: (job) => normal(job.job_code), employee: (e) => normal(e.job_code) },
};

/** Why an employee has nothing to match on under the rule. */
function missingKey(matching: JobMatching, employee: Placeable): 'noFamilyOrLevel' | 'noJobKey' {
  if (matching === 'familyLevel' || (matching === 'titleLevel' && normal(employee.title))) return 'noFamilyOrLevel';
  return 'noJobKey';
}

/**
 * The company job each employee maps to under the company's rule, or why none. A key two jobs share
 * (two jobs titled alike) maps no one: guessing between them would price people against the wrong band.
 */
export function jobMatcher<J extends MatchedJob>(jobs: readonly J[], matching: JobMatching): (employee: Placeable) => { job: J } | { job: null; unplaced: Exclude<Unplaced, 'noBand'> } {
  const keys = KEYS[matching];
  const byKey = new Map<string, J | null>();
  for (const job of jobs) {
    const key = keys.job(job);
    if (key) byKey.set(key, byKey.has(key) ? null : job);
  }
  return (employee) => {
    const key = keys.employee(employee);
    if (!key) return { job: null, unplaced: missingKey(matching, employee) };
    const job = byKey.get(key);
    return job ? { job } : { job: null, unplaced: 'noCompanyJob' };
  };
}

export type Placement<J extends JobBandFigures, G extends GradeBandFigures> =
  | { zoneId: string; band: J; source: 'job'; gradeKey: null }
  | { zoneId: string; band: G; source: 'grade'; gradeKey: string }
  | { zoneId: string; band: null; unplaced: Unplaced };

export interface BandSetBands<J extends JobBandFigures, G extends GradeBandFigures> {
  jobs: readonly MatchedJob[];
  matching: JobMatching;
  zones: readonly PayZoneRow[];
  bands: readonly J[];
  gradeBands: readonly G[];
}

/** The placing rule over a set's bands, read once. */
export function bandLocator<J extends JobBandFigures, G extends GradeBandFigures>(set: BandSetBands<J, G>): (employee: Placeable) => Placement<J, G> {
  const jobOf = jobMatcher(set.jobs, set.matching);
  const bandByJobZone = new Map(set.bands.map((band) => [`${band.company_job_id}|${band.pay_zone_id}`, band]));
  const gradeBandByZone = new Map(set.gradeBands.map((band) => [`${band.grade_id}|${band.pay_zone_id}`, band]));
  const zoneOf = zoneMatcher(set.zones);
  return (employee) => {
    const zoneId = zoneOf(employee);
    const matched = jobOf(employee);
    if (!matched.job) return { zoneId, band: null, unplaced: matched.unplaced };
    const job = matched.job;
    const own = bandByJobZone.get(`${job.id}|${zoneId}`);
    if (own) return { zoneId, band: own, source: 'job', gradeKey: null };
    const graded = job.grade_id ? gradeBandByZone.get(`${job.grade_id}|${zoneId}`) : undefined;
    if (graded) return { zoneId, band: graded, source: 'grade', gradeKey: graded.grade_key };
    return { zoneId, band: null, unplaced: 'noBand' };
  };
}

export interface BandLocator {
  locate: (employee: Placeable) => Placement<JobBandFigures, GradeBandFigures>;
  /** The rule it matches jobs by (what a missing key is named after). */
  matching: JobMatching;
  /** The company's pay zones, which `locate` answers `zoneId` from. */
  zones: readonly PayZoneRow[];
}

/**
 * Reads a set's job and grade bands with the company's jobs, zones and job matching, ready to place
 * people; null before the company has pay zones (then it has no bands). `matching` overrides the
 * company's rule (an offer names its family and level, whatever the rule).
 */
export async function loadBandLocator(db: Knex, scope: CompanyScope, setId: string, matching?: JobMatching): Promise<BandLocator | null> {
  const zones = await listZones(db, scope);
  if (!zones.length) return null;
  const [bands, gradeBands, jobs] = [await listBands(db, scope, setId), await listGradeBands(db, scope, setId), await listJobs(db, scope)];
  const rule = matching ?? (await jobMatchingOf(db, scope));
  return { locate: bandLocator({ jobs, matching: rule, zones, bands, gradeBands }), matching: rule, zones };
}

/** What to say of someone the rule found nothing to match on. */
export const missingKeyLabel = (matching: JobMatching): string => (matching === 'jobCode' ? 'No job code' : 'No job title');
