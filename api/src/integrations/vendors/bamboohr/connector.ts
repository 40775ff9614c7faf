import { type Connector, type ConnectorEnvironment, ConnectorError, type ConnectorField, type ConnectorSettings, type FetchedTable, apiUrlProblems, checkFields } from '../../connector.js';
import { VendorHttp, basicAuth } from '../../http.js';
import { groupBy } from '../../../kernel/history.js';
import { annualAmount, cellText as text, payHistory } from '../../vendorRows.js';
import type { SourceRow } from '../../../kernel/files/table.js';
import { parseJsonPaced } from '../../../kernel/pacedJson.js';
import { Pacer } from '../../../kernel/pace.js';

/*
 * BambooHR, read with a company's own API key (the key is the user of basic authentication, the
 * password is ignored):
 *   - employees: POST /reports/custom?format=JSON&onlyCurrent=true with the fields below (current
 *     values of job info, status and personal fields), filtered by lastChanged on an incremental sync;
 *   - pay: the compensation table, GET /employees/all/tables/compensation (every employee's rows),
 *     or GET /employees/changed/tables/compensation?since=… on an incremental sync (all the rows of
 *     every employee changed since then).
 * The rows Paybench imports carry BambooHR's field names as columns, so the mapping suggestion and
 * a saved mapping read them as they would an export of the same report.
 */

/** The report's fields, BambooHR's names; `id` leads every row. */
export const REPORT_FIELDS = [
  'employeeNumber',
  'firstName',
  'lastName',
  'workEmail',
  'jobTitle',
  'department',
  'division',
  'location',
  'country',
  'hireDate',
  'terminationDate',
  'status',
  'employmentHistoryStatus',
  'supervisorEId',
  'gender',
  'ethnicity',
] as const;

/** Columns made from the compensation table: the row in force today, its rate made annual. */
export const COMPENSATION_COLUMNS = ['compensation.rate', 'compensation.currency', 'compensation.startDate', 'compensation.paidPer'] as const;

export const BAMBOOHR_COLUMNS = ['id', ...REPORT_FIELDS, ...COMPENSATION_COLUMNS];

const FIELDS: ConnectorField[] = [
  { key: 'companyDomain', label: 'Company domain', type: 'text', required: true, description: 'The part before .bamboohr.com in your BambooHR address.' },
  { key: 'apiKey', label: 'API key', type: 'secret', required: true, description: 'An API key of a BambooHR user who can see every employee’s job and compensation information. Stored encrypted.' },
  {
    key: 'apiUrl',
    label: 'API address',
    type: 'url',
    required: false,
    description: 'Leave empty for https://{company domain}.bamboohr.com/api/v1; set it only to reach BambooHR through a proxy of your own.',
  },
];

interface ReportResponse {
  title?: string;
  fields?: { id: string; type?: string; name?: string }[];
  employees?: Record<string, unknown>[];
}

/** A compensation row as BambooHR sends it; `rate` is "75000 USD" (or, from some endpoints, { value, currency }). */
export interface CompensationRow {
  employeeId?: string | number;
  startDate?: string | null;
  rate?: string | { value?: string | number; currency?: string } | null;
  paidPer?: string | null;
  type?: string | null;
}

interface ChangedTableResponse {
  table?: string;
  employees?: Record<string, { lastChanged?: string; rows?: CompensationRow[] }>;
}

/** How far before BambooHR's time of the report the next incremental sync starts. */
const CURSOR_MARGIN_MS = 5 * 60_000;

const COMPANY_DOMAIN = /^[a-z0-9][a-z0-9-]{0,62}$/i;

export function apiUrlOf(settings: ConnectorSettings): string {
  const custom = settings.values.apiUrl;
  if (custom) return custom;
  return `https://${settings.values.companyDomain}.bamboohr.com/api/v1`;
}

function client(settings: ConnectorSettings, env: ConnectorEnvironment): VendorHttp {
  const apiKey = settings.secrets.apiKey ?? '';
  return new VendorHttp(
    {
      system: 'BambooHR',
      baseUrl: apiUrlOf(settings),
      headers: () => ({ Authorization: basicAuth(apiKey, 'x') }),
      // BambooHR puts the reason for a refusal in this header.
      errorDetail: (response) => response.headers.get('x-bamboohr-error-message') ?? undefined,
      permissionHint: 'The API key’s BambooHR user needs access to every employee’s job information and compensation (a full admin, or an access level with them).',
    },
    env,
  );
}

/** BambooHR's empty date. */
const cleanDate = (value: string): string => (value === '0000-00-00' ? '' : value);

/** "75000.00 USD" or { value, currency } → the amount and the currency. */
export function rateOf(rate: CompensationRow['rate']): { amount: number; currency: string } | undefined {
  if (!rate) return undefined;
  if (typeof rate === 'object') {
    const amount = Number(rate.value);
    return Number.isFinite(amount) ? { amount, currency: rate.currency ?? '' } : undefined;
  }
  const match = /^\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*([A-Z]{3})?\s*$/.exec(rate);
  if (!match?.[1]) return undefined;
  return { amount: Number(match[1].replace(/,/g, '')), currency: match[2] ?? '' };
}

