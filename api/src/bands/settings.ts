import type { Knex } from 'knex';
import { type CompanyScope, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { findSettings, insertSettings, settingsOf } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type BandSettings = components['schemas']['BandSettings'];
export type JobMatching = components['schemas']['BandJobMatching'];

/** Pay moves about 3% a year: what composites age their sources at until the company says otherwise. */
export const DEFAULT_AGING_RATE_BP = 300;

export async function agingRateOf(db: Knex, scope: CompanyScope): Promise<number> {
  return Number((await findSettings(db, scope))?.aging_rate_bp ?? DEFAULT_AGING_RATE_BP);
}

const JOB_MATCHINGS: readonly JobMatching[] = ['familyLevel', 'titleLevel', 'title', 'jobCode'];

const matchingOf = (stored: string | undefined): JobMatching => JOB_MATCHINGS.find((matching) => matching === stored) ?? 'familyLevel';

/** How the company maps employees to company jobs; by family and level until it says otherwise. */
export async function jobMatchingOf(db: Knex, scope: CompanyScope): Promise<JobMatching> {
  return matchingOf((await findSettings(db, scope))?.job_matching);
}

export async function getBandSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<BandSettings> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const row = await findSettings(db, scope);
  const jobMatching = matchingOf(row?.job_matching);
  return row ? { agingRateBp: Number(row.aging_rate_bp), jobMatching, version: Number(row.version) } : { agingRateBp: DEFAULT_AGING_RATE_BP, jobMatching, version: 0 };
}

/** Saves at the version read: "0" creates the row (a second "0" finds it made and is 409). */
export async function updateBandSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>, ifMatch: string, input: components['schemas']['BandSettingsInput']): Promise<BandSettings> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const now = new Date().toISOString();
  await db.transaction(async (trx) => {
    if (version === 0) {
      const existing = await findSettings(trx, scope);
      if (existing) throw versionConflict('the band settings', Number(existing.version));
      try {
        const row = { aging_rate_bp: input.agingRateBp ?? DEFAULT_AGING_RATE_BP, job_matching: input.jobMatching ?? 'familyLevel' };
        await insertSettings(trx, { company_id: scope.companyId, ...row, version: 1, updated_by: caller.userId, created_at: now, updated_at: now });
      } catch (error) {
        if (/unique|duplicate/i.test(String(error))) throw versionConflict('the band settings', 1);
        throw error;
      }
      return;
    }
    if (!(await findSettings(trx, scope))) throw versionConflict('the band settings', 0);
    const changes = { ...(input.agingRateBp !== undefined ? { aging_rate_bp: input.agingRateBp } : {}), ...(input.jobMatching !== undefined ? { job_matching: input.jobMatching } : {}) };
    await updateAtVersion(() => settingsOf(trx, scope), version, { ...changes, updated_by: caller.userId, updated_at: now }, 'the band settings');
  });
  return getBandSettings({ db, caller });
}
