import type { Knex } from 'knex';
import type { CompanyScope } from '../../access/caller.js';
import type { ContributedParticipant, ContributedRecord, Contribution } from './contribution.js';
import { onlyVerified } from './verification.js';

export interface ProfileRow {
  company_id: string;
  company_stage: string;
  ownership_group: string;
  industry: string;
  /** 'yes' | 'no' as the company said; null when it has not. */
  equity_programme: string | null;
  updated_by: string | null;
  updated_at: string | Date;
}

export interface ParticipationState {
  participates: boolean;
  submittedAt: string | Date | null;
  profile: ProfileRow | undefined;
}

// ── the company's own opt-in (tenant-scoped) ──────────────────────────────────────────────

export async function findParticipation(db: Knex, scope: CompanyScope): Promise<ParticipationState> {
  const company = (await db('companies').where({ id: scope.companyId }).first('market_participant', 'market_data_submitted_at')) as
    | { market_participant: boolean | number; market_data_submitted_at: string | Date | null }
    | undefined;
  const profile = (await db('company_market_profiles').where({ company_id: scope.companyId }).first()) as ProfileRow | undefined;
  return { participates: Boolean(company?.market_participant), submittedAt: company?.market_data_submitted_at ?? null, profile };
}

export async function saveParticipation(db: Knex, scope: CompanyScope, participates: boolean, profile: Omit<ProfileRow, 'company_id'> | null): Promise<void> {
  await db('companies').where({ id: scope.companyId }).update({ market_participant: participates });
  if (profile) await db('company_market_profiles').insert({ ...profile, company_id: scope.companyId }).onConflict('company_id').merge();
}

// ── what a build reads across companies (the job's own connection, never a request's) ───────

export interface ParticipantCompanyRow {
  id: string;
  currency: string;
  valuation_minor: number | string | null;
  company_stage: string;
  ownership_group: string;
  industry: string;
  equity_programme: string | null;
}

/** Opted-in companies that are verified participants (verification.ts): no other company's records enter a release. */
export async function participatingCompanies(db: Knex): Promise<ParticipantCompanyRow[]> {
  return onlyVerified(db('companies'), db)
    .join('company_market_profiles', 'company_market_profiles.company_id', 'companies.id')
    .where('companies.market_participant', true)
    .select('companies.id', 'companies.currency', 'companies.valuation_minor', 'company_market_profiles.company_stage', 'company_market_profiles.ownership_group', 'company_market_profiles.industry', 'company_market_profiles.equity_programme')
    .orderBy('companies.id');
}

export async function markSubmitted(db: Knex, companyIds: string[], at: string): Promise<void> {
  if (companyIds.length) await db('companies').whereIn('id', companyIds).update({ market_data_submitted_at: at });
}

// ── the anonymised snapshot a release keeps ─────────────────────────────────────────────

export async function saveContribution(db: Knex, releaseId: string, contribution: Contribution): Promise<void> {
  if (contribution.participants.length === 0) return;
  await db.batchInsert(
    'market_release_contributors',
    contribution.participants.map((p) => ({
      release_id: releaseId,
      participant: p.participant,
      company_stage: p.companyStage,
      ownership_group: p.ownershipGroup,
      industry: p.industry,
      headquarters: p.headquarters,
      valuation_usd: p.valuationUsd,
      grants_equity: p.grantsEquity,
      equity_programme_known: p.equityProgrammeKnown,
      grant_type: p.grantType,
      vesting_schedule: p.vestingSchedule,
      vesting_cliff: p.vestingCliff,
      vesting_frequency: p.vestingFrequency,
      grant_timings: p.grantTimings.join(','),
    })),
    200,
  );
  await db.batchInsert(
    'market_release_contributions',
    contribution.records.map((r) => ({
      release_id: releaseId,
      participant: r.participant,
      job_family_id: r.jobFamilyId,
      level_id: r.levelId,
      location_id: r.locationId,
      employment_type: r.employmentType,
      currency: r.currency ?? null,
      person: r.person ?? null,
      base: r.base,
      variable: r.variable,
      annual_bonus: r.annualBonus,
      total_cash: r.totalCash,
      new_hire_equity: r.newHireEquity,
    })),
    500,
  );
}

export async function loadContribution(db: Knex, releaseId: string): Promise<Contribution> {
  const participants = (await db('market_release_contributors').where({ release_id: releaseId }).orderBy('participant')) as Record<string, unknown>[];
  const records = (await db('market_release_contributions').where({ release_id: releaseId }).orderBy('id')) as Record<string, unknown>[];
  const nullable = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
  return {
    participants: participants.map(
      (p): ContributedParticipant => ({
        participant: Number(p.participant),
        companyStage: String(p.company_stage),
        ownershipGroup: String(p.ownership_group),
        industry: String(p.industry),
        headquarters: String(p.headquarters),
        valuationUsd: Number(p.valuation_usd),
        grantsEquity: Boolean(p.grants_equity),
        equityProgrammeKnown: p.equity_programme_known === undefined || p.equity_programme_known === null ? true : Boolean(p.equity_programme_known),
        grantType: (p.grant_type as string | null) ?? null,
        vestingSchedule: (p.vesting_schedule as string | null) ?? null,
        vestingCliff: (p.vesting_cliff as string | null) ?? null,
        vestingFrequency: (p.vesting_frequency as string | null) ?? null,
        grantTimings: String(p.grant_timings ?? '').split(',').filter(Boolean),
      }),
    ),
    records: records.map(
      (r): ContributedRecord => ({
        participant: Number(r.participant),
        jobFamilyId: String(r.job_family_id),
        levelId: String(r.level_id),
        locationId: String(r.location_id),
        employmentType: r.employment_type === 'contractor' ? 'contractor' : 'employee',
        ...(typeof r.currency === 'string' && r.currency ? { currency: r.currency } : {}),
        ...(r.person === null || r.person === undefined ? {} : { person: Number(r.person) }),
        base: Number(r.base),
        variable: nullable(r.variable),
        annualBonus: nullable(r.annual_bonus),
        totalCash: Number(r.total_cash),
        newHireEquity: nullable(r.new_hire_equity),
      }),
    ),
  };
}
