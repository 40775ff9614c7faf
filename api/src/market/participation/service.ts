import type { Knex } from 'knex';
import { type Caller, companyScope } from '../../access/caller.js';
import type { components } from '../../contract-types.js';
import { isoTimestampOrNull } from '../../db/timestamps.js';
import { HttpError, badRequest, type FieldError } from '../../kernel/errors.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS, SUB_INDUSTRIES } from '../../reference/catalog/index.js';
import { currencyForexMapping } from '../../forex/perDollar.js';
import { EXCLUSION_REASONS, companyCoverage } from './collect.js';
import { countPlaceableEmployees } from '../../people/reads/contributions.js';
import { findParticipation, saveParticipation, type ParticipationState } from './store.js';
import { heldBackOf } from './quarantine.js';
import { requestReview, verificationOf } from './verification.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];

export const PARTICIPATION_MESSAGES = {
  companyStage: 'Please select the company stage',
  ownershipGroup: 'Please select the company ownership group',
  industry: 'Please select the industry',
} as const;

/** Candidates never load benchmarking settings, and taking part in the market is one. */
function refuseCandidates(caller: Caller): void {
  if (caller.isCandidate) throw new HttpError(403, 'candidate', { message: 'Candidates have no benchmarking settings.' });
}

type Coverage = Awaited<ReturnType<typeof companyCoverage>>;

function present(state: ParticipationState, placeable: number, coverage: Coverage, review: { heldBack: Schemas['MarketParticipation']['heldBack']; verification: Schemas['ParticipantVerification'] }): Schemas['MarketParticipation'] {
  const submittedAt = isoTimestampOrNull(state.submittedAt);
  return {
    participates: state.participates,
    status: !state.participates ? 'not_participating' : submittedAt ? 'submitted' : 'awaiting_data',
    lastSubmittedAt: submittedAt,
    profile: state.profile
      ? {
          companyStage: state.profile.company_stage,
          ownershipGroup: state.profile.ownership_group,
          industry: state.profile.industry,
          equityProgramme: state.profile.equity_programme === 'yes' || state.profile.equity_programme === 'no' ? state.profile.equity_programme : null,
        }
      : null,
    placeableEmployees: placeable,
    contributedEmployees: coverage.contributed,
    excludedEmployees: [...coverage.excluded]
      .sort(([a, m], [b, n]) => n - m || a.localeCompare(b))
      .map(([reason, employees]) => ({ reason, description: EXCLUSION_REASONS[reason], employees })),
    heldBack: review.heldBack,
    verification: review.verification,
  };
}

export async function participation(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['MarketParticipation']> {
  const { db, caller } = ctx;
  refuseCandidates(caller);
  const scope = companyScope(caller);
  const review = { heldBack: await heldBackOf(db, scope.companyId), verification: await verificationOf(db, scope) };
  return present(await findParticipation(db, scope), await countPlaceableEmployees(db, scope), await coverageOf(db, scope.companyId), review);
}

/** How the company's employees would go into a release built now, with today's rates. */
async function coverageOf(db: Knex, companyId: string): Promise<Coverage> {
  return companyCoverage(db, companyId, await currencyForexMapping(db));
}

const stages = new Map(COMPANY_STAGES.map((s) => [s.id, s]));
const ownershipGroups = new Map(OWNERSHIP_GROUPS.map((o) => [o.id, o]));
const subIndustries = new Set(SUB_INDUSTRIES.map((s) => s.upstreamId));

/**
 * Opting in (or out) of contributing the company's employees to future releases. Taking part needs
 * the profile market filters select companies by; a release already built keeps what it took.
 */
export async function updateParticipation(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: Schemas['MarketParticipationInput']): Promise<Schemas['MarketParticipation']> {
  const { db, caller } = ctx;
  refuseCandidates(caller);
  const scope = companyScope(caller);
  const current = await findParticipation(db, scope);
  const profile = { companyStage: input.companyStage ?? current.profile?.company_stage, ownershipGroup: input.ownershipGroup ?? current.profile?.ownership_group, industry: input.industry ?? current.profile?.industry };
  const problems: FieldError[] = [];
  if (input.companyStage !== undefined && !stages.has(input.companyStage)) problems.push({ field: 'body.companyStage', message: `Unknown company stage '${input.companyStage}'` });
  if (input.ownershipGroup !== undefined && !ownershipGroups.has(input.ownershipGroup)) problems.push({ field: 'body.ownershipGroup', message: `Unknown company ownership group '${input.ownershipGroup}'` });
  if (input.industry !== undefined && !subIndustries.has(input.industry)) problems.push({ field: 'body.industry', message: `Unknown industry '${input.industry}'; choose a sub-industry` });
  if (input.participates) {
    if (!profile.companyStage) problems.push({ field: 'body.companyStage', message: PARTICIPATION_MESSAGES.companyStage });
    if (!profile.ownershipGroup) problems.push({ field: 'body.ownershipGroup', message: PARTICIPATION_MESSAGES.ownershipGroup });
    if (!profile.industry) problems.push({ field: 'body.industry', message: PARTICIPATION_MESSAGES.industry });
  }
  const group = profile.ownershipGroup ? ownershipGroups.get(profile.ownershipGroup) : undefined;
  if (group && profile.companyStage && stages.has(profile.companyStage) && !group.companyStageIds.includes(profile.companyStage)) {
    problems.push({ field: 'body.ownershipGroup', message: `${group.displayString} companies are not at the ${stages.get(profile.companyStage)?.displayString} stage` });
  }
  if (problems.length) throw badRequest(problems[0]?.message ?? 'The participation is not valid', problems);
  const complete = profile.companyStage && profile.ownershipGroup && profile.industry;
  await saveParticipation(
    db,
    scope,
    input.participates,
    complete
      ? {
          company_stage: profile.companyStage!,
          ownership_group: profile.ownershipGroup!,
          industry: profile.industry!,
          // Left as it was unless the request says (null unsays it).
          equity_programme: input.equityProgramme !== undefined ? input.equityProgramme : (current.profile?.equity_programme ?? null),
          updated_by: caller.userId,
          updated_at: new Date().toISOString(),
        }
      : null,
  );
  // Opting in asks Paybench to verify the company; its records wait for that (verification.ts).
  if (input.participates) await requestReview(db, caller, scope, (await coverageOf(db, scope.companyId)).contributed);
  return participation({ db, caller });
}
