import type { components } from '../../../openapi.js';
import { type Connection, call, createApi } from '../client.js';
import { Currencies } from '../money.js';
import { RejectedInput, hint, printJson, printPairs, printTable } from '../output.js';
import type { CommandContext } from './users.js';

type Schemas = components['schemas'];
type Component = Schemas['CompensationComponent'] | null;

export interface AsOfOptions {
  asOf?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function asOfOption(asOf: string | undefined): string | undefined {
  if (asOf !== undefined && !DATE.test(asOf)) throw new RejectedInput(`--as-of must be a date such as 2026-12-31, not "${asOf}".`);
  return asOf;
}

/**
 * People know an employee by the HR system's employee number; the API by its id. The number is
 * looked up among the employees the search finds, exactly; anything else is taken as the id.
 */
export async function employeeIdOf(connection: Connection, wanted: string): Promise<{ id: string; name: string | undefined }> {
  const found = (await call(connection, createApi(connection).GET('/api/employees', { params: { query: { search: wanted, limit: 50 } } }))).data;
  const match = found.find((employee) => employee.employeeNumber === wanted || employee.id === wanted);
  return match ? { id: match.id, name: `${match.firstName} ${match.lastName}`.trim() } : { id: wanted, name: undefined };
}

/** `paybench employees reports EMPLOYEE`: the people who report directly to a manager. */
export async function directReportsCommand(ctx: CommandContext, employee: string): Promise<void> {
  const manager = await employeeIdOf(ctx.connection, employee);
  const reports = (await call(ctx.connection, createApi(ctx.connection).GET('/api/employees/{employeeId}/direct-reports', { params: { path: { employeeId: manager.id } } }))).data;
  if (ctx.output.json) return printJson(reports);
  if (!reports.length) return hint(`${manager.name ?? employee} has no direct reports.`);
  printTable(
    ['EMPLOYEE', 'NAME', 'TITLE', 'DEPARTMENT', 'STATUS'],
    reports.map((report) => [report.employeeNumber, `${report.firstName} ${report.lastName}`.trim(), report.title, report.department ?? '', report.status]),
  );
}

/** `paybench employees pay EMPLOYEE [--as-of DATE]`: the package in force on a date, each part with its effective date. */
export async function currentPayCommand(ctx: CommandContext, employee: string, options: AsOfOptions): Promise<void> {
  const asOf = asOfOption(options.asOf);
  const person = await employeeIdOf(ctx.connection, employee);
  const pay = (
    await call(ctx.connection, createApi(ctx.connection).GET('/api/employees/{employeeId}/compensation/current', { params: { path: { employeeId: person.id }, query: asOf ? { asOf } : {} } }))
  ).data;
  if (ctx.output.json) return printJson(pay);
  const currencies = await Currencies.load(ctx.connection);
  const part = (component: Component): string => {
    if (!component) return 'none';
    const share = component.percentOfBase === null ? '' : ` (${component.percentOfBase}% of base)`;
    return `${currencies.exact(component.amount)}${share}, since ${component.effectiveDate}`;
  };
  printPairs([
    ['As of', pay.asOf],
    ['Base salary', part(pay.baseSalary)],
    ['Bonus target', part(pay.bonusTarget)],
    ['Variable pay', part(pay.variablePay)],
    ['Commission', part(pay.commission)],
    ['Benefits', part(pay.benefits)],
    ['Total cash', pay.totalCash ? currencies.exact(pay.totalCash) : 'not summed (no base, or parts in several currencies)'],
  ]);
}

/**
 * `paybench grants vesting EMPLOYEE [GRANT] [--as-of DATE]`: a grant's schedule, what has vested and
 * its value. The grant by the cap table's grant id (or Paybench's); without one, the employee's only
 * grant (several are listed to choose from).
 */
export async function vestingCommand(ctx: CommandContext, employee: string, grantId: string | undefined, options: AsOfOptions): Promise<void> {
  const asOf = asOfOption(options.asOf);
  const person = await employeeIdOf(ctx.connection, employee);
  const api = createApi(ctx.connection);
  const grant = await grantIdOf(ctx.connection, person.id, grantId);
  const schedule = (
    await call(ctx.connection, api.GET('/api/employees/{employeeId}/equity-grants/{grantId}/vesting', { params: { path: { employeeId: person.id, grantId: grant }, query: asOf ? { asOf } : {} } }))
  ).data;
  if (ctx.output.json) return printJson(schedule);
  const vesting = schedule.vesting;
  const currencies = await Currencies.load(ctx.connection);
  printPairs([
    ['As of', vesting.asOf],
    ['Vested', `${vesting.vestedShares} shares (${vesting.vestedPercent}%), ${vesting.unvestedShares} unvested`],
    ['Next vesting', vesting.vestingEndedOn ? `stopped on ${vesting.vestingEndedOn}` : (vesting.nextVestingDate ?? 'fully vested')],
    ['Fully vested on', vesting.fullyVestedDate],
    ['Value', vesting.value ? `${currencies.exact(vesting.value.vested)} vested of ${currencies.exact(vesting.value.total)}${vesting.isUnderwater ? ' (underwater)' : ''}` : 'not valued (another currency than the share price)'],
  ]);
  printTable(
    ['DATE', 'SHARES', 'CUMULATIVE', 'VESTED'],
    schedule.events.map((event) => [event.date, String(event.shares), String(event.cumulativeShares), event.vested ? 'yes' : '']),
  );
}

async function grantIdOf(connection: Connection, employeeId: string, wanted: string | undefined): Promise<string> {
  const grants = (await call(connection, createApi(connection).GET('/api/employees/{employeeId}/equity-grants', { params: { path: { employeeId } } }))).data;
  const listing = grants.map((grant) => `${grant.grantNumber}  ${grant.grantDate}  ${grant.shares} ${grant.grantType}`);
  if (wanted !== undefined) {
    const found = grants.find((grant) => grant.grantNumber === wanted || grant.id === wanted);
    if (!found) throw new RejectedInput(`This employee has no grant "${wanted}".`, listing);
    return found.id;
  }
  const [first] = grants;
  if (!first) throw new RejectedInput('This employee has no equity grants.');
  if (grants.length > 1) throw new RejectedInput('This employee has several grants: name one.', listing);
  return first.id;
}
