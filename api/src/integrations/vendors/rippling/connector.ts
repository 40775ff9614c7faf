import { type Connector, type ConnectorEnvironment, ConnectorError, type ConnectorField, type ConnectorSettings, apiUrlProblems, checkFields } from '../../connector.js';
import { VendorHttp, allPages } from '../../http.js';
import { cellText } from '../../vendorRows.js';
import type { SourceRow } from '../../../kernel/files/table.js';

/*
 * Rippling, read with an API token of the company (Settings › Company settings › API tokens) from
 * its REST API (https://rest.ripplingapis.com):
 *   - GET /workers in pages of up to 100 (limit, cursor), each answer's next_link the address of the
 *     next page (null at the end), with expand=user,department,employment_type,compensation,legal_entity
 *     for names, the department, the employment type, pay and the legal entity;
 *   - GET /work-locations (the same pages) for the city of each worker's work location;
 *   - fields the token may not read come back redacted and are listed in the answer's
 *     __meta.redacted_fields, so the connection test says which pay fields the token lacks.
 * Compensation is an object of its own whose changes do not move the worker's updated_at, so every
 * sync reads everything; workers who did not change come out of the import as unchanged.
 */

export const RIPPLING_COLUMNS = [
  'id',
  'number',
  'given_name',
  'family_name',
  'work_email',
  'title',
  'department',
  'manager_id',
  'work_location',
  'country',
  'start_date',
  'end_date',
  'status',
  'employment_type',
  'legal_entity',
  'annual_salary',
  'currency',
  'target_bonus_percent',
  'gender',
];

const FIELDS: ConnectorField[] = [
  {
    key: 'apiToken',
    label: 'API token',
    type: 'secret',
    required: true,
    description: 'A Rippling API token (Settings › Company settings › API tokens) with read access to workers, users, departments, work locations, legal entities, employment types and compensation. Stored encrypted.',
  },
  { key: 'apiUrl', label: 'API address', type: 'url', required: false, description: 'Leave empty for https://rest.ripplingapis.com.' },
];

/** A Money object: { currency_type, value }. */
interface Money {
  currency_type?: string | null;
  value?: number | string | null;
}

interface RipplingWorker {
  id?: string;
  number?: string | number | null;
  user?: { name?: { given_name?: string | null; family_name?: string | null; preferred_given_name?: string | null } | null } | null;
  work_email?: string | null;
  title?: string | null;
  department?: { name?: string | null } | null;
  manager_id?: string | null;
  location?: { type?: string | null; work_location_id?: string | null } | null;
  country?: string | null;
  start_date?: string | null;
  end_date?: string | null;
  status?: string | null;
  employment_type?: { type?: string | null } | null;
  legal_entity?: { legal_name?: string | null; name?: string | null } | null;
  compensation?: { annual_salary_equivalent?: Money | null; target_annual_bonus_percent?: number | string | null } | null;
  gender?: string | null;
}

interface WorkLocation {
  id?: string;
  name?: string | null;
  address?: { locality?: string | null } | null;
}

interface Page<Item> {
  __meta?: { redacted_fields?: { name?: string; reason?: string }[] };
  results?: Item[];
  next_link?: string | null;
}

/** Rippling's largest page. */
const PAGE_LIMIT = 100;
const EXPAND = 'user,department,employment_type,compensation,legal_entity';
/** The pay fields a sync needs; redacted, the token lacks compensation access. */
const PAY_FIELDS = ['compensation', 'compensation.annual_salary_equivalent'];

export function apiUrlOf(settings: ConnectorSettings): string {
  return settings.values.apiUrl || 'https://rest.ripplingapis.com';
}

