import { callerForUser } from '../access/authenticate.js';
import { companyScope } from '../access/caller.js';
import { csvFile } from '../downloads/csv.js';
import { type XlsxFormat, xlsxContent } from '../downloads/xlsx.js';
import { saveDownload } from '../downloads/service.js';
import { findUserById } from '../access/users.js';
import { jobKind } from '../jobs/kind.js';
import { findJobFamily, findLevel, findLocation } from '../reference/catalog/index.js';
import { today } from './access.js';
import { type CompensationRecordRow, type EmployeeRow, type NameCursor, type PayComponentType, currentRecords, employeesOf, filteredEmployees } from './store.js';
import { employeeReach, withinReach } from './visibility.js';
import { type MinorUnits, minorUnits } from '../money/minorUnits.js';

export const EMPLOYEE_COMPENSATION_EXPORT = 'employeeCompensationExport';

export interface EmployeeCompensationExportInput {
  format: 'csv' | 'xlsx';
  asOf?: string;
  status: 'active' | 'terminated' | 'all';
}

export const EMPLOYEE_COMPENSATION_COLUMNS = [
  'Employee number',
  'First name',
  'Last name',
  'Email',
  'Title',
  'Department',
  'Job family',
  'Level',
  'Manager employee number',
  'Location',
  'Country',
  'Employment type',
  'Status',
  'Start date',
  'Termination date',
  'Currency',
  'Base salary',
  'Bonus target',
  'Bonus target %',
  'Variable pay',
  'Commission',
  'Benefits',
  'Total cash',
  'Pay as of',
] as const;

type Cell = string | number | null;

const PAGE = 500;

/**
 * Amounts in major units (what a spreadsheet reader expects): numbers in XLSX, exact decimal text
 * in CSV. A component in another currency than the employee's is written with its code.
 */
function amountCell(row: CompensationRecordRow | undefined, currency: string, digits: MinorUnits, format: 'csv' | 'xlsx'): Cell {
  if (!row) return null;
  const places = digits.of(row.currency);
  const negative = row.amount < 0;
  const whole = String(Math.abs(row.amount)).padStart(places + 1, '0');
  const text = `${negative ? '-' : ''}${places ? `${whole.slice(0, -places)}.${whole.slice(-places)}` : whole}`;
  if (row.currency !== currency) return `${text} ${row.currency}`;
  return format === 'xlsx' ? Number(text) : text;
}

function rowOf(employee: EmployeeRow, records: ReadonlyMap<PayComponentType, CompensationRecordRow> | undefined, managerNumbers: Map<string, string>, asOf: string, digits: MinorUnits, format: 'csv' | 'xlsx'): Cell[] {
  const record = (type: PayComponentType) => records?.get(type);
  const cash = (['base_salary', 'bonus_target', 'variable_pay', 'commission'] as const).flatMap((type) => (record(type) ? [record(type) as CompensationRecordRow] : []));
  const base = record('base_salary');
  const total = base && cash.every((row) => row.currency === base.currency) ? { ...base, amount: cash.reduce((sum, row) => sum + row.amount, 0) } : undefined;
  const bonusPercent = record('bonus_target')?.percent_of_base_bp;
  const amount = (row: CompensationRecordRow | undefined) => amountCell(row, employee.currency, digits, format);
  return [
    employee.employee_number,
    employee.first_name,
    employee.last_name,
    employee.email,
    employee.title,
    employee.department,
    employee.job_family_id ? (findJobFamily(employee.job_family_id)?.name ?? employee.job_family_id) : null,
    employee.level_id ? (findLevel(employee.level_id)?.displayString ?? employee.level_id) : null,
    employee.manager_id ? (managerNumbers.get(employee.manager_id) ?? null) : null,
    employee.location_id ? (findLocation(employee.location_id)?.paybenchLocationName ?? employee.location_id) : null,
    employee.country_code,
    employee.employment_type,
    employee.status,
    employee.start_date,
    employee.termination_date,
    employee.currency,
    amount(base),
    amount(record('bonus_target')),
    bonusPercent === null || bonusPercent === undefined ? null : format === 'xlsx' ? bonusPercent / 100 : (bonusPercent / 100).toString(),
    amount(record('variable_pay')),
    amount(record('commission')),
    amount(record('benefits')),
    amount(total),
    asOf,
  ];
}

