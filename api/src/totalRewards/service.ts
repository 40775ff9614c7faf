import type { Knex } from 'knex';
import { companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { components } from '../contract-types.js';
import { HttpError } from '../kernel/errors.js';
import { today } from '../money/converter.js';
import { ownSubject, previewCandidates, subjectById, type StatementSubject } from './access.js';
import { documentLogo } from './branding.js';
import { type PdfCurrency, statementPdf } from './pdf.js';
import { type SettingsDraft, checkDraft, storedSettings, withDraft } from './settings.js';
import { buildStatement } from './statement.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type Statement = Schemas['TotalRewardsStatement'];

async function statementOf(db: Knex, subject: StatementSubject, asOf: string | undefined, draft?: SettingsDraft): Promise<Statement> {
  const settings = withDraft(await storedSettings(db, subject.scope), draft);
  return buildStatement(db, { ...subject, settings, asOf: asOf ?? today() });
}

export async function myStatement(ctx: Pick<ServiceContext, 'db' | 'caller'>, asOf: string | undefined): Promise<Statement> {
  const { db, caller } = ctx;
  return statementOf(db, await ownSubject(db, caller), asOf);
}

export async function employeeStatement(ctx: Pick<ServiceContext, 'db' | 'caller'>, employeeId: string, asOf: string | undefined): Promise<Statement> {
  const { db, caller } = ctx;
  return statementOf(db, await subjectById(db, caller, employeeId), asOf);
}

export async function myStatementPdf(ctx: Pick<ServiceContext, 'db' | 'caller'>, asOf: string | undefined, currency: PdfCurrency) {
  const { db, caller } = ctx;
  return statementPdf(await myStatement({ db, caller }, asOf), currency, await documentLogo(db, companyScope(caller)));
}

export async function employeeStatementPdf(ctx: Pick<ServiceContext, 'db' | 'caller'>, employeeId: string, asOf: string | undefined, currency: PdfCurrency) {
  const { db, caller } = ctx;
  return statementPdf(await employeeStatement({ db, caller }, employeeId, asOf), currency, await documentLogo(db, companyScope(caller)));
}

/** The settings' live preview: the draft over the stored settings for this answer only, checked as a save is. */
export async function previewStatement(ctx: Pick<ServiceContext, 'db' | 'caller'>, employeeId: string, body: { settings?: SettingsDraft; asOf?: string }): Promise<Statement> {
  const { db, caller } = ctx;
  if (!hasPermission(caller.permissions, 'totalRewards', 'edit', 'all')) {
    throw new HttpError(403, 'forbidden', { message: 'Previewing communicate settings needs the totalRewards permission for the whole company (edit).' });
  }
  const subject = await subjectById(db, caller, employeeId);
  if (body.settings) await checkDraft(db, await storedSettings(db, subject.scope), body.settings, 'body.settings');
  return statementOf(db, subject, body.asOf, body.settings);
}

export async function previewEmployeeList(ctx: Pick<ServiceContext, 'db' | 'caller'>, search: string | undefined, limit: number): Promise<Schemas['TotalRewardsPreviewEmployee'][]> {
  const { db, caller } = ctx;
  return (await previewCandidates(db, caller, search, limit)).map((row) => ({
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    title: row.title,
    department: row.department,
    countryCode: row.country_code,
  }));
}
