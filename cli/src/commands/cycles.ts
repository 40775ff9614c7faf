import { readFileSync } from 'node:fs';
import type { components } from '../../../openapi.js';
import { ApiError, call, createApi } from '../client.js';
import { requireSuccess, saveDownload, waitForJob } from '../jobs.js';
import { RejectedInput, hint, printJson, printPairs, printTable } from '../output.js';
import { Currencies } from '../money.js';
import type { CommandContext } from './users.js';

type Schemas = components['schemas'];
type CycleState = Schemas['MeritCycleState'];
type Money = Schemas['Money'];

const STATES: readonly CycleState[] = ['draft', 'active', 'closed', 'cancelled'];

export interface CyclesListOptions {
  state?: string;
}

export interface CyclesExportOptions {
  out?: string;
  wait: boolean;
}

export interface ChainsImportOptions {
  dryRun?: boolean;
}

function stateOption(state: string | undefined): CycleState | undefined {
  if (state === undefined) return undefined;
  const found = STATES.find((candidate) => candidate === state.toLowerCase());
  if (!found) throw new RejectedInput(`--state must be one of ${STATES.join(', ')}, not "${state}".`);
  return found;
}

/** Basis points as a percentage: 300 → "3.00%". */
const percent = (basisPoints: number): string => `${(basisPoints / 100).toFixed(2)}%`;

const cyclePath = (meritCycleId: string) => ({ params: { path: { meritCycleId } } });

export async function listCyclesCommand(ctx: CommandContext, options: CyclesListOptions): Promise<void> {
  const state = stateOption(options.state);
  const all = (await call(ctx.connection, createApi(ctx.connection).GET('/api/v2/meritCycles'))).data;
  const cycles = state ? all.filter((cycle) => cycle.state === state) : all;
  if (ctx.output.json) return printJson(cycles);
  printTable(
    ['ID', 'NAME', 'STATE', 'EFFECTIVE', 'CURRENCY', 'ELIGIBLE', 'WORKSHEETS'],
    cycles.map((cycle) => [cycle.id, cycle.name, cycle.state, cycle.effectiveDate, cycle.currency, String(cycle.counts.eligible), String(cycle.counts.worksheets)]),
  );
  if (!cycles.length) hint(state ? `No cycles are ${state}.` : 'No merit cycles yet.');
}

/** A launched cycle's budgets and progress; a draft has neither yet. */
async function figuresOf(ctx: CommandContext, cycle: Schemas['MeritCycle']) {
  if (cycle.state === 'draft') return { budgets: null, progress: null };
  const api = createApi(ctx.connection);
  const [budgets, progress] = await Promise.all([
    call(ctx.connection, api.GET('/api/v2/meritCycles/{meritCycleId}/dashboard/cycleBudgets', cyclePath(cycle.id))),
    call(ctx.connection, api.GET('/api/v2/meritCycles/{meritCycleId}/dashboard/cycleProgress', cyclePath(cycle.id))),
  ]);
  return { budgets: budgets.data, progress: progress.data };
}

export async function showCycleCommand(ctx: CommandContext, meritCycleId: string): Promise<void> {
  const cycle = (await call(ctx.connection, createApi(ctx.connection).GET('/api/v2/meritCycles/{meritCycleId}', cyclePath(meritCycleId)))).data;
  const { budgets, progress } = await figuresOf(ctx, cycle);
  if (ctx.output.json) return printJson({ cycle, budgets, progress });
  const pairs: [string, string][] = [
    ['Name', cycle.name],
    ['State', cycle.state],
    ['Effective date', cycle.effectiveDate],
    ['Performance period', `${cycle.periodStart} to ${cycle.periodEnd}`],
    ['Currency', cycle.currency],
    ['Components', cycle.components.join(', ')],
    ['Planner mode', cycle.plannerMode],
    ['Budget', `${percent(cycle.budget.percentBp)} of eligible payroll${cycle.budget.blockOverBudget ? ', over budget refused' : ''}`],
    ['Rates as of', cycle.ratesAsOf ?? 'set at launch'],
    ['Employees', `${cycle.counts.employees} (${cycle.counts.eligible} eligible, ${cycle.counts.ineligible} ineligible, ${cycle.counts.excluded} excluded)`],
    ['Worksheets', String(cycle.counts.worksheets)],
  ];
  if (budgets) {
    const total = budgets.total;
    const currencies = await Currencies.load(ctx.connection);
    const amount = (money: Money) => currencies.exact(money);
    pairs.push(['Allocated', amount(total.allocated)], ['Used', amount(total.used)], ['Remaining', `${amount(total.remaining)}${total.overBudget ? ' (over budget)' : ''}`]);
  }
  if (progress) {
    const byState = progress.worksheetsByState;
    pairs.push(
      ['Reviewed', `${progress.reviewed} of ${progress.eligible} eligible (${progress.percentReviewed}%), ${progress.changed} changed`],
      ['Worksheet states', `${byState.planning} planning, ${byState.in_review} in review, ${byState.sent_back} sent back, ${byState.approved} approved, ${byState.pulled_up} pulled up`],
    );
  }
  printPairs(pairs);
}

