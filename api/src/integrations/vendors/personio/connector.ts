import { type Connector, type ConnectorEnvironment, ConnectorError, type ConnectorField, type ConnectorSettings, apiUrlProblems, checkFields } from '../../connector.js';
import { VendorHttp } from '../../http.js';
import { annualAmount, cellText } from '../../vendorRows.js';
import type { SourceRow } from '../../../kernel/files/table.js';

/*
 * Personio, read with the company's API credentials (client id and secret):
 *   - POST /auth gives a bearer token; every answered call hands back the token of the next one in
 *     its Authorization header, which is used from then on;
 *   - GET /company/employees, pages of at most 100 by limit and offset, with the attributes below
 *     (attributes[]=…); on an incremental sync with updated_since, which gives the employees whose
 *     (readable) attributes changed since then.
 * Personio leaves out the attributes the credentials may not read instead of refusing, so the
 * connection test checks that the pay attributes come back.
 */

/** Attributes asked for, Personio's names. */
export const ATTRIBUTES = [
  'first_name',
  'last_name',
  'email',
  'position',
  'department',
  'office',
  'supervisor',
  'hire_date',
  'termination_date',
  'status',
  'employment_type',
  'weekly_working_hours',
  'subcompany',
  'gender',
  'fix_salary',
  'fix_salary_interval',
  'hourly_salary',
  'last_modified_at',
] as const;

/** What the rows hold, named after Personio's attributes; `fix_salary.annual` is the fixed salary made annual. */
export const PERSONIO_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'position',
  'department',
  'office',
  'supervisor_id',
  'hire_date',
  'termination_date',
  'status',
  'employment_type',
  'weekly_working_hours',
  'subcompany',
  'gender',
  'fix_salary.annual',
  'currency',
  'fix_salary_interval',
];

/** The pay attributes without which a sync cannot keep pay true. */
const PAY_ATTRIBUTES = ['fix_salary', 'fix_salary_interval'] as const;

const FIELDS: ConnectorField[] = [
  { key: 'clientId', label: 'Client id', type: 'text', required: true, description: 'Personio API credentials (Settings › Integrations › API credentials): the client id.' },
  {
    key: 'clientSecret',
    label: 'Client secret',
    type: 'secret',
    required: true,
    description: 'Its secret. The credentials need read access to employees and the readable attributes Paybench asks for, fix_salary and fix_salary_interval included. Stored encrypted.',
  },
  { key: 'currency', label: 'Pay currency', type: 'text', required: false, description: 'The ISO code salaries are kept in (EUR); Personio does not say. Empty: the company’s currency.' },
  { key: 'apiUrl', label: 'API address', type: 'url', required: false, description: 'Leave empty for https://api.personio.de/v1.' },
];

/** An attribute as Personio sends it. */
interface Attribute {
  label?: string;
  value?: unknown;
  type?: string;
}

interface PersonioEmployee {
  type?: string;
  attributes?: Record<string, Attribute | undefined>;
}

interface EmployeesPage {
  success?: boolean;
  metadata?: { total_elements?: number; current_page?: number; total_pages?: number };
  data?: PersonioEmployee[];
}

/** Personio's largest page of employees. */
const PAGE_LIMIT = 100;
/** How far before Personio's time of the read the next incremental sync starts. */
const CURSOR_MARGIN_MS = 5 * 60_000;

export function apiUrlOf(settings: ConnectorSettings): string {
  return settings.values.apiUrl || 'https://api.personio.de/v1';
}

/** Personio's error body: { success: false, error: { code, message } }. */
function errorDetail(_response: Response, body: string): string | undefined {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' && message ? message : undefined;
  } catch {
    return undefined;
  }
}