/** The compensation cells of a row: the annual rate (two decimals at most), its currency, since when, and what it was paid per. */
function compensationCells(row: CompensationRow | undefined): string[] {
  const rate = row ? rateOf(row.rate) : undefined;
  if (!row || !rate) return ['', '', '', ''];
  const annual = annualAmount(rate.amount, row.paidPer) ?? rate.amount;
  return [String(annual), rate.currency, cleanDate(row.startDate ?? ''), row.paidPer ?? ''];
}

/** A row per compensation row of each employee (their pay history, oldest first), the employee's fields on each; paced. */
async function table(employees: Record<string, unknown>[], compensation: Map<string, CompensationRow[]>, day: string, pacer = new Pacer()): Promise<FetchedTable['rows']> {
  const rows: SourceRow[] = [];
  for (const employee of employees) {
    if (pacer.due) await pacer.pause();
    const id = text(employee.id);
    const cells = [id, ...REPORT_FIELDS.map((field) => (field === 'hireDate' || field === 'terminationDate' ? cleanDate(text(employee[field])) : text(employee[field])))];
    for (const pay of payHistory(compensation.get(id) ?? [], (row) => cleanDate(row.startDate ?? ''), day)) {
      // Line 2 for the first row, as if the report were a file with a header.
      rows.push({ line: rows.length + 2, values: [...cells, ...compensationCells(pay)] });
    }
  }
  return rows;
}

async function report(http: VendorHttp, since: string | null): Promise<{ employees: Record<string, unknown>[]; serverTime: string | null }> {
  const body: Record<string, unknown> = { title: 'Paybench sync', fields: [...REPORT_FIELDS] };
  if (since) body.filters = { lastChanged: { includeNull: 'no', value: since } };
  const { body: raw, response } = await http.call('reports/custom', { method: 'POST', query: { format: 'JSON', onlyCurrent: 'true' }, json: body, headers: { Accept: 'application/json' }, what: 'the employee report' });
  let parsed: ReportResponse;
  try {
    parsed = (await parseJsonPaced(raw)) as ReportResponse;
  } catch {
    throw new ConnectorError('BambooHR sent the employee report as something other than JSON.', 'response');
  }
  if (!Array.isArray(parsed.employees)) throw new ConnectorError('BambooHR’s employee report has no list of employees.', 'response');
  const date = response.headers.get('date');
  return { employees: parsed.employees, serverTime: date ? new Date(date).toISOString() : null };
}

async function compensationTable(http: VendorHttp, since: string | null): Promise<Map<string, CompensationRow[]>> {
  const byEmployee = new Map<string, CompensationRow[]>();
  if (since) {
    const changed = await http.json<ChangedTableResponse>('employees/changed/tables/compensation', { query: { since }, what: 'the changed compensation rows' });
    for (const [id, entry] of Object.entries(changed.employees ?? {})) byEmployee.set(id, entry.rows ?? []);
    return byEmployee;
  }
  const rows = await http.json<CompensationRow[]>('employees/all/tables/compensation', { what: 'the compensation table' });
  if (!Array.isArray(rows)) throw new ConnectorError('BambooHR’s compensation table is not a list of rows.', 'response');
  return groupBy(rows, (row) => text(row.employeeId));
}

export const bambooHrConnector: Connector = {
  kind: 'bamboohr',
  displayName: 'BambooHR',
  category: 'hris',
  importKinds: ['employees'],
  fields: FIELDS,
  unavailableReason: undefined,
  importKind: () => 'employees',
  validate(settings) {
    const problems = checkFields(FIELDS, settings);
    const domain = settings.values.companyDomain;
    if (domain && !COMPANY_DOMAIN.test(domain)) problems.push({ field: 'companyDomain', message: 'must be the part before .bamboohr.com: letters, digits and hyphens' });
    return [...problems, ...apiUrlProblems(settings)];
  },
  async test(settings, env) {
    const http = client(settings, env);
    try {
      // One employee's compensation proves the key reads pay too; the report proves it reads people.
      const { employees } = await report(http, null);
      await http.json<CompensationRow[]>('employees/all/tables/compensation', { what: 'the compensation table' });
      return { ok: true, message: `Connected to BambooHR: ${employees.length} employees, and their compensation can be read.` };
    } catch (error) {
      if (error instanceof ConnectorError) return { ok: false, message: error.message };
      throw error;
    }
  },
  async fetch(settings, env, onRows, request) {
    const http = client(settings, env);
    const since = request?.since ?? null;
    const started = new Date().toISOString();
    const { employees, serverTime } = await report(http, since);
    await onRows(employees.length);
    const compensation = await compensationTable(http, since);
    env.log.info({ calls: http.stats.calls, retries: http.stats.retries, waitedMs: http.stats.waitedMs, employees: employees.length, incremental: since !== null }, 'BambooHR read');
    const rows = await table(employees, compensation, new Date().toISOString().slice(0, 10));
    // The next sync asks for what changed since this one began, by BambooHR's clock when it says, with
    // a margin for changes made while the report was being built: reading a change twice is harmless.
    const cursor = new Date(new Date(serverTime ?? started).getTime() - CURSOR_MARGIN_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return { columns: [...BAMBOOHR_COLUMNS], rows, rowCount: rows.length, cursor, incremental: since !== null };
  },
};