export async function cycleBudgetsCommand(ctx: CommandContext, meritCycleId: string): Promise<void> {
  const report = (await call(ctx.connection, createApi(ctx.connection).GET('/api/v2/meritCycles/{meritCycleId}/dashboard/cycleBudgets', cyclePath(meritCycleId)))).data;
  if (ctx.output.json) return printJson(report);
  const currencies = await Currencies.load(ctx.connection);
  const amount = (money: Money) => currencies.exact(money);
  const row = (planner: string, figures: Schemas['BudgetFigures'], id: string) => [
    id,
    planner,
    amount(figures.allocated),
    amount(figures.recommended),
    amount(figures.used),
    amount(figures.remaining),
    figures.overBudget ? 'over' : 'within',
  ];
  printTable(
    ['WORKSHEET', 'PLANNER', 'ALLOCATED', 'RECOMMENDED', 'USED', 'REMAINING', 'BUDGET'],
    [...report.worksheets.map((sheet) => row(sheet.plannerName ?? 'Top level', sheet.own, sheet.worksheetId)), row('Total', report.total, '')],
  );
}

/**
 * The bottom-up view: what each manager's branch planned against its top-down allocation, parents
 * before their children (the planner indented by depth), in each node's currency.
 */
export async function cycleRollupCommand(ctx: CommandContext, meritCycleId: string): Promise<void> {
  const rollup = (await call(ctx.connection, createApi(ctx.connection).GET('/api/v2/meritCycles/{meritCycleId}/budgets/bottomsUp', cyclePath(meritCycleId)))).data;
  if (ctx.output.json) return printJson(rollup);
  const currencies = await Currencies.load(ctx.connection);
  const amount = (money: Money) => currencies.exact(money);
  printTable(
    ['WORKSHEET', 'PLANNER', 'ALLOCATED', 'PLANNED (BRANCH)', 'DIFFERENCE', 'STATUS'],
    rollup.nodes.map((node) => [node.worksheetId, `${'  '.repeat(node.depth)}${node.plannerName ?? 'Top level'}`, amount(node.allocated), amount(node.plannedBranch), amount(node.difference), node.status]),
  );
}

/** The payroll CSV through the server's export job, followed until the file is ready. */
export async function exportCycleCommand(ctx: CommandContext, meritCycleId: string, options: CyclesExportOptions): Promise<void> {
  const started = (await call(ctx.connection, createApi(ctx.connection).POST('/api/v2/meritCycles/{meritCycleId}/exports', cyclePath(meritCycleId)))).data;
  if (!options.wait) {
    if (ctx.output.json) return printJson(started);
    process.stdout.write(`${started.id}\n`);
    return hint(`Follow it with: paybench jobs watch ${started.id}`);
  }
  const job = requireSuccess(await waitForJob(ctx.connection, started.id, 'Exporting the payroll file'));
  await saveDownload(ctx.connection, job.downloadId, options.out);
  if (options.out) hint(`Wrote ${options.out}`);
}