/** A client that signs in with the credentials first and follows the token Personio hands back on each call. */
async function signedIn(settings: ConnectorSettings, env: ConnectorEnvironment): Promise<VendorHttp> {
  let token = '';
  const take = (response: Response) => {
    const next = response.headers.get('authorization');
    if (next?.startsWith('Bearer ')) token = next.slice(7);
  };
  const api = {
    system: 'Personio',
    baseUrl: apiUrlOf(settings),
    errorDetail,
    permissionHint: 'The API credentials need read access to employees (Settings › Integrations › API credentials › Employees: read).',
  };
  const auth = new VendorHttp({ ...api, headers: () => ({ 'X-Personio-App-ID': 'PAYBENCH' }) }, env);
  // The secret goes in the body, not the address, so it stays out of access logs.
  const answer = await auth.json<{ success?: boolean; data?: { token?: string } }>('auth', {
    method: 'POST',
    json: { client_id: settings.values.clientId ?? '', client_secret: settings.secrets.clientSecret ?? '' },
    what: 'the sign-in (POST /auth)',
  });
  if (!answer.data?.token) throw new ConnectorError('Personio answered the sign-in without a token.', 'response');
  token = answer.data.token;
  return new VendorHttp({ ...api, headers: () => ({ Authorization: `Bearer ${token}`, 'X-Personio-App-ID': 'PAYBENCH' }), onSuccess: take }, env);
}

const valueOf = (employee: PersonioEmployee, name: string): unknown => employee.attributes?.[name]?.value;

/** An object attribute's name (department, office, subcompany: { type, attributes: { id, name } }). */
const nameOf = (value: unknown): string => {
  if (value && typeof value === 'object' && 'attributes' in value) return cellText((value as { attributes?: { name?: unknown } }).attributes?.name);
  return cellText(value);
};

/** The supervisor's id ({ type: 'Employee', attributes: { id: { value } } }). */
const supervisorOf = (value: unknown): string => {
  if (!value || typeof value !== 'object') return '';
  const id = (value as { attributes?: { id?: Attribute | number | string } }).attributes?.id;
  return typeof id === 'object' && id !== null ? cellText(id.value) : cellText(id);
};

/** Personio's dates are times with an offset ("2014-11-09T00:00:00+01:00"): the day as written. */
const dayOf = (value: unknown): string => {
  const text = cellText(value);
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : text;
};

/** Personio's statuses in the import's words: onboarding and on leave are employed. */
const STATUS: Record<string, string> = { active: 'active', onboarding: 'active', leave: 'active', inactive: 'terminated' };
/** internal: employed by the company; external: a contractor. */
const EMPLOYMENT_TYPE: Record<string, string> = { internal: 'full_time', external: 'contractor' };

function salaryOf(employee: PersonioEmployee): string {
  const fixed = Number(valueOf(employee, 'fix_salary'));
  if (Number.isFinite(fixed) && fixed > 0) {
    const annual = annualAmount(fixed, cellText(valueOf(employee, 'fix_salary_interval')) || 'monthly');
    return annual === undefined ? '' : String(annual);
  }
  const hourly = Number(valueOf(employee, 'hourly_salary'));
  return Number.isFinite(hourly) && hourly > 0 ? String(annualAmount(hourly, 'hourly')) : '';
}

function row(employee: PersonioEmployee, line: number, currency: string): SourceRow {
  const salary = salaryOf(employee);
  const status = cellText(valueOf(employee, 'status')).toLowerCase();
  const type = cellText(valueOf(employee, 'employment_type')).toLowerCase();
  return {
    line,
    values: [
      cellText(valueOf(employee, 'id')),
      cellText(valueOf(employee, 'first_name')),
      cellText(valueOf(employee, 'last_name')),
      cellText(valueOf(employee, 'email')),
      cellText(valueOf(employee, 'position')),
      nameOf(valueOf(employee, 'department')),
      nameOf(valueOf(employee, 'office')),
      supervisorOf(valueOf(employee, 'supervisor')),
      dayOf(valueOf(employee, 'hire_date')),
      dayOf(valueOf(employee, 'termination_date')),
      STATUS[status] ?? status,
      EMPLOYMENT_TYPE[type] ?? type,
      cellText(valueOf(employee, 'weekly_working_hours')),
      nameOf(valueOf(employee, 'subcompany')),
      cellText(valueOf(employee, 'gender')),
      salary,
      salary ? currency : '',
      cellText(valueOf(employee, 'fix_salary_interval')),
    ],
  };
}

/**
 * Every employee, page by page. Bounded by Personio's own count, and a page that brings nobody new
 * ends the read (an updated_since answer may ignore the offset).
 */
