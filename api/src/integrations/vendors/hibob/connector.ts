import { type Connector, type ConnectorEnvironment, ConnectorError, type ConnectorField, type ConnectorSettings, apiUrlProblems, checkFields } from '../../connector.js';
import { VendorHttp, allPages, basicAuth } from '../../http.js';
import { groupBy, inForce } from '../../../kernel/history.js';
import { annualAmount, cellText, payHistory } from '../../vendorRows.js';
import type { SourceRow } from '../../../kernel/files/table.js';
import { Pacer } from '../../../kernel/pace.js';

/*
 * HiBob ("Bob"), read with a service user of the company (its id and token, HTTP basic):
 *   - people: POST /people/search with the fields below, inactive employees included, list values
 *     as Bob shows them (humanReadable REPLACE); one answer holds everyone, there are no pages;
 *   - work history: GET /bulk/people/work (cursor pages of up to 200), the entry in force today
 *     giving title, department, site and manager;
 *   - payroll history: GET /bulk/people/salaries (cursor pages), the salary in force today.
 * Bob has no "changed since" for people or these tables, so every sync reads everything; rows that
 * did not change come out of the import as unchanged.
 */

/** People fields asked of the search, Bob's field ids; the columns are named after them. */
export const SEARCH_FIELDS = ['root.id', 'root.firstName', 'root.surname', 'root.email', 'work.startDate', 'payroll.employment.type', 'internal.status', 'internal.terminationDate'] as const;

export const HIBOB_COLUMNS = [
  'id',
  'firstName',
  'surname',
  'email',
  'work.title',
  'work.department',
  'work.site',
  'work.reportsTo',
  'work.startDate',
  'payroll.employment.type',
  'internal.status',
  'internal.terminationDate',
  'salary.base',
  'salary.currency',
  'salary.effectiveDate',
  'salary.payPeriod',
];

const FIELDS: ConnectorField[] = [
  { key: 'serviceUserId', label: 'Service user id', type: 'text', required: true, description: 'The id of a Bob service user (System settings › Integrations › Service users).' },
  {
    key: 'serviceUserToken',
    label: 'Service user token',
    type: 'secret',
    required: true,
    description: 'Its token. The service user’s permission group needs every employee’s basic, work and employment data and the work and payroll section histories. Stored encrypted.',
  },
  { key: 'apiUrl', label: 'API address', type: 'url', required: false, description: 'Leave empty for https://api.hibob.com/v1; https://api.sandbox.hibob.com/v1 reaches a Bob sandbox.' },
];

/** The people search's employee: fields grouped by category, as Bob answers. */
type BobEmployee = Record<string, unknown> & { id?: string | number };

interface BobSalary {
  employeeId?: string | number;
  effectiveDate?: string | null;
  base?: { value?: number | string | null; currency?: string | null } | null;
  payPeriod?: string | null;
}

interface BobWork {
  employeeId?: string | number;
  effectiveDate?: string | null;
  title?: string | null;
  department?: string | null;
  site?: string | null;
  reportsTo?: { id?: string | number | null } | string | null;
}

/** A bulk table's page: entries grouped by employee ({ employeeId, values }) or flat with their employeeId. */
interface BulkPage<Entry> {
  results?: ({ employeeId?: string | number; values?: Entry[] } & Entry)[];
  response_metadata?: { next_cursor?: string | null };
}

/** Bob's largest page of a bulk table. */
const PAGE_LIMIT = 200;

export function apiUrlOf(settings: ConnectorSettings): string {
  return settings.values.apiUrl || 'https://api.hibob.com/v1';
}

function client(settings: ConnectorSettings, env: ConnectorEnvironment): VendorHttp {
  const user = settings.values.serviceUserId ?? '';
  const token = settings.secrets.serviceUserToken ?? '';
  return new VendorHttp(
    {
      system: 'HiBob',
      baseUrl: apiUrlOf(settings),
      headers: () => ({ Authorization: basicAuth(user, token) }),
      // Bob's error body: { error, message } (or { key, error }).
      errorDetail: (_response, body) => {
        try {
          const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
          const said = typeof parsed.message === 'string' && parsed.message ? parsed.message : parsed.error;
          return typeof said === 'string' && said ? said : undefined;
        } catch {
          return undefined;
        }
      },
      permissionHint:
        'Add the service user to a permission group that can see every employee’s work and payroll sections and their histories (People’s data › Work, Payroll: view sections and section histories).',
    },
    env,
  );
}

async function people(http: VendorHttp): Promise<BobEmployee[]> {
  const answer = await http.json<{ employees?: BobEmployee[] }>('people/search', {
    method: 'POST',
    json: { fields: [...SEARCH_FIELDS], showInactive: true, humanReadable: 'REPLACE' },
    what: 'the people search',
  });
  if (!Array.isArray(answer.employees)) throw new ConnectorError('HiBob’s people search has no list of employees.', 'response');
  return answer.employees;
}