function readChainsFile(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new RejectedInput(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A cycle's approval chains from a CSV file (`Manager email`, `Approver 1 email`, …), all or
 * nothing: every bad line goes to stderr with its number and the exit code is 2.
 */
export async function importChainsCommand(ctx: CommandContext, meritCycleId: string, file: string, options: ChainsImportOptions): Promise<void> {
  const csv = readChainsFile(file);
  const api = createApi(ctx.connection);
  const dryRun = Boolean(options.dryRun);
  // A change is made at the cycle's version as read now; a dry run changes nothing and needs none.
  const version = dryRun ? undefined : (await call(ctx.connection, api.GET('/api/v2/meritCycles/{meritCycleId}', cyclePath(meritCycleId)))).data.version;
  let result: Schemas['ApprovalChainImport'];
  try {
    result = (
      await call(
        ctx.connection,
        api.POST('/api/workflow-settings/merit-chains/import', {
          params: { query: { dryRun, meritCycleId }, header: version === undefined ? {} : { 'If-Match': `"${version}"` } },
          body: csv,
          bodySerializer: (body: string) => body,
          headers: { 'Content-Type': 'text/csv' },
        }),
      )
    ).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) throw new RejectedInput(error.body.message ?? 'The file was refused; nothing was written.', (error.body.errors ?? []).map((problem) => `${problem.field}: ${problem.message}`));
    throw error;
  }
  if (ctx.output.json) printJson(result);
  if (result.problems.length) {
    const lines = result.problems.map((problem) => `line ${problem.line}: ${problem.column ?? 'row'}: ${problem.message}`);
    throw new RejectedInput(`The file has ${result.problems.length} ${result.problems.length === 1 ? 'problem' : 'problems'}; nothing was written.`, lines);
  }
  if (ctx.output.json) return;
  printTable(
    ['BRANCH', 'APPROVERS'],
    result.chains.map((chain) => [chain.branchEmail ?? 'Whole company', chain.reviewers.map((reviewer) => reviewer.email).join(' → ')]),
  );
  process.stdout.write(dryRun ? `${result.chains.length} chains checked; nothing was written.\n` : `${result.chains.length} chains saved.\n`);
}

export interface CycleEmployeesOptions {
  worksheet?: string;
}

/** `paybench cycles employees CYCLE`: the cycle's rows in the caller's reach, with the pay each plan gives. */
export async function cycleEmployeesCommand(ctx: CommandContext, meritCycleId: string, options: CycleEmployeesOptions): Promise<void> {
  const rows = (
    await call(ctx.connection, createApi(ctx.connection).GET('/api/v2/meritCycles/{meritCycleId}/employees', { params: { path: { meritCycleId }, query: options.worksheet ? { worksheetId: options.worksheet } : {} } }))
  ).data;
  if (ctx.output.json) return printJson(rows);
  if (!rows.length) return hint('No employees of this cycle are in your reach.');
  const currencies = await Currencies.load(ctx.connection);
  const amount = (money: Money | null | undefined) => (money ? currencies.exact(money) : '–');
  // A row leaves out the components the cycle does not plan (no merit in a bonus-only cycle).
  const merit = (row: Schemas['WorksheetEmployee']) => (row.merit ? `${percent(row.merit.percentBp)} (${amount(row.merit.amount)})` : '–');
  printTable(
    ['EMPLOYEE', 'NAME', 'TITLE', 'CURRENT', 'MERIT', 'NEW PAY', 'REVIEWED'],
    rows.map((row) => [row.employeeNumber, row.name, row.title, amount(row.currentPay), merit(row), amount(row.newPay), row.reviewed ? 'yes' : '']),
  );
}

const LETTER_AUDIENCES = { managers: 'releaseToManagers', employees: 'releaseToEmployees' } as const;

/**
 * `paybench cycles letters release CYCLE --to managers|employees`: the reward letters to managers
 * (they read their reports' letters), or to every employee, at the letters' version just read.
 */
export async function releaseLettersCommand(ctx: CommandContext, meritCycleId: string, options: { to: string }): Promise<void> {
  const action = LETTER_AUDIENCES[options.to.toLowerCase() as keyof typeof LETTER_AUDIENCES] as (typeof LETTER_AUDIENCES)[keyof typeof LETTER_AUDIENCES] | undefined;
  if (!action) throw new RejectedInput(`--to must be managers or employees, not "${options.to}".`);
  const api = createApi(ctx.connection);
  const letters = (await call(ctx.connection, api.GET('/api/v2/meritCycles/{meritCycleId}/rewardLetters', cyclePath(meritCycleId)))).data;
  const released = (
    await call(
      ctx.connection,
      api.POST('/api/v2/meritCycles/{meritCycleId}/rewardLetters/transitions', { params: { path: { meritCycleId }, header: { 'If-Match': `"${letters.version}"` } }, body: { action } }),
    )
  ).data;
  if (ctx.output.json) return printJson(released);
  process.stdout.write(
    action === 'releaseToManagers'
      ? `Released ${released.letterCount} letters of ${released.cycleName} to their managers.\n`
      : `Released ${released.releasedCount} letters of ${released.cycleName} to their employees.\n`,
  );
}