/** Rippling's error bodies: { type, title, detail } or { description } / { message }. */
function errorDetail(_response: Response, body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    for (const key of ['detail', 'description', 'message', 'title', 'error']) {
      const value = parsed[key];
      if (typeof value === 'string' && value) return value;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function client(settings: ConnectorSettings, env: ConnectorEnvironment): VendorHttp {
  return new VendorHttp(
    {
      system: 'Rippling',
      baseUrl: apiUrlOf(settings),
      errorDetail,
      permissionHint: 'The API token needs read access to workers, users, departments, work locations, legal entities, employment types and compensation (Settings › Company settings › API tokens).',
      headers: () => ({ Authorization: `Bearer ${settings.secrets.apiToken ?? ''}` }),
    },
    env,
  );
}

/** Every item of a list, following next_link; the redacted fields seen on the way. */
async function list<Item>(http: VendorHttp, path: string, options: { query?: Record<string, string | number>; what: string; onItems?: (count: number) => Promise<void> }): Promise<{ items: Item[]; redacted: Set<string> }> {
  const redacted = new Set<string>();
  const items = await allPages<Item, string>(
    async (next) => {
      const page = await http.json<Page<Item>>(next ?? path, { query: next ? {} : { limit: PAGE_LIMIT, ...options.query }, what: options.what });
      if (!Array.isArray(page.results)) throw new ConnectorError(`Rippling’s ${options.what} has no results.`, 'response');
      for (const field of page.__meta?.redacted_fields ?? []) if (field.name) redacted.add(field.name);
      return { items: page.results, next: page.next_link || undefined };
    },
    options.onItems ? { onItems: options.onItems } : {},
  );
  return { items, redacted };
}

/** Rippling's employment types in the import's words. */
const EMPLOYMENT_TYPE: Record<string, string> = {
  SALARIED_FT: 'full_time',
  HOURLY_FT: 'full_time',
  SALARIED_PT: 'part_time',
  HOURLY_PT: 'part_time',
  CONTRACTOR: 'contractor',
  TEMP: 'contractor',
};
/** Hired and accepted workers have not started yet but are employed; INIT is a draft, left out. */
const STATUS: Record<string, string> = { HIRED: 'active', ACCEPTED: 'active', ACTIVE: 'active', TERMINATED: 'terminated' };

const day = (value: string | null | undefined): string => {
  const text = cellText(value);
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : text;
};

function row(worker: RipplingWorker, line: number, cities: Map<string, string>): SourceRow {
  const salary = worker.compensation?.annual_salary_equivalent;
  const amount = cellText(salary?.value);
  const locationId = worker.location?.work_location_id;
  const type = cellText(worker.employment_type?.type);
  const status = cellText(worker.status);
  return {
    line,
    values: [
      cellText(worker.id),
      cellText(worker.number),
      cellText(worker.user?.name?.preferred_given_name) || cellText(worker.user?.name?.given_name),
      cellText(worker.user?.name?.family_name),
      cellText(worker.work_email),
      cellText(worker.title),
      cellText(worker.department?.name),
      cellText(worker.manager_id),
      locationId ? (cities.get(locationId) ?? '') : '',
      cellText(worker.country),
      day(worker.start_date),
      day(worker.end_date),
      STATUS[status] ?? status,
      EMPLOYMENT_TYPE[type] ?? type,
      cellText(worker.legal_entity?.legal_name) || cellText(worker.legal_entity?.name),
      amount,
      amount ? cellText(salary?.currency_type) : '',
      cellText(worker.compensation?.target_annual_bonus_percent),
      cellText(worker.gender),
    ],
  };
}

/** Work locations by id: their city, else their name. */
async function workLocations(http: VendorHttp): Promise<Map<string, string>> {
  const { items } = await list<WorkLocation>(http, 'work-locations', { what: 'the work locations' });
  return new Map(items.filter((item) => item.id).map((item) => [item.id ?? '', cellText(item.address?.locality) || cellText(item.name)]));
}

export const ripplingConnector: Connector = {
  kind: 'rippling',
  displayName: 'Rippling',
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
      const page = await http.json<Page<RipplingWorker>>('workers', { query: { limit: 1, expand: EXPAND }, what: 'the workers' });
      const redacted = (page.__meta?.redacted_fields ?? []).map((field) => field.name ?? '');
      const missing = PAY_FIELDS.filter((name) => redacted.includes(name));
      if (missing.length) return { ok: false, message: `Rippling redacts ${missing.join(' and ')} for this API token: give it read access to compensation (Settings › Company settings › API tokens).` };
      await http.json<Page<WorkLocation>>('work-locations', { query: { limit: 1 }, what: 'the work locations' });
      return { ok: true, message: 'Connected to Rippling: workers, their work locations and compensation can be read.' };
    } catch (error) {
      if (error instanceof ConnectorError) return { ok: false, message: error.message };
      throw error;
    }
  },
  async fetch(settings, env, onRows) {
    const http = client(settings, env);
    const cities = await workLocations(http);
    const { items, redacted } = await list<RipplingWorker>(http, 'workers', { query: { expand: EXPAND }, what: 'the workers', onItems: onRows });
    if (PAY_FIELDS.some((name) => redacted.has(name))) {
      throw new ConnectorError('Rippling redacted the workers’ compensation: give the API token read access to compensation; without it a sync cannot keep pay true.', 'permission');
    }
    const workers = items.filter((worker) => worker.status !== 'INIT');
    env.log.info({ calls: http.stats.calls, retries: http.stats.retries, waitedMs: http.stats.waitedMs, workers: workers.length }, 'Rippling read');
    const rows = workers.map((worker, index) => row(worker, index + 2, cities));
    return { columns: [...RIPPLING_COLUMNS], rows, rowCount: rows.length };
  },
};
