import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { components } from '../contract-types.js';
import { csvFile } from '../downloads/csv.js';
import { presentDownload, saveDownload } from '../downloads/service.js';
import { HttpError } from '../kernel/errors.js';
import { versionOf } from '../kernel/versions.js';
import { EMAIL, tidyCell } from '../kernel/files/cells.js';
import { type SourceTable, readSentTable } from '../kernel/files/table.js';
import { replaceApprovalChains } from '../meritCycles/chains.js';
import { requireCycle } from '../meritCycles/cycles.js';
import { listChains } from '../meritCycles/store.js';
import { branchEmployeesByEmail } from '../people/reads/approvalChains.js';
import { MAX_REVIEWERS, type StoredChain, chainProblems, presentChains, rulesOf, storeRules } from './service.js';
import { usersByEmail } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

/*
 * Approval chains as a CSV file: `Manager email` (the employee at the root of the branch; empty for
 * the whole company), then `Approver 1 email`, `Approver 2 email`, … in order. The import reads it
 * with the table reader every file import shares (kernel/files), checks every row with its line, and writes all or
 * nothing; the export writes the same columns through the formula-safe CSV writer, so an export is
 * the template of the next import.
 */

type ChainImport = components['schemas']['ApprovalChainImport'];
type Problem = ChainImport['problems'][number];

export const MANAGER_COLUMN = 'Manager email';
export const BRANCH_NAME_COLUMN = 'Manager name';
export const approverColumn = (position: number): string => `Approver ${position} email`;

/** The download kind of an exported chains file. */
export const CHAINS_FILE = 'approvalChains';

const squash = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]/g, '');
const MANAGER_HEADERS = new Set(['manageremail', 'branchemail', 'branchmanageremail']);
const APPROVER_HEADER = /^(?:approver|reviewer)(\d{1,2})(?:email)?$/;

interface Columns {
  manager: number;
  approvers: { position: number; at: number; column: string }[];
}

function columnsOf(table: SourceTable, problems: Problem[]): Columns | null {
  const manager = table.columns.findIndex((column) => MANAGER_HEADERS.has(squash(column)));
  const approvers = table.columns
    .map((column, at) => ({ column, at, match: APPROVER_HEADER.exec(squash(column)) }))
    .filter((entry) => entry.match)
    .map((entry) => ({ position: Number(entry.match?.[1]), at: entry.at, column: entry.column }))
    .sort((a, b) => a.position - b.position);
  if (manager < 0) problems.push({ line: 1, column: null, message: `The file has no "${MANAGER_COLUMN}" column.` });
  if (!approvers.length) problems.push({ line: 1, column: null, message: `The file has no "${approverColumn(1)}" column.` });
  approvers.forEach((approver, index) => {
    if (approver.position !== index + 1) problems.push({ line: 1, column: approver.column, message: `Approver columns must be numbered 1, 2, 3, … without gaps; ${approverColumn(index + 1)} is missing.` });
  });
  if (approvers.length > MAX_REVIEWERS) problems.push({ line: 1, column: approvers[MAX_REVIEWERS]?.column ?? null, message: `A chain has at most ${MAX_REVIEWERS} approvers.` });
  return manager < 0 || !approvers.length ? null : { manager, approvers };
}

const cellOf = (values: readonly string[], at: number): string => tidyCell(values[at] ?? '');

/** Reads and checks every row; the chains in file order and every problem with its line. */
async function readChains(db: Knex, scope: CompanyScope, text: string): Promise<{ rowCount: number; chains: StoredChain[]; lines: number[]; problems: Problem[] }> {
  const table = await readSentTable(Readable.from([Buffer.from(text, 'utf8')]), 'csv');
  const problems: Problem[] = [];
  const columns = columnsOf(table, problems);
  if (!columns) return { rowCount: table.rowCount, chains: [], lines: [], problems };
  const managerColumn = table.columns[columns.manager] ?? MANAGER_COLUMN;
  const managerEmails = table.rows.map((row) => cellOf(row.values, columns.manager)).filter((email) => email !== '');
  const approverEmails = table.rows.flatMap((row) => columns.approvers.map((approver) => cellOf(row.values, approver.at)).filter((email) => email !== ''));
  const employees = await branchEmployeesByEmail(db, scope, managerEmails);
  const users = await usersByEmail(db, scope, approverEmails);
  const chains: StoredChain[] = [];
  const lines: number[] = [];
  const branchLines = new Map<string, number>();
  for (const row of table.rows) {
    const before = problems.length;
    const managerEmail = cellOf(row.values, columns.manager);
    let branchEmployeeId: string | null = null;
    if (managerEmail !== '') {
      const employee = employees.get(managerEmail.toLowerCase());
      if (!EMAIL.test(managerEmail)) problems.push({ line: row.line, column: managerColumn, message: `"${managerEmail}" is not an e-mail address.` });
      else if (!employee) problems.push({ line: row.line, column: managerColumn, message: `No employee of the company has the e-mail ${managerEmail}.` });
      else branchEmployeeId = employee.id;
    }
    const key = managerEmail === '' ? '' : managerEmail.toLowerCase();
    const earlier = branchLines.get(key);
    if (earlier !== undefined) problems.push({ line: row.line, column: managerColumn, message: managerEmail === '' ? `The whole company already has a chain on line ${earlier}.` : `The branch of ${managerEmail} already has a chain on line ${earlier}.` });
    else branchLines.set(key, row.line);
    const reviewerUserIds: string[] = [];
    let gapAt: string | null = null;
    for (const approver of columns.approvers) {
      const email = cellOf(row.values, approver.at);
      if (email === '') {
        gapAt ??= approver.column;
        continue;
      }
      if (gapAt !== null) problems.push({ line: row.line, column: approver.column, message: `${gapAt} is empty but ${approver.column} is not; approvers follow each other without gaps.` });
      const user = users.get(email.toLowerCase());
      if (!EMAIL.test(email)) problems.push({ line: row.line, column: approver.column, message: `"${email}" is not an e-mail address.` });
      else if (!user) problems.push({ line: row.line, column: approver.column, message: `No user of the company has the e-mail ${email}.` });
      else if (!user.active) problems.push({ line: row.line, column: approver.column, message: `${user.name} (${email}) no longer has access.` });
      else if (reviewerUserIds.includes(user.id)) problems.push({ line: row.line, column: approver.column, message: `${email} is named twice in this chain.` });
      else reviewerUserIds.push(user.id);
    }
    if (!columns.approvers.some((approver) => cellOf(row.values, approver.at) !== '')) problems.push({ line: row.line, column: columns.approvers[0]?.column ?? null, message: 'A chain needs at least one approver.' });
    if (problems.length === before) {
      chains.push({ branchEmployeeId, reviewerUserIds });
      lines.push(row.line);
    }
  }
  if (!table.rows.length) problems.push({ line: 1, column: null, message: 'The file has no chains below its header row.' });
  return { rowCount: table.rowCount, chains, lines, problems };
}