/** The spreadsheet's number formats: amounts in the employee's currency, with its ISO 4217 decimals. */
function xlsxFormats(): Map<number, XlsxFormat> {
  const at = (name: (typeof EMPLOYEE_COMPENSATION_COLUMNS)[number]) => EMPLOYEE_COMPENSATION_COLUMNS.indexOf(name);
  const money: XlsxFormat = { kind: 'money', currencyColumn: at('Currency') };
  const amounts = ['Base salary', 'Bonus target', 'Variable pay', 'Commission', 'Benefits', 'Total cash'] as const;
  return new Map<number, XlsxFormat>([...amounts.map((name) => [at(name), money] as const), [at('Bonus target %'), { kind: 'percent' }]]);
}

const CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } as const;

/**
 * Every employee the person who started the job may see the pay of (their `team` and
 * `employeeCompensation` reach as it is when the job runs), with the pay in force on `asOf`.
 */
export const employeeCompensationExportJob = jobKind<EmployeeCompensationExportInput>({ type: EMPLOYEE_COMPENSATION_EXPORT, title: 'Employee pay export' }, ({ downloads: storage }) => async ({ job, db, progress }) => {
    const input = job.input;
    const asOf = input.asOf ?? today();
    const user = await findUserById(db, job.ownerUserId);
    if (!user || user.company_id !== job.companyId) throw new Error('The person who started this export no longer belongs to the company.');
    const caller = await callerForUser(db, user, 'apiToken');
    const scope = companyScope(caller);
    const team = await employeeReach(db, scope, caller, 'team');
    const pay = await employeeReach(db, scope, caller, 'employeeCompensation');
    const inReach = () => withinReach(filteredEmployees(db, scope, team, { status: input.status }), scope, pay);
    const total = Number((await inReach().count<{ count: number | string }[]>({ count: '*' }).first())?.count ?? 0);
    const digits = await minorUnits(db);
    async function* rows(): AsyncGenerator<Cell[]> {
      let after: NameCursor | undefined;
      let done = 0;
      for (;;) {
        const query = inReach();
        if (after) query.andWhereRaw('(employees.last_name, employees.first_name, employees.id) > (?, ?, ?)', after);
        const page = await query
          .select<EmployeeRow[]>('employees.*')
          .orderBy([{ column: 'employees.last_name' }, { column: 'employees.first_name' }, { column: 'employees.id' }])
          .limit(PAGE);
        if (!page.length) return;
        const current = await currentRecords(db, scope, page.map((row) => row.id), asOf);
        const managerIds = [...new Set(page.flatMap((row) => (row.manager_id ? [row.manager_id] : [])))];
        const managers = managerIds.length ? await employeesOf(db, scope).whereIn('employees.id', managerIds).select<{ id: string; employee_number: string }[]>('id', 'employee_number') : [];
        const managerNumbers = new Map(managers.map((row) => [row.id, row.employee_number]));
        for (const employee of page) yield rowOf(employee, current.get(employee.id), managerNumbers, asOf, digits, input.format);
        done += page.length;
        const last = page.at(-1) as EmployeeRow;
        after = [last.last_name, last.first_name, last.id];
        await progress(Math.min(95, Math.round((done / Math.max(total, 1)) * 95)), `${done} of ${total} employees written`);
      }
    }
    const written = input.format === 'xlsx' ? xlsxContent(rows(), EMPLOYEE_COMPENSATION_COLUMNS, { sheetName: 'Employee compensation', formats: xlsxFormats() }) : { content: csvFile(EMPLOYEE_COMPENSATION_COLUMNS, rows()), done: Promise.resolve() };
    const download = await saveDownload(db, storage, {
      companyId: job.companyId,
      ownerUserId: job.ownerUserId,
      jobId: job.id,
      kind: EMPLOYEE_COMPENSATION_EXPORT,
      filename: `employee-compensation-${asOf}.${input.format}`,
      contentType: CONTENT_TYPES[input.format],
      permission: 'employeeCompensation',
      content: written.content,
    });
    await written.done;
    return { downloadId: download.id, format: input.format, employees: total, asOf };
  });
