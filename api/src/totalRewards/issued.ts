import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { components } from '../contract-types.js';
import { type TemplateInput, documentVersionsWithVariablesOf, findDocumentVersion, issueComposedDocuments, versionPdf } from '../documents/service.js';
import { HttpError, notFound } from '../http/errors.js';
import { RawResponse } from '../http/operations.js';
import { jobKind } from '../jobs/kind.js';
import type { JobQueue } from '../jobs/queue.js';
import { startJob } from '../jobs/service.js';
import { today } from '../money/converter.js';
import { previewEmployees, statementEmployee, statementEmployeeOfUser } from '../people/reads/totalRewards.js';
import { previewReach, subjectById } from './access.js';
import { documentLogo } from './branding.js';
import { statementContent } from './pdf.js';
import { storedSettings } from './settings.js';
import { buildStatement } from './statement.js';

/*
 * Issued statements: a statement as of a day, stored as an immutable document version (its PDF's
 * content and the statement's data as issued), so what an employee was told stays what it said after
 * their pay or the settings change. The live statement stays a view of the day.
 */

type Schemas = components['schemas'];

/** Documents' subject type of an issued statement; its subject id is the employee's id. */
export const ISSUED_STATEMENT_SUBJECT = 'totalRewardsStatement';
const TEMPLATE: TemplateInput = {
  key: 'totalRewards.statement',
  title: 'Total rewards statement',
  body: 'A total-rewards statement as issued: its content is composed from the statement, not from this template.',
};
/** Statements composed and written per transaction while issuing to many. */
const BATCH = 50;
/** Everyone in reach of one company, at most: the people module's largest company is far below. */
const MAX_RECIPIENTS = 100_000;

export interface IssueStatementsInput {
  title: string;
  asOf: string;
  employeeIds: string[];
}

const needsEdit = (caller: Caller): void => {
  if (!hasPermission(caller.permissions, 'totalRewards', 'edit', 'all')) {
    throw new HttpError(403, 'forbidden', { message: 'Issuing statements needs the totalRewards permission for the whole company (edit).' });
  }
};

/** Composes and stores the statements of these employees (one transaction per batch); returns how many were issued. */
async function issueBatch(db: Knex, scope: CompanyScope, createdBy: string, input: IssueStatementsInput, employeeIds: string[]): Promise<number> {
  return db.transaction(async (trx) => {
    const settings = await storedSettings(trx, scope);
    const logo = await documentLogo(trx, scope);
    const documents = [];
    for (const employeeId of employeeIds) {
      const employee = await statementEmployee(trx, scope, employeeId);
      if (!employee) continue; // removed since the request: nothing to issue
      const statement = await buildStatement(trx, { scope, employee, viewer: 'self', settings, asOf: input.asOf });
      const content = { ...statementContent(statement, 'local'), title: input.title };
      if (logo) content.branding = { ...content.branding, logoSha256: logo.sha256 };
      documents.push({ subjectType: ISSUED_STATEMENT_SUBJECT, subjectId: employee.id, content, variables: { asOf: input.asOf, statement: JSON.stringify(statement) } });
    }
    await issueComposedDocuments(trx, scope, { template: TEMPLATE, createdBy, documents });
    return documents.length;
  });
}

export const issueStatementsJob = jobKind<IssueStatementsInput>({ type: 'totalRewardsIssue', title: 'Total rewards statements' }, () => async (ctx) => {
  const scope: CompanyScope = { companyId: ctx.job.companyId };
  const { employeeIds } = ctx.job.input;
  let issued = 0;
  for (let at = 0; at < employeeIds.length; at += BATCH) {
    issued += await issueBatch(ctx.db, scope, ctx.job.ownerUserId, ctx.job.input, employeeIds.slice(at, at + BATCH));
    await ctx.progress(Math.floor(((at + BATCH) * 100) / Math.max(1, employeeIds.length)), `${issued} of ${employeeIds.length} statements issued.`);
  }
  return { issued };
});

/** Whom the statements go to (one employee within reach — else 404 — or every active one in reach), then the job that issues them. */
export async function issueStatements(db: Knex, jobs: JobQueue, caller: Caller, body: { title: string; employeeId?: string; asOf?: string }, socketId: string | undefined) {
  needsEdit(caller);
  const scope = companyScope(caller);
  const employeeIds = body.employeeId
    ? [(await subjectById(db, caller, body.employeeId)).employee.id]
    : (await previewEmployees(db, scope, await previewReach(db, scope, caller), undefined, MAX_RECIPIENTS)).map((row) => row.id);
  return startJob(jobs, caller, issueStatementsJob, { title: body.title.trim(), asOf: body.asOf ?? today(), employeeIds }, socketId);
}

/** The caller's own issued statements, newest first; none without an employee record. */
export async function myIssuedStatements(db: Knex, caller: Caller): Promise<Schemas['IssuedStatement'][]> {
  const scope = companyScope(caller);
  const employee = await statementEmployeeOfUser(db, scope, caller.userId);
  if (!employee) return [];
  return (await documentVersionsWithVariablesOf(db, scope, ISSUED_STATEMENT_SUBJECT, employee.id)).map((version) => ({
    id: version.id,
    title: version.title,
    asOf: String(version.variables.asOf),
    issuedAt: version.createdAt,
  }));
}

/** An issued statement's PDF as issued: the caller's own, or within their preview reach; any other id is 404. */
export async function issuedStatementPdf(db: Knex, caller: Caller, id: string): Promise<RawResponse> {
  const scope = companyScope(caller);
  const version = await findDocumentVersion(db, scope, id);
  if (!version || version.subjectType !== ISSUED_STATEMENT_SUBJECT) throw notFound();
  await subjectById(db, caller, version.subjectId);
  const pdf = await versionPdf(db, scope, version.id);
  return new RawResponse(Readable.from(pdf.bytes), 'application/pdf', pdf.filename, pdf.bytes.length);
}