/** Every entry of a bulk table (work, salaries), page by page, each with its employee's id. */
async function bulkTable<Entry extends { employeeId?: string | number }>(http: VendorHttp, table: string, what: string): Promise<Entry[]> {
  const pages = await allPages<Entry, string>(async (cursor) => {
    const page = await http.json<BulkPage<Entry>>(`bulk/people/${table}`, { query: { limit: PAGE_LIMIT, cursor }, what });
    if (!Array.isArray(page.results)) throw new ConnectorError(`HiBob’s ${what} has no list of results.`, 'response');
    const items = page.results.flatMap((result) => (Array.isArray(result.values) ? result.values.map((entry) => ({ ...entry, employeeId: result.employeeId })) : [result as Entry]));
    const next = page.response_metadata?.next_cursor;
    // An employee with no entries still fills a result: an empty page is not the end while a cursor follows.
    return { items: items.length || !next ? items : [{ employeeId: '' } as Entry], next: next || undefined };
  });
  return pages.filter((entry) => cellText(entry.employeeId) !== '');
}

/** The value of a field id ("work.startDate") in a search answer, whose fields are grouped by category. */
function fieldOf(employee: BobEmployee, id: string): unknown {
  let value: unknown = employee;
  for (const part of id.replace(/^root\./, '').split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Bob writes some dates DD/MM/YYYY; imports read YYYY-MM-DD. */
export function isoDate(value: unknown): string {
  const text = cellText(value).trim();
  const dmy = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (dmy) return `${dmy[3]}-${dmy[2]}-${dmy[1]}`;
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : text;
}

const managerOf = (work: BobWork | undefined): string => {
  const to = work?.reportsTo;
  if (!to) return '';
  return typeof to === 'string' ? to : cellText(to.id);
};

function salaryCells(salary: BobSalary | undefined): string[] {
  const amount = Number(salary?.base?.value);
  if (!salary || salary.base?.value === null || salary.base?.value === undefined || !Number.isFinite(amount)) return ['', '', '', ''];
  const annual = annualAmount(amount, salary.payPeriod);
  return [annual === undefined ? String(amount) : String(annual), cellText(salary.base?.currency), isoDate(salary.effectiveDate), cellText(salary.payPeriod)];
}

/** A row per payroll-history entry of each employee (oldest first), the work entry in force today on each. */
async function table(employees: BobEmployee[], work: Map<string, BobWork[]>, salaries: Map<string, BobSalary[]>, day: string, pacer = new Pacer()): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for (const employee of employees) {
    if (pacer.due) await pacer.pause();
    const id = cellText(employee.id);
    const job = inForce(work.get(id) ?? [], (entry) => isoDate(entry.effectiveDate), day);
    const person = [
      id,
      cellText(fieldOf(employee, 'root.firstName')),
      cellText(fieldOf(employee, 'root.surname')),
      cellText(fieldOf(employee, 'root.email')),
      cellText(job?.title),
      cellText(job?.department),
      cellText(job?.site),
      managerOf(job),
      isoDate(fieldOf(employee, 'work.startDate')),
      cellText(fieldOf(employee, 'payroll.employment.type')),
      cellText(fieldOf(employee, 'internal.status')),
      isoDate(fieldOf(employee, 'internal.terminationDate')),
    ];
    for (const salary of payHistory(salaries.get(id) ?? [], (entry) => isoDate(entry.effectiveDate), day)) {
      // Line 2 for the first row, as if the answer were a file with a header.
      rows.push({ line: rows.length + 2, values: [...person, ...salaryCells(salary)] });
    }
  }
  return rows;
}

const byEmployee = <Entry extends { employeeId?: string | number }>(entries: Entry[]) => groupBy(entries, (entry) => cellText(entry.employeeId));

export const hiBobConnector: Connector = {
  kind: 'hibob',
  displayName: 'HiBob',
  category: 'hris',
  importKinds: ['employees'],
  fields: FIELDS,
  unavailableReason: undefined,
  importKind: () => 'employees',
  validate(settings) {
    const problems = checkFields(FIELDS, settings);
    return [...problems, ...apiUrlProblems(settings)];
  },
  async test(settings, env) {
    const http = client(settings, env);
    try {
      const employees = await people(http);
      // Bob leaves out fields the service user may not see instead of refusing: a search without
      // names means the permission group lacks basic info.
      if (employees.length && employees.every((employee) => fieldOf(employee, 'root.firstName') === undefined)) {
        return { ok: false, message: 'HiBob answered the people search without names: the service user’s permission group cannot see the employees’ basic info (People’s data › Basic info).' };
      }
      // One page of each history proves the permissions for them.
      await http.json('bulk/people/work', { query: { limit: 1 }, what: 'the work history' });
      await http.json('bulk/people/salaries', { query: { limit: 1 }, what: 'the payroll (salary) history' });
      return { ok: true, message: `Connected to HiBob: ${employees.length} employees, and their work and payroll histories can be read.` };
    } catch (error) {
      if (error instanceof ConnectorError) return { ok: false, message: error.message };
      throw error;
    }
  },
  async fetch(settings, env, onRows) {
    const http = client(settings, env);
    const employees = await people(http);
    await onRows(employees.length);
    const work = await bulkTable<BobWork>(http, 'work', 'the work history');
    const salaries = await bulkTable<BobSalary>(http, 'salaries', 'the payroll (salary) history');
    env.log.info({ calls: http.stats.calls, retries: http.stats.retries, waitedMs: http.stats.waitedMs, employees: employees.length }, 'HiBob read');
    const rows = await table(employees, byEmployee(work), byEmployee(salaries), new Date().toISOString().slice(0, 10));
    return { columns: [...HIBOB_COLUMNS], rows, rowCount: rows.length, incremental: false };
  },
};
