import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { components } from '../../../openapi.js';
import { ApiError, type Connection, call, createApi } from '../client.js';
import { waitForJob } from '../jobs.js';
import { Failed, type OutputOptions, RejectedInput, hint, printJson, printTable } from '../output.js';
import { progressBar } from '../progress.js';

export interface CommandContext {
  connection: Connection;
  output: OutputOptions;
}

type Kind = components['schemas']['PeopleImportKind'];
type PeopleImport = components['schemas']['PeopleImport'];
type PeopleImportPlan = components['schemas']['PeopleImportPlan'];

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const NOUN: Record<Kind, string> = { employees: 'employees', equityGrants: 'equity grants' };

function readFile(file: string): Buffer {
  try {
    return readFileSync(file === '-' ? 0 : file);
  } catch (error) {
    throw new RejectedInput(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** XLSX is a zip archive (PK…); anything else goes as CSV. */
const contentTypeOf = (bytes: Buffer): string => (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50 ? XLSX_TYPE : 'text/csv');

export function importSummary(plan: PeopleImportPlan, kind: Kind): string {
  const counts = plan.dryRun
    ? `${plan.create} to create, ${plan.update} to update, ${plan.unchanged} unchanged`
    : `${plan.create} created, ${plan.update} updated, ${plan.unchanged} unchanged`;
  if (kind !== 'employees') return counts;
  const records = plan.compensationRecords;
  const added = plan.dryRun ? `${records.add} compensation record${records.add === 1 ? '' : 's'} to add` : `${records.add} compensation record${records.add === 1 ? '' : 's'} added`;
  const corrected = records.update ? `, ${records.update} ${plan.dryRun ? 'to correct' : 'corrected'}` : '';
  return `${counts}; ${added}${corrected}`;
}

/**
 * The rows a market release would leave out, why and the fix for each (the web's words), as lines
 * for stderr: advice beside the result, so stdout stays the summary alone. Empty when none.
 */
export function marketExclusionLines(plan: PeopleImportPlan): string[] {
  const exclusions = plan.marketExclusions;
  if (!exclusions || exclusions.employees === 0) return [];
  const of = `${exclusions.employees} of the ${exclusions.activeEmployees} active employee${exclusions.activeEmployees === 1 ? '' : 's'} in this file`;
  return [
    `A market release built today would leave out ${of}, if your company takes part in the market:`,
    ...exclusions.reasons.flatMap((entry) => [`  ${entry.employees} ${entry.reason}: ${entry.description}.`, `    Fix: ${entry.fix}`]),
  ];
}

/** A refused mapping or permission: the server's field errors as lines a person can act on. */
function refusal(error: unknown, columns: string[] | undefined): unknown {
  if (!(error instanceof ApiError) || error.status !== 400) return error;
  const lines = (error.body.errors ?? []).map((problem) => `${problem.field.replace(/^mapping\./, 'mapping: ')}: ${problem.message}`);
  if (columns && lines.some((line) => line.startsWith('mapping: '))) lines.push(`The file's columns: ${columns.join(', ')}. Save a mapping for them and pass --mapping NAME.`);
  return new RejectedInput(error.body.message ?? 'The file was refused; nothing was written.', lines);
}

/**
 * Uploads the file, starts its import (or dry run) and follows the job to its end: the plan on
 * stdout, every bad row on stderr with its line, exit 2 and nothing written when any row is bad.
 */
export async function importPeopleFile(ctx: CommandContext, kind: Kind, file: string, options: { mapping?: string; dryRun?: boolean }): Promise<void> {
  const bytes = readFile(file);
  const api = createApi(ctx.connection);
  const filename = file === '-' ? undefined : path.basename(file);
  const bar = progressBar({ label: 'Uploading', percent: undefined, detail: filename ?? 'stdin' });
  let run: PeopleImport;
  let columns: string[] | undefined;
  try {
    const uploaded = await call(
      ctx.connection,
      api.POST('/api/people-imports/files', {
        params: { query: { kind, ...(filename ? { filename } : {}) } },
        // The file goes as it is; openapi-fetch would serialise it as JSON otherwise.
        body: bytes as unknown as string,
        bodySerializer: (body: string) => body,
        headers: { 'Content-Type': contentTypeOf(bytes) },
      }),
    );
    columns = uploaded.data.columns;
    const started = await call(
      ctx.connection,
      api.POST('/api/people-imports/files/{peopleImportFileId}/runs', {
        params: { path: { peopleImportFileId: uploaded.data.id } },
        body: { dryRun: Boolean(options.dryRun), ...(options.mapping ? { mappingName: options.mapping } : {}) },
      }),
    );
    run = started.data;
  } catch (error) {
    throw refusal(error, columns);
  } finally {
    bar.done();
  }
  if (run.jobId) await waitForJob(ctx.connection, run.jobId, options.dryRun ? `Checking ${NOUN[kind]}` : `Importing ${NOUN[kind]}`);
  run = (await call(ctx.connection, api.GET('/api/people-imports/runs/{peopleImportRunId}', { params: { path: { peopleImportRunId: run.id } } }))).data;
  if (ctx.output.json) printJson(run);
  if (run.status === 'rejected') {
    const lines = run.errors.map((problem) => `line ${problem.line}: ${problem.column ?? problem.field ?? 'row'}: ${problem.message}`);
    if (run.errorCount > run.errors.length) lines.push(`… and ${run.errorCount - run.errors.length} more`);
    throw new RejectedInput(run.message ?? `The file has ${run.errorCount} problems; nothing was written.`, lines);
  }
  if (run.status !== 'planned' && run.status !== 'applied') throw new Failed(`The import ${run.status}${run.message ? `: ${run.message}` : '.'}`);
  if (ctx.output.json || !run.plan) return;
  process.stdout.write(`${importSummary(run.plan, kind)}\n`);
  for (const line of marketExclusionLines(run.plan)) process.stderr.write(`${line}\n`);
  if (options.dryRun && (run.plan.create || run.plan.update || run.plan.compensationRecords.add || run.plan.compensationRecords.update)) hint('Nothing was written. Run again without --dry-run to apply.');
}

export async function importEmployeesCommand(ctx: CommandContext, file: string, options: { mapping?: string; dryRun?: boolean }): Promise<void> {
  await importPeopleFile(ctx, 'employees', file, options);
}

export async function listMappingsCommand(ctx: CommandContext, kind: Kind): Promise<void> {
  const mappings = (await call(ctx.connection, createApi(ctx.connection).GET('/api/people-imports/mappings', { params: { query: { kind } } }))).data;
  if (ctx.output.json) return printJson(mappings);
  if (!mappings.length) return hint(`No saved ${NOUN[kind]} mappings yet.`);
  printTable(
    ['NAME', 'COLUMNS', 'UPDATED'],
    mappings.map((mapping) => [mapping.name, Object.entries(mapping.mapping).map(([field, column]) => `${field}=${column}`).join(', '), mapping.updatedAt.slice(0, 10)]),
  );
}

/** `paybench employees|grants mappings delete NAME`: a saved mapping by its name; the files it read stay as they are. */
export async function deleteMappingCommand(ctx: CommandContext, kind: Kind, name: string): Promise<void> {
  const api = createApi(ctx.connection);
  const mappings = (await call(ctx.connection, api.GET('/api/people-imports/mappings', { params: { query: { kind } } }))).data;
  const found = mappings.find((mapping) => mapping.name === name) ?? mappings.find((mapping) => mapping.name.toLowerCase() === name.toLowerCase());
  if (!found) throw new RejectedInput(`No saved ${NOUN[kind]} mapping is called "${name}".`, mappings.length ? [`Saved: ${mappings.map((mapping) => mapping.name).join(', ')}`] : []);
  const deleted = (await call(ctx.connection, api.DELETE('/api/people-imports/mappings/{peopleImportMappingId}', { params: { path: { peopleImportMappingId: found.id } } }))).data;
  if (ctx.output.json) return printJson(deleted);
  process.stdout.write(`Deleted the mapping ${found.name}.\n`);
}
