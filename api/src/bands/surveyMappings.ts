import type { Knex } from 'knex';
import { type CompanyScope, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { isoTimestamp } from '../db/timestamps.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { updateAtVersion, versionOf } from '../kernel/versions.js';
import { type SurveyMapping, savedSurveyMappingProblems } from './surveyFields.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type SavedSurveyMapping = Schemas['SavedSurveyMapping'];

/* The column mapping a person confirmed for a provider's survey files, so the next file from that
   provider starts from it. One per company and provider, whatever its case or spacing. */

export interface SurveyMappingRow {
  id: string;
  company_id: string;
  provider: string;
  provider_key: string;
  mapping: string;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

/** "  Radford  Global " and "radford global" are one provider. */
export const providerKey = (provider: string): string => provider.trim().replace(/\s+/g, ' ').toLowerCase();

const mappingsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('band_survey_mappings').where('band_survey_mappings.company_id', scope.companyId);

async function listRows(db: Knex, scope: CompanyScope): Promise<SurveyMappingRow[]> {
  return mappingsOf(db, scope).select('*').orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
}

const findRow = (db: Knex, scope: CompanyScope, id: string): Promise<SurveyMappingRow | undefined> => mappingsOf(db, scope).where({ id }).first();
const findByProvider = (db: Knex, scope: CompanyScope, provider: string): Promise<SurveyMappingRow | undefined> => mappingsOf(db, scope).where({ provider_key: providerKey(provider) }).first();

function present(row: SurveyMappingRow): SavedSurveyMapping {
  return { id: row.id, provider: row.provider, mapping: JSON.parse(row.mapping) as SurveyMapping, version: Number(row.version), updatedAt: isoTimestamp(row.updated_at) };
}

function checkMapping(mapping: SurveyMapping): void {
  const problems = savedSurveyMappingProblems(mapping);
  if (problems.length) throw badRequest(`The column mapping is not complete: ${problems.map((p) => `${p.field.replace(/^body\.mapping\./, '')} ${p.message}`).join('; ')}.`, problems);
}

function checkProvider(provider: string): string {
  const trimmed = provider.trim().replace(/\s+/g, ' ');
  if (!trimmed) throw badRequest('Name the provider whose files this mapping reads.', [{ field: 'body.provider', message: 'must not be blank' }]);
  return trimmed;
}

const taken = (provider: string): HttpError =>
  new HttpError(409, 'survey_mapping_exists', { message: `A mapping is already saved for ${provider}; change that one instead.` });

export async function listSavedSurveyMappings(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<SavedSurveyMapping[]> {
  const { db, caller } = ctx;
  return (await listRows(db, companyScope(caller))).map(present);
}

export async function createSavedSurveyMapping(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: Schemas['SavedSurveyMappingInput']): Promise<SavedSurveyMapping> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const provider = checkProvider(input.provider);
  checkMapping(input.mapping);
  if (await findByProvider(db, scope, provider)) throw taken(provider);
  const now = new Date().toISOString();
  const row: SurveyMappingRow = {
    id: newId(),
    company_id: scope.companyId,
    provider,
    provider_key: providerKey(provider),
    mapping: JSON.stringify(input.mapping),
    version: 1,
    updated_by: caller.userId,
    created_at: now,
    updated_at: now,
  };
  try {
    await db('band_survey_mappings').insert(row);
  } catch (error) {
    // Two saves at once: the unique index lets one in.
    if (/unique|duplicate/i.test(String(error))) throw taken(provider);
    throw error;
  }
  return present(row);
}

export async function updateSavedSurveyMapping(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, patch: Schemas['SavedSurveyMappingPatch']): Promise<SavedSurveyMapping> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const changes: Partial<SurveyMappingRow> = { updated_by: caller.userId, updated_at: new Date().toISOString() };
  if (patch.mapping !== undefined) {
    checkMapping(patch.mapping);
    changes.mapping = JSON.stringify(patch.mapping);
  }
  if (patch.provider !== undefined) {
    const provider = checkProvider(patch.provider);
    const other = await findByProvider(db, scope, provider);
    if (other && other.id !== id) throw taken(provider);
    changes.provider = provider;
    changes.provider_key = providerKey(provider);
  }
  try {
    await updateAtVersion(() => mappingsOf(db, scope).where({ id }), version, changes, 'this saved mapping');
  } catch (error) {
    if (changes.provider && /unique|duplicate/i.test(String(error))) throw taken(changes.provider);
    throw error;
  }
  const row = await findRow(db, scope, id);
  if (!row) throw notFound();
  return present(row);
}

export async function deleteSavedSurveyMapping(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<SavedSurveyMapping> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const row = await findRow(db, scope, id);
  if (!row) throw notFound();
  await mappingsOf(db, scope).where({ id }).delete();
  return present(row);
}

/**
 * The mapping saved for this provider when every column it names is in the file, so a file of the
 * same source is read as the last one was; undefined otherwise (the caller falls back to the suggestion).
 */
export async function savedMappingFitting(db: Knex, scope: CompanyScope, provider: string, columns: readonly string[]): Promise<SurveyMapping | undefined> {
  const row = await findByProvider(db, scope, provider);
  if (!row) return undefined;
  const mapping = JSON.parse(row.mapping) as SurveyMapping;
  return Object.values(mapping).every((column) => column !== undefined && columns.includes(column)) ? mapping : undefined;
}
