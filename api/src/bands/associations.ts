import type { Knex } from 'knex';
import { type CompanyScope, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { updateAtVersion, versionOf } from '../kernel/versions.js';
import { ALL_INDUSTRIES_ID, COMPANY_STAGES, LEVELS, findJobFamily, findLocation, subIndustriesOf } from '../reference/catalog/index.js';
import {
  type AssociationRow,
  associationsOf,
  deleteAssociation,
  findAssociation,
  findJob,
  findSurveyJob,
  findSurveysByIds,
  insertAssociation,
  listAssociations,
  surveyJobsByCodes,
} from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type MarketAssociation = Schemas['MarketAssociation'];
export type MarketCell = Schemas['MarketCell'];

const PLAIN_LEVELS = new Set(LEVELS.map((level) => level.id));
const STAGE_IDS = COMPANY_STAGES.map((stage) => stage.id);
const STAGE_SET = new Set(STAGE_IDS);

export function parseMarketCell(text: string | null): MarketCell | null {
  return text ? (JSON.parse(text) as MarketCell) : null;
}

/** A market cell as stored: defaults filled in, stages in the catalog's order (so equal cells compare equal). */
function checkMarketCell(input: Schemas['MarketCellInput']): MarketCell {
  const problems: { field: string; message: string }[] = [];
  if (!findJobFamily(input.jobFamilyId)) problems.push({ field: 'body.market.jobFamilyId', message: `${input.jobFamilyId} is not a catalog job family` });
  if (!PLAIN_LEVELS.has(input.levelId)) problems.push({ field: 'body.market.levelId', message: `${input.levelId} is not a catalog level` });
  if (!findLocation(input.locationId)) problems.push({ field: 'body.market.locationId', message: `${input.locationId} is not a catalog location` });
  const industryId = input.industryId ?? ALL_INDUSTRIES_ID;
  if (!subIndustriesOf(industryId).length) problems.push({ field: 'body.market.industryId', message: `${industryId} is not a catalog industry` });
  const stages = input.companyStageIds ?? STAGE_IDS;
  for (const stage of stages) if (!STAGE_SET.has(stage)) problems.push({ field: 'body.market.companyStageIds', message: `${stage} is not a company stage` });
  if (problems.length) throw badRequest(`The market cell is not one the market has: ${problems.map((problem) => problem.message).join('; ')}.`, problems);
  return { jobFamilyId: input.jobFamilyId, levelId: input.levelId, locationId: input.locationId, industryId, companyStageIds: STAGE_IDS.filter((stage) => stages.includes(stage)) };
}

interface Target {
  kind: 'survey' | 'market';
  survey_id: string | null;
  survey_job_code: string | null;
  market_cell: string | null;
}

async function checkTarget(db: Knex, scope: CompanyScope, input: { survey?: Schemas['SurveyJobRef']; market?: Schemas['MarketCellInput'] }): Promise<Target> {
  if (input.survey && input.market) {
    throw badRequest('An association is either a survey job or a market cell, not both.', [{ field: 'body.market', message: 'cannot be given with body.survey' }]);
  }
  if (input.survey) {
    const { surveyId, surveyJobCode } = input.survey;
    const [survey] = await findSurveysByIds(db, scope, [surveyId]);
    if (!survey) throw badRequest('There is no survey with this id in your company.', [{ field: 'body.survey.surveyId', message: 'is not a survey of the company' }]);
    const job = await findSurveyJob(db, scope, surveyId, surveyJobCode.trim());
    if (!job) throw badRequest(`“${survey.name}” has no job with the code ${surveyJobCode}.`, [{ field: 'body.survey.surveyJobCode', message: `is not a job code of ${survey.name}` }]);
    return { kind: 'survey', survey_id: surveyId, survey_job_code: job.code, market_cell: null };
  }
  if (input.market) return { kind: 'market', survey_id: null, survey_job_code: null, market_cell: JSON.stringify(checkMarketCell(input.market)) };
  throw badRequest('Name the survey job or the market cell the company job is associated with.', [{ field: 'body.survey', message: 'or body.market is required' }]);
}

const sameTarget = (row: AssociationRow, target: Target): boolean =>
  row.kind === target.kind && row.survey_id === target.survey_id && row.survey_job_code === target.survey_job_code && row.market_cell === target.market_cell;

async function refuseDuplicate(db: Knex, scope: CompanyScope, companyJobId: string, target: Target, except?: string): Promise<void> {
  const existing = (await listAssociations(db, scope, [companyJobId])).find((row) => row.id !== except && sameTarget(row, target));
  if (existing) throw new HttpError(409, 'association_exists', { message: 'This company job is already associated with that source; change its weight instead.' });
}

async function requireJob(db: Knex, scope: CompanyScope, companyJobId: string): Promise<void> {
  if (!(await findJob(db, scope, companyJobId))) throw notFound();
}

/** Associations with their survey's name and the survey job's title, read once for the lot. */
export async function presentAssociations(db: Knex, scope: CompanyScope, rows: readonly AssociationRow[]): Promise<MarketAssociation[]> {
  const surveyIds = [...new Set(rows.flatMap((row) => (row.survey_id ? [row.survey_id] : [])))];
  const surveys = new Map((await findSurveysByIds(db, scope, surveyIds)).map((survey) => [survey.id, survey]));
  const jobs = await surveyJobsByCodes(db, scope, surveyIds, rows.flatMap((row) => (row.survey_job_code ? [row.survey_job_code] : [])));
  const titles = new Map(jobs.map((job) => [`${job.survey_id}|${job.code}`, job.title]));
  return rows.map((row) => ({
    id: row.id,
    companyJobId: row.company_job_id,
    kind: row.kind as MarketAssociation['kind'],
    survey:
      row.kind === 'survey' && row.survey_id && row.survey_job_code
        ? {
            surveyId: row.survey_id,
            surveyName: surveys.get(row.survey_id)?.name ?? '',
            surveyJobCode: row.survey_job_code,
            surveyJobTitle: titles.get(`${row.survey_id}|${row.survey_job_code}`) ?? '',
          }
        : null,
    market: row.kind === 'market' ? parseMarketCell(row.market_cell) : null,
    weight: Number(row.weight),
    version: Number(row.version),
  }));
}

export async function listMarketAssociations(ctx: Pick<ServiceContext, 'db' | 'caller'>, companyJobId: string): Promise<MarketAssociation[]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  await requireJob(db, scope, companyJobId);
  return presentAssociations(db, scope, await listAssociations(db, scope, [companyJobId]));
}

