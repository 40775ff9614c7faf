import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { components } from '../contract-types.js';
import { type TemplateInput, documentVersionsWithVariablesOf, findDocumentVersion, issueComposedDocuments, versionPdf } from '../documents/service.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { isoTimestamp } from '../db/timestamps.js';
import { RawResponse, type ServiceContext } from '../kernel/operations.js';
import { jobKind } from '../jobs/kind.js';
import type { JobQueue } from '../jobs/queue.js';
import { startJob } from '../jobs/service.js';
import { today } from '../money/converter.js';
import { type StatementEmployeeRow, previewEmployees, statementEmployee, statementEmployeeOfUser } from './peopleReads.js';
import { previewReach, subjectById } from './access.js';
import { documentLogo } from './branding.js';
import { statementContent } from './pdf.js';
import { storedSettings } from './settings.js';
import { buildStatement } from './statement.js';
import { type IssuedCursor, type IssuedStatementRow, insertIssuedStatements, listIssuedStatements } from './store.js';

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
    const issuedTo: StatementEmployeeRow[] = [];
    for (const employeeId of employeeIds) {
      const employee = await statementEmployee(trx, scope, employeeId);
      if (!employee) continue; // removed since the request: nothing to issue
      issuedTo.push(employee);
      const statement = await buildStatement(trx, { scope, employee, viewer: 'self', settings, asOf: input.asOf });
      const composed = statementContent(statement, 'local');
      // Titled as issued, and naming whom it was issued to (the live statement's title names them).
      const content = { ...composed, title: input.title, blocks: [{ kind: 'paragraph' as const, lines: [`Issued to ${employee.first_name} ${employee.last_name}`.trim()] }, ...composed.blocks] };
      if (logo) content.branding = { ...content.branding, logoSha256: logo.sha256 };
      documents.push({ subjectType: ISSUED_STATEMENT_SUBJECT, subjectId: employee.id, content, variables: { asOf: input.asOf, statement: JSON.stringify(statement) } });
    }
    const versions = await issueComposedDocuments(trx, scope, { template: TEMPLATE, createdBy, documents });
    await insertIssuedStatements(
      trx,
      versions.map((version, index) => {
        const employee = issuedTo[index] as StatementEmployeeRow;
        return {
          id: version.id,
          company_id: scope.companyId,
          employee_id: employee.id,
          first_name: employee.first_name,
          last_name: employee.last_name,
          title: version.title,
          as_of: input.asOf,
          issued_by: createdBy,
          issued_at: isoTimestamp(version.createdAt),
        };
      }),
    );
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
export async function issueStatements(ctx: Pick<ServiceContext, 'db'>, jobs: JobQueue, caller: Caller, body: { title: string; employeeId?: string; asOf?: string }, socketId: string | undefined) {
  const { db } = ctx;
  needsEdit(caller);
  const scope = companyScope(caller);
  const employeeIds = body.employeeId
    ? [(await subjectById(db, caller, body.employeeId)).employee.id]
    : (await previewEmployees(db, scope, await previewReach(db, scope, caller), undefined, MAX_RECIPIENTS)).map((row) => row.id);
  return startJob(jobs, caller, issueStatementsJob, { title: body.title.trim(), asOf: body.asOf ?? today(), employeeIds }, socketId);
}

/** The caller's own issued statements, newest first; none without an employee record. */
export async function myIssuedStatements(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['IssuedStatement'][]> {
  const { db, caller } = ctx;
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
export async function issuedStatementPdf(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<RawResponse> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = await findDocumentVersion(db, scope, id);
  if (!version || version.subjectType !== ISSUED_STATEMENT_SUBJECT) throw notFound();
  await subjectById(db, caller, version.subjectId);
  const pdf = await versionPdf(db, scope, version.id);
  return new RawResponse(Readable.from(pdf.bytes), 'application/pdf', pdf.filename, pdf.bytes.length);
}

/** The caller's own issued statement's PDF only (the path the installed app keeps offline); anyone else's id is 404, also for admins. */
export async function myIssuedStatementPdf(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<RawResponse> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = await findDocumentVersion(db, scope, id);
  const own = await statementEmployeeOfUser(db, scope, caller.userId);
  if (!version || version.subjectType !== ISSUED_STATEMENT_SUBJECT || !own || version.subjectId !== own.id) throw notFound();
  const pdf = await versionPdf(db, scope, version.id);
  return new RawResponse(Readable.from(pdf.bytes), 'application/pdf', pdf.filename, pdf.bytes.length);
}

const encodeCursor = (row: IssuedStatementRow): string => Buffer.from(JSON.stringify({ issuedAt: isoTimestamp(row.issued_at), id: row.id } satisfies IssuedCursor)).toString('base64url');

function decodeCursor(cursor: string): IssuedCursor {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<IssuedCursor>;
    if (typeof parsed.issuedAt === 'string' && typeof parsed.id === 'string' && !Number.isNaN(Date.parse(parsed.issuedAt))) return { issuedAt: parsed.issuedAt, id: parsed.id };
  } catch {
    // not one of ours: refused below
  }
  throw badRequest('The cursor is not one this list gave.', [{ field: 'query.cursor', message: 'is not a cursor of this list' }]);
}

/** Every statement issued in the company, newest first, a page at a time: whole-company readers of statements only. */
export async function issuedStatementRecords(
  ctx: Pick<ServiceContext, 'db' | 'caller'>,
  query: { employeeId?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<{ data: Schemas['IssuedStatementRecord'][]; page: Schemas['Page'] }> {
  const { db, caller } = ctx;
  if (!hasPermission(caller.permissions, 'totalRewards', 'view', 'all')) {
    throw new HttpError(403, 'forbidden', { message: 'The statements issued in the company are listed to people with the totalRewards permission for the whole company.' });
  }
  const rows = await listIssuedStatements(db, companyScope(caller), { employeeId: query.employeeId, after: query.cursor ? decodeCursor(query.cursor) : undefined, limit: query.limit });
  const page = rows.slice(0, query.limit);
  return {
    data: page.map((row) => ({
      id: row.id,
      employeeId: row.employee_id,
      employeeName: [row.first_name, row.last_name].filter(Boolean).join(' '),
      title: row.title,
      asOf: row.as_of,
      issuedAt: isoTimestamp(row.issued_at),
    })),
    page: { limit: query.limit, nextCursor: rows.length > query.limit && page.length ? encodeCursor(page.at(-1) as IssuedStatementRow) : null },
  };
}