async function employees(http: VendorHttp, since: string | null, onRows?: (rows: number) => Promise<void>): Promise<{ list: PersonioEmployee[]; serverTime: string | null }> {
  const list: PersonioEmployee[] = [];
  const seen = new Set<string>();
  let serverTime: string | null = null;
  for (let offset = 0, pages = 0; ; pages += 1) {
    if (pages >= 10_000) throw new ConnectorError('Personio’s employee list did not end after 10,000 pages.', 'response');
    const { body, response } = await http.call('company/employees', {
      query: { limit: PAGE_LIMIT, offset, 'attributes[]': [...ATTRIBUTES], updated_since: since ?? undefined },
      headers: { Accept: 'application/json' },
      what: 'the employee list',
    });
    const date = response.headers.get('date');
    if (date && serverTime === null) serverTime = new Date(date).toISOString();
    let page: EmployeesPage;
    try {
      page = JSON.parse(body) as EmployeesPage;
    } catch {
      throw new ConnectorError('Personio sent the employee list as something other than JSON.', 'response');
    }
    if (!Array.isArray(page.data)) throw new ConnectorError('Personio’s employee list has no data.', 'response');
    let added = 0;
    for (const employee of page.data) {
      const id = cellText(valueOf(employee, 'id'));
      if (seen.has(id)) continue;
      seen.add(id);
      list.push(employee);
      added += 1;
    }
    await onRows?.(list.length);
    const total = page.metadata?.total_elements;
    offset += page.data.length;
    if (added === 0 || page.data.length < PAGE_LIMIT || (typeof total === 'number' && offset >= total)) return { list, serverTime };
  }
}

/** Personio's updated_since: ISO 8601 without a zone, written in UTC (read as Berlin time it only reaches further back). */
const sinceText = (time: number): string => new Date(time).toISOString().slice(0, 19);

export const personioConnector: Connector = {
  kind: 'personio',
  displayName: 'Personio',
  category: 'hris',
  importKinds: ['employees'],
  fields: FIELDS,
  unavailableReason: undefined,
  importKind: () => 'employees',
  validate(settings) {
    const problems = checkFields(FIELDS, settings);
    const currency = settings.values.currency;
    if (currency && !/^[A-Za-z]{3}$/.test(currency)) problems.push({ field: 'currency', message: 'must be an ISO 4217 code such as EUR' });
    return [...problems, ...apiUrlProblems(settings)];
  },
  async test(settings, env) {
    try {
      const http = await signedIn(settings, env);
      const page = await http.json<EmployeesPage>('company/employees', { query: { limit: 1, offset: 0, 'attributes[]': [...ATTRIBUTES] }, what: 'the employee list' });
      const first = page.data?.[0];
      const missing = first ? PAY_ATTRIBUTES.filter((name) => first.attributes?.[name] === undefined) : [];
      if (missing.length) {
        return { ok: false, message: `Personio does not let these credentials read ${missing.join(' and ')}: add ${missing.length > 1 ? 'them' : 'it'} to the credentials’ readable attributes (Settings › Integrations › API credentials).` };
      }
      const count = page.metadata?.total_elements ?? page.data?.length ?? 0;
      return { ok: true, message: `Connected to Personio: ${count} employees, and their fixed salaries can be read.` };
    } catch (error) {
      if (error instanceof ConnectorError) return { ok: false, message: error.message };
      throw error;
    }
  },
  async fetch(settings, env, onRows, request) {
    const since = request?.since ?? null;
    const started = Date.now();
    const http = await signedIn(settings, env);
    const { list, serverTime } = await employees(http, since, onRows);
    env.log.info({ calls: http.stats.calls, retries: http.stats.retries, waitedMs: http.stats.waitedMs, employees: list.length, incremental: since !== null }, 'Personio read');
    const currency = (settings.values.currency ?? '').toUpperCase();
    const rows = list.map((employee, index) => row(employee, index + 2, currency));
    const cursor = sinceText((serverTime ? Date.parse(serverTime) : started) - CURSOR_MARGIN_MS);
    return { columns: [...PERSONIO_COLUMNS], rows, rowCount: rows.length, cursor, incremental: since !== null };
  },
};