async function presentOne(db: Knex, scope: CompanyScope, companyJobId: string, id: string): Promise<MarketAssociation> {
  const row = await findAssociation(db, scope, companyJobId, id);
  if (!row) throw notFound();
  const [presented] = await presentAssociations(db, scope, [row]);
  if (!presented) throw notFound();
  return presented;
}

export async function createMarketAssociation(ctx: Pick<ServiceContext, 'db' | 'caller'>, companyJobId: string, input: Schemas['MarketAssociationInput']): Promise<MarketAssociation> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const id = newId();
  await db.transaction(async (trx) => {
    await requireJob(trx, scope, companyJobId);
    const target = await checkTarget(trx, scope, input);
    await refuseDuplicate(trx, scope, companyJobId, target);
    const now = new Date().toISOString();
    await insertAssociation(trx, { id, company_id: scope.companyId, company_job_id: companyJobId, ...target, weight: input.weight ?? 1, version: 1, updated_by: caller.userId, created_at: now, updated_at: now });
  });
  return presentOne(db, scope, companyJobId, id);
}

export async function updateMarketAssociation(
  ctx: Pick<ServiceContext, 'db' | 'caller'>,
  { companyJobId, id, ifMatch, patch }: { companyJobId: string; id: string; ifMatch: string; patch: Schemas['MarketAssociationPatch'] },
): Promise<MarketAssociation> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  await db.transaction(async (trx) => {
    const row = await findAssociation(trx, scope, companyJobId, id);
    if (!row) throw notFound();
    const changes: Partial<AssociationRow> = { updated_by: caller.userId, updated_at: new Date().toISOString() };
    if (patch.survey || patch.market) {
      const target = await checkTarget(trx, scope, patch);
      await refuseDuplicate(trx, scope, companyJobId, target, id);
      Object.assign(changes, target);
    }
    if (patch.weight !== undefined) changes.weight = patch.weight;
    await updateAtVersion(() => associationsOf(trx, scope).where({ id, company_job_id: companyJobId }), version, changes, 'this association');
  });
  return presentOne(db, scope, companyJobId, id);
}

export async function deleteMarketAssociation(ctx: Pick<ServiceContext, 'db' | 'caller'>, companyJobId: string, id: string): Promise<MarketAssociation> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const presented = await presentOne(db, scope, companyJobId, id);
  await deleteAssociation(db, scope, id);
  return presented;
}