const ifMatchOf = (ifMatch: string | undefined): string => {
  if (ifMatch === undefined) throw new HttpError(428, 'precondition_required', { message: 'Send If-Match with the version you read, or ask for a dry run.' });
  return ifMatch;
};

function requirePlanningEdit(caller: Caller): void {
  if (!hasPermission(caller.permissions, 'compensationPlanning', 'edit', 'all')) {
    throw new HttpError(403, 'forbidden', { message: 'Changing a cycle’s approval chains needs the compensation planning edit permission over the whole company.' });
  }
}

/** Checks a chains file and, unless a dry run or with any problem, replaces the defaults' or the cycle's chains with it. */
export async function importChains(ctx: Pick<ServiceContext, 'db' | 'caller'>, query: { dryRun: boolean; meritCycleId?: string }, ifMatch: string | undefined, text: string): Promise<ChainImport> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  if (query.meritCycleId !== undefined) {
    await requireCycle(db, scope, query.meritCycleId);
    requirePlanningEdit(caller);
  }
  const read = await readChains(db, scope, text);
  if (!read.problems.length) {
    // The same checks as a typed-in change (branches, reviewers), in case the file passed its own.
    for (const problem of await chainProblems(db, scope, read.chains, 'rows')) read.problems.push({ line: read.lines[Number(problem.field.split('.')[1])] ?? 1, column: null, message: problem.message });
  }
  const applied = !query.dryRun && read.problems.length === 0;
  if (applied) {
    const expected = ifMatchOf(ifMatch);
    if (query.meritCycleId !== undefined) await replaceApprovalChains({ db, caller }, query.meritCycleId, expected, read.chains);
    else {
      const version = versionOf(expected);
      await db.transaction((trx) => storeRules(trx, caller, version, { meritChains: read.chains }));
    }
  }
  return {
    dryRun: query.dryRun,
    applied,
    meritCycleId: query.meritCycleId ?? null,
    rowCount: read.rowCount,
    chains: await presentChains(db, scope, read.chains),
    problems: read.problems.sort((a, b) => a.line - b.line),
  };
}

/** The defaults' (or a cycle's) chains as the CSV the import reads; the caller's download. */
export async function exportChains(ctx: Pick<ServiceContext, 'deps' | 'caller'>, meritCycleId: string | undefined): Promise<components['schemas']['Download']> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  let chains: StoredChain[];
  if (meritCycleId !== undefined) {
    const cycle = await requireCycle(deps.db, scope, meritCycleId);
    chains = (await listChains(deps.db, scope, cycle.id)).map((row) => ({ branchEmployeeId: row.branch_employee_id, reviewerUserIds: JSON.parse(row.reviewers) as string[] }));
  } else {
    chains = (await rulesOf(deps.db, scope)).meritChains;
  }
  const named = await presentChains(deps.db, scope, chains);
  const width = Math.max(1, ...named.map((chain) => chain.reviewers.length));
  const header = [MANAGER_COLUMN, BRANCH_NAME_COLUMN, ...Array.from({ length: width }, (_, index) => approverColumn(index + 1))];
  const rows = named.map((chain) => [chain.branchEmail ?? '', chain.branchName ?? (chain.branchEmployeeId ? '' : 'Whole company'), ...Array.from({ length: width }, (_, index) => chain.reviewers[index]?.email ?? '')]);
  const download = await saveDownload(deps.db, deps.downloads, {
    companyId: scope.companyId,
    ownerUserId: caller.userId,
    jobId: null,
    kind: CHAINS_FILE,
    filename: meritCycleId !== undefined ? 'merit-cycle-approval-chains.csv' : 'approval-chains.csv',
    contentType: 'text/csv',
    permission: null,
    content: csvFile(header, rows),
  });
  return presentDownload(download);
}
