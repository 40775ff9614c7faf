import type { Knex } from 'knex';
import { hasPermission } from '../access/permissions.js';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { isoTimestampOrNull } from '../db/timestamps.js';
import { type HttpError, badRequest } from '../kernel/errors.js';
import { versionConflict, versionOf } from '../kernel/versions.js';
import { seesPay, teamAccess, type TeamAccess } from './access.js';
import { type TeamColumn, availableColumns, columnInfo, isPayColumn, withCompTypes } from './columns.js';
import { compTypesOf } from '../compTypes/reads.js';
import { COMPANY_OWNER, type SettingsRow, findSettingsRow, insertSettingsRow, updateSettingsRow } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type Settings = Schemas['TeamViewSettings'];
type State = Schemas['TeamViewSettingsState'];

/** What a company starts with until an admin changes it. */
export const DEFAULT_TEAM_VIEW_SETTINGS: Settings = {
  columns: ['name', 'title', 'department', 'level', 'baseSalary', 'compaRatio', 'bandPosition', 'location', 'manager'],
  compTimeline: { types: ['base_salary', 'bonus_target', 'variable_pay', 'commission'], showEquityGrants: true, order: 'newest_first' },
  equityDetails: { measure: 'value', breakdown: 'total', series: 'vested_and_unvested' },
};

const parsed = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

interface Sections {
  columns: TeamColumn[] | null;
  compTimeline: Settings['compTimeline'] | null;
  equityDetails: Settings['equityDetails'] | null;
}

function sectionsOf(row: SettingsRow | undefined): Sections {
  return {
    columns: parsed<TeamColumn[]>(row?.columns ?? null),
    compTimeline: parsed<Settings['compTimeline']>(row?.comp_timeline ?? null),
    equityDetails: parsed<Settings['equityDetails']>(row?.equity_details ?? null),
  };
}

/** The columns a person sees: theirs, else the company's; pay columns only with the pay permission. */
function visibleColumns(columns: TeamColumn[], payVisible: boolean): TeamColumn[] {
  const visible = columns.filter((column) => payVisible || !isPayColumn(column));
  return visible.length ? visible : ['name'];
}

async function stateOf(db: Knex, access: TeamAccess): Promise<State> {
  const companyRow = await findSettingsRow(db, access.scope, COMPANY_OWNER);
  const personalRow = await findSettingsRow(db, access.scope, access.caller.userId);
  const company = sectionsOf(companyRow);
  const personal = sectionsOf(personalRow);
  const companySettings: Settings = {
    columns: company.columns ?? DEFAULT_TEAM_VIEW_SETTINGS.columns,
    compTimeline: company.compTimeline ?? DEFAULT_TEAM_VIEW_SETTINGS.compTimeline,
    equityDetails: company.equityDetails ?? DEFAULT_TEAM_VIEW_SETTINGS.equityDetails,
  };
  const payVisible = seesPay(access);
  const types = await compTypesOf(db, access.scope);
  const shown = (columns: TeamColumn[]) => withCompTypes(columns.map(columnInfo), types).map((column) => column.key);
  return {
    company: { version: companyRow?.version ?? 0, settings: companySettings, updatedAt: isoTimestampOrNull(companyRow?.updated_at) },
    personal: { version: personalRow?.version ?? 0, ...personal, updatedAt: isoTimestampOrNull(personalRow?.updated_at) },
    effective: {
      columns: shown(visibleColumns(personal.columns ?? companySettings.columns, payVisible)),
      compTimeline: personal.compTimeline ?? companySettings.compTimeline,
      equityDetails: personal.equityDetails ?? companySettings.equityDetails,
    },
    availableColumns: withCompTypes(availableColumns(payVisible), types),
    canEditCompanyDefault: hasPermission(access.caller.permissions, 'team', 'edit', 'all'),
  };
}

/** The table's columns when the request names none. */
export async function effectiveColumns(db: Knex, access: TeamAccess): Promise<TeamColumn[]> {
  return (await stateOf(db, access)).effective.columns;
}

export async function teamViewSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<State> {
  const { db, caller } = ctx;
  return stateOf(db, await teamAccess(db, caller));
}

const conflict = (current?: number): HttpError => versionConflict('these settings', current);

interface Change {
  columns?: TeamColumn[] | null;
  compTimeline?: Settings['compTimeline'] | null;
  equityDetails?: Settings['equityDetails'] | null;
}

const serialise = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

function changedSections(change: Change): Partial<Pick<SettingsRow, 'columns' | 'comp_timeline' | 'equity_details'>> {
  const out: Partial<Pick<SettingsRow, 'columns' | 'comp_timeline' | 'equity_details'>> = {};
  if (change.columns !== undefined) out.columns = serialise(change.columns);
  if (change.compTimeline !== undefined) out.comp_timeline = serialise(change.compTimeline);
  if (change.equityDetails !== undefined) out.equity_details = serialise(change.equityDetails);
  return out;
}

/** Writes a settings row if the stored version is the one the caller read (0: none stored yet). */
async function save(db: Knex, access: TeamAccess, ownerKey: string, version: number, change: Change): Promise<void> {
  const now = new Date().toISOString();
  const sections = changedSections(change);
  await db.transaction(async (trx) => {
    const current = await findSettingsRow(trx, access.scope, ownerKey);
    if ((current?.version ?? 0) !== version) throw conflict(current?.version ?? 0);
    if (!current) {
      const row: SettingsRow = {
        id: newId(),
        company_id: access.scope.companyId,
        owner_key: ownerKey,
        user_id: ownerKey === COMPANY_OWNER ? null : access.caller.userId,
        columns: sections.columns ?? null,
        comp_timeline: sections.comp_timeline ?? null,
        equity_details: sections.equity_details ?? null,
        version: 1,
        updated_by: access.caller.userId,
        created_at: now,
        updated_at: now,
      };
      // Two first writes at once: the unique key lets only one in; the other has a stale version.
      await insertSettingsRow(trx, row).catch((error: unknown) => {
        throw /unique|duplicate/i.test(String(error)) ? conflict() : error;
      });
      return;
    }
    if (!(await updateSettingsRow(trx, access.scope, ownerKey, version, { ...sections, updated_by: access.caller.userId, updated_at: now }))) throw conflict();
  });
}

export async function updateCompanySettings(ctx: Pick<ServiceContext, 'db' | 'caller'>, ifMatch: string, change: Schemas['TeamViewSettingsInput']): Promise<State> {
  const { db, caller } = ctx;
  const access = await teamAccess(db, caller);
  await save(db, access, COMPANY_OWNER, versionOf(ifMatch), change);
  await emit(db, { companyId: access.scope.companyId, actorUserId: caller.userId, name: 'team_view.settings.updated', subjectType: 'team_view_settings', payload: change });
  return stateOf(db, access);
}

export async function updateMySettings(
  ctx: Pick<ServiceContext, 'db' | 'caller'>,
  ifMatch: string,
  change: Schemas['TeamViewPersonalSettingsInput'],
): Promise<State> {
  const { db, caller } = ctx;
  const access = await teamAccess(db, caller);
  if (change.columns && !seesPay(access)) {
    const pay = change.columns.filter(isPayColumn);
    if (pay.length) {
      throw badRequest(`${pay.join(', ')} ${pay.length === 1 ? 'is a pay column' : 'are pay columns'}; showing pay needs the employeeCompensation permission`, [
        { field: 'body.columns', message: `may not include ${pay.join(', ')}` },
      ]);
    }
  }
  await save(db, access, caller.userId, versionOf(ifMatch), change);
  return stateOf(db, access);
}
