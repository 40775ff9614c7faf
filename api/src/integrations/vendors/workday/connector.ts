import { type Connector, type ConnectorEnvironment, ConnectorError, type ConnectorField, type ConnectorSettings, checkFields } from '../../connector.js';
import { VendorHttp, basicAuth } from '../../http.js';
import { annualAmount, cellText, payHistory } from '../../vendorRows.js';
import { parseDate } from '../../../kernel/files/cells.js';
import type { SourceRow } from '../../../kernel/files/table.js';
import { parseJsonPaced } from '../../../kernel/pacedJson.js';

/*
 * Workday, read through a custom report published as a web service (Report as a Service, RaaS):
 *   - GET {report URL}?format=json answers { Report_Entry: [ { <field alias>: value, … } ] }, one
 *     entry per worker; the report's author chooses the fields, so the columns are the report's own
 *     field aliases, mapped like a file's headers (the suggestion knows Workday's usual aliases);
 *   - GET {report URL}?xsd gives the report's schema: every field alias, also those a read leaves
 *     out (Workday's JSON omits empty fields), so a saved mapping always finds its columns;
 *   - credentials: the integration system user's name and password (HTTP basic), or an API client
 *     for integrations with a refresh token, exchanged at {host}/ccx/oauth2/{tenant}/token for an
 *     access token at the start of every read;
 *   - a report has no pages: one answer holds every worker. A report with a date-and-time prompt
 *     for "changed since" (named in the settings) makes syncs after the first incremental;
 *   - pay history: fields of a multi-instance related business object added under a group come as
 *     an array of objects under the group's alias ("Compensation_History": [{ "Effective_Date": …,
 *     "Base_Pay": … }]), and the schema lists the group as an element of a type of its own. A group
 *     named in the settings becomes a row per dated entry, as BambooHR's and Bob's histories do.
 */

// The sign-in fields of the method not chosen are hidden on the form (and ignored when saved).
const BASIC = { field: 'authMethod', values: ['basic'] };
const OAUTH = { field: 'authMethod', values: ['oauth'] };

const FIELDS: ConnectorField[] = [
  {
    key: 'reportUrl',
    label: 'Report URL (RaaS)',
    type: 'url',
    required: true,
    description:
      'The worker report published as a web service (Actions › Web Service › View URLs), e.g. https://wd5-services1.myworkday.com/ccx/service/customreport2/acme/ISU_Paybench/Paybench_Workers. One row per worker; share the report with the integration system user.',
  },
  {
    key: 'authMethod',
    label: 'Sign-in',
    type: 'select',
    required: true,
    description: 'Basic: the integration system user’s name and password. OAuth: an API client for integrations with a non-expiring refresh token.',
    options: [
      { value: 'basic', label: 'Integration system user (basic)' },
      { value: 'oauth', label: 'API client (OAuth refresh token)' },
    ],
  },
  { key: 'username', label: 'Integration system user', type: 'text', required: false, shownWhen: BASIC, description: 'Basic sign-in: the user name, as Workday expects it (ISU_Paybench, or ISU_Paybench@acme).' },
  { key: 'password', label: 'Password', type: 'secret', required: false, shownWhen: BASIC, description: 'Basic sign-in: its password. Stored encrypted.' },
  { key: 'clientId', label: 'Client id', type: 'text', required: false, shownWhen: OAUTH, description: 'OAuth: the API client for integrations’ client id (Register API Client for Integrations).' },
  { key: 'clientSecret', label: 'Client secret', type: 'secret', required: false, shownWhen: OAUTH, description: 'OAuth: its client secret. Stored encrypted.' },
  { key: 'refreshToken', label: 'Refresh token', type: 'secret', required: false, shownWhen: OAUTH, description: 'OAuth: a non-expiring refresh token for the integration system user (Manage Refresh Tokens for Integrations). Stored encrypted.' },
  { key: 'tokenUrl', label: 'Token endpoint', type: 'url', required: false, shownWhen: OAUTH, description: 'OAuth: leave empty for https://{host}/ccx/oauth2/{tenant}/token of the report’s host and tenant.' },
  {
    key: 'changedSincePrompt',
    label: 'Changed-since prompt',
    type: 'text',
    required: false,
    description: 'The name of the report’s date-and-time prompt that keeps only workers changed since then (e.g. Changed_Since). Empty: every sync reads the whole report.',
  },
  {
    key: 'compensationHistoryGroup',
    label: 'Compensation history group',
    type: 'text',
    required: false,
    description:
      'The XML alias of the report’s group of compensation history fields (usually Compensation_History), with the fields Effective_Date, Base_Pay (or Amount), Currency and Frequency: one pay record per dated entry. Empty: the report’s pay columns are the pay in force.',
  },
];

/** Workday's usual alias of the group, as the field's description suggests it. */
export const HISTORY_GROUP = 'Compensation_History';

/*
 * The history's fields by fixed aliases rather than mapped like the other columns: the import has no
 * pay-frequency field, so an amount is made yearly here, where the amount and its frequency must be
 * known. They are the aliases Workday derives from the fields' names (Effective Date → Effective_Date),
 * so an admin adding the usual fields types nothing; the amount's field is named differently in
 * different data sources, hence two names for it.
 */
const HISTORY_DATE = 'Effective_Date';
const HISTORY_AMOUNTS = ['Base_Pay', 'Amount'] as const;
const HISTORY_CURRENCY = 'Currency';
const HISTORY_FREQUENCY = 'Frequency';

/**
 * The columns a history entry fills, whatever the group's alias: names the mapping suggestion knows
 * (base salary, its currency, its effective date), and named apart from the group's own fields.
 */
export const HISTORY_COLUMNS = ['Annual_Base_Salary', 'Pay_Currency', 'Pay_Effective_Date', 'Pay_Frequency'] as const;

/** The part of a report URL Workday's token endpoint is derived from: …/ccx/service/customreport2/{tenant}/{owner}/{report}. */
const REPORT_PATH = /^(https?:\/\/[^/]+(?:\/[^/]+)*?)\/ccx\/service\/customreport2\/([^/]+)\/([^/]+)\/([^/?#]+)/i;

/** How far before Workday's time of the read the next incremental sync starts. */
const CURSOR_MARGIN_MS = 5 * 60_000;

type Entry = Record<string, unknown>;

/** Workday's error bodies: { error, errors: [{ error }] } (JSON), else the text as sent. */
function errorDetail(_response: Response, body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; error_description?: unknown; errors?: { error?: unknown }[] };
    const first = parsed.errors?.[0]?.error;
    for (const candidate of [parsed.error_description, first, parsed.error]) if (typeof candidate === 'string' && candidate) return candidate;
    return undefined;
  } catch {
    const text = body.trim();
    return text && text.length <= 300 && !text.startsWith('<') ? text : undefined;
  }
}

/** The token endpoint of the report's host and tenant, unless the settings name one. */
export function tokenUrlOf(settings: ConnectorSettings): string | undefined {
  if (settings.values.tokenUrl) return settings.values.tokenUrl;
  const match = REPORT_PATH.exec(settings.values.reportUrl ?? '');
  return match ? `${match[1]}/ccx/oauth2/${match[2]}/token` : undefined;
}

const PERMISSION_HINT = 'Share the report with the integration system user (the report’s Share settings), and give its security group Get access to the data sources the report reads (worker data, compensation).';

/** The access token of an OAuth connection, from its refresh token. */
async function accessToken(settings: ConnectorSettings, env: ConnectorEnvironment): Promise<string> {
  const tokenUrl = tokenUrlOf(settings);
  if (!tokenUrl) throw new ConnectorError('The report URL is not a Workday RaaS address (…/ccx/service/customreport2/{tenant}/{owner}/{report}): enter the token endpoint.', 'response');
  const auth = new VendorHttp({ system: 'Workday', baseUrl: tokenUrl, errorDetail, headers: () => ({ Authorization: basicAuth(settings.values.clientId ?? '', settings.secrets.clientSecret ?? '') }) }, env);
  let answer: { access_token?: unknown };
  try {
    answer = await auth.json<{ access_token?: unknown }>(tokenUrl, { method: 'POST', form: { grant_type: 'refresh_token', refresh_token: settings.secrets.refreshToken ?? '' }, what: 'the token endpoint' });
  } catch (error) {
    // OAuth says a wrong client or refresh token with a 400 or 401 (invalid_client, invalid_grant).
    if (error instanceof ConnectorError && (error.problem === 'credentials' || error.problem === 'vendor')) {
      throw new ConnectorError(
        `${error.message.replace(/\.$/, '')}. Workday refused the API client’s credentials or refresh token: check the client id and secret, and generate a new refresh token if it was revoked.`,
        'credentials',
      );
    }
    throw error;
  }
  if (typeof answer.access_token !== 'string' || !answer.access_token) throw new ConnectorError('Workday answered the token request without an access token.', 'response');
  return answer.access_token;
}

/** A client for the report, signed in the way the settings say. */
async function reportClient(settings: ConnectorSettings, env: ConnectorEnvironment): Promise<VendorHttp> {
  const authorization =
    settings.values.authMethod === 'oauth' ? `Bearer ${await accessToken(settings, env)}` : basicAuth(settings.values.username ?? '', settings.secrets.password ?? '');
  return new VendorHttp({ system: 'Workday', baseUrl: settings.values.reportUrl ?? '', errorDetail, permissionHint: PERMISSION_HINT, headers: () => ({ Authorization: authorization }) }, env);
}

/** Workday's dates may carry an offset ("2021-01-04-08:00"): the day as written. */
function cell(value: unknown): string {
  const text = cellText(value);
  return /^\d{4}-\d{2}-\d{2}[+-]\d{2}:\d{2}$/.test(text) ? text.slice(0, 10) : text;
}

/**
 * An entry's cells by column: single values as they are; a multi-instance field's values joined
 * with "; "; a field group's subfields as "Group.Field" (of its first instance).
 */
export function flatten(entry: Entry, skip?: string): Map<string, string> {
  const cells = new Map<string, string>();
  for (const [key, value] of Object.entries(entry)) {
    if (key === skip) continue;
    if (Array.isArray(value)) {
      const objects = value.filter((item): item is Entry => typeof item === 'object' && item !== null);
      if (objects[0]) for (const [sub, inner] of Object.entries(objects[0])) cells.set(`${key}.${sub}`, cell(inner));
      else cells.set(key, value.map(cell).filter(Boolean).join('; '));
    } else if (value && typeof value === 'object') {
      for (const [sub, inner] of Object.entries(value as Entry)) cells.set(`${key}.${sub}`, cell(inner));
    } else cells.set(key, cell(value));
  }
  return cells;
}

/** The elements of a named complex type of the schema: their names and, when they have one, their type. */
function typeElements(xsd: string, type: string): { name: string; type: string | undefined }[] {
  const block = new RegExp(`<(?:\\w+:)?complexType\\s+name="${type}"[^>]*>([\\s\\S]*?)</(?:\\w+:)?complexType>`).exec(xsd)?.[1] ?? '';
  return [...block.matchAll(/<(?:\w+:)?element\s+name="([^"]+)"([^>]*)>/g)].map((match) => ({ name: match[1] ?? '', type: /\stype="(?:\w+:)?([\w.-]+)"/.exec(match[2] ?? '')?.[1] })).filter((element) => element.name);
}

/**
 * The report's field aliases from its XSD, in the report's order: the elements of Report_Entry's
 * type; a group's (an element of a complex type of the schema) as "Group.Field", as entries are read.
 */
export function reportFields(xsd: string): string[] {
  const entryType = /<(?:\w+:)?element\s+name="Report_Entry"[^>]*\stype="(?:\w+:)?([\w.-]+)"/.exec(xsd)?.[1];
  if (!entryType) return [];
  return typeElements(xsd, entryType).flatMap((element) => {
    const inner = element.type ? typeElements(xsd, element.type) : [];
    return inner.length ? inner.map((sub) => `${element.name}.${sub.name}`) : [element.name];
  });
}

/** The report's fields from its schema; none when Workday does not give it (the read's own fields are used). */
async function schemaColumns(http: VendorHttp, reportUrl: string): Promise<string[]> {
  try {
    const { body } = await http.call(reportUrl, { query: { xsd: '' }, headers: { Accept: 'application/xml, text/xml' }, what: 'the report’s schema' });
    return reportFields(body);
  } catch (error) {
    if (error instanceof ConnectorError && error.problem === 'notFound') return [];
    throw error;
  }
}

/** Workday's date-and-time prompts: ISO 8601 with an offset. */
const promptTime = (time: number): string => new Date(time).toISOString().replace('Z', '+00:00');

interface Report {
  entries: Entry[];
  serverTime: number | null;
}

async function readReport(http: VendorHttp, reportUrl: string, query: Record<string, string>): Promise<Report> {
  let answer: Awaited<ReturnType<VendorHttp['call']>>;
  try {
    answer = await http.call(reportUrl, { query: { ...query, format: 'json' }, headers: { Accept: 'application/json' }, what: 'the report' });
  } catch (error) {
    if (error instanceof ConnectorError && error.problem === 'notFound') {
      throw new ConnectorError(
        `Workday has no report at this URL (404). Check the report URL (tenant, the report owner and the report’s web service name, as its View URLs show) and that the report is enabled as a web service.`,
        'notFound',
      );
    }
    throw error;
  }
  const { body, response } = answer;
  let parsed: { Report_Entry?: unknown };
  try {
    parsed = (await parseJsonPaced(body)) as { Report_Entry?: unknown };
  } catch {
    throw new ConnectorError('Workday sent the report as something other than JSON: check that the URL is the report’s web service address.', 'response');
  }
  // A report without a single worker has no Report_Entry at all.
  const entries = parsed.Report_Entry ?? [];
  if (!Array.isArray(entries)) throw new ConnectorError('Workday’s report has a Report_Entry that is not a list.', 'response');
  const date = response.headers.get('date');
  return { entries: entries.filter((entry): entry is Entry => typeof entry === 'object' && entry !== null), serverTime: date ? Date.parse(date) : null };
}

/** A compensation history entry as read: its day, its amount made yearly (to the cent), and its currency and frequency as sent. */
export interface PayEntry {
  date: string;
  annual: number;
  currency: string;
  frequency: string;
}

const AMOUNT = /^-?\d+(?:\.\d+)?$/;

/** A history entry's pay, or what is wrong with it. */
function payEntryOf(item: Entry): PayEntry | string {
  const written = cell(item[HISTORY_DATE]).trim();
  if (!written) return `has no ${HISTORY_DATE}`;
  // The imports' one rule for a day: a real date, YYYY-MM-DD.
  const parsed = parseDate(written);
  if ('error' in parsed) return `has a bad ${HISTORY_DATE}: ${parsed.error}`;
  const date = parsed.value;
  const alias = HISTORY_AMOUNTS.find((name) => cellText(item[name]).trim() !== '');
  if (!alias) return `has no ${HISTORY_AMOUNTS.join(' or ')}`;
  const raw = cellText(item[alias]).trim();
  if (!AMOUNT.test(raw)) return `has ${alias} "${raw}", not a number`;
  const frequency = cellText(item[HISTORY_FREQUENCY]).trim();
  const annual = annualAmount(Number(raw), frequency);
  if (annual === undefined) return `has ${HISTORY_FREQUENCY} "${frequency}", which Paybench cannot make a yearly amount of (Annual, Monthly, Semi-monthly, Bi-weekly, Weekly, Daily or Hourly)`;
  return { date, annual, currency: cellText(item[HISTORY_CURRENCY]).trim(), frequency };
}

/** The worker an entry is, for a message: their Employee_ID, else where they are in the report. */
const workerOf = (entry: Entry, index: number): string => (cellText(entry.Employee_ID) ? `worker ${cellText(entry.Employee_ID)}` : `the report’s entry ${index + 1}`);

/** How many bad entries a message names before it says how many more there are. */
const NAMED_PROBLEMS = 10;

/**
 * Each report entry's compensation history from the group. An entry that cannot be read stops the
 * sync before anything is written, naming the worker and what is wrong, as a bad row stops an import.
 */
export function payHistories(entries: readonly Entry[], group: string): PayEntry[][] {
  const problems: string[] = [];
  const histories = entries.map((entry, index) => {
    const value = entry[group];
    // One instance may come as the object itself rather than a list of one.
    const items: unknown[] = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
    return items.flatMap((item, position) => {
      const read = typeof item === 'object' && item !== null ? payEntryOf(item as Entry) : 'is not a group of fields';
      if (typeof read !== 'string') return [read];
      problems.push(`${workerOf(entry, index)}: ${group} entry ${position + 1} ${read}`);
      return [];
    });
  });
  if (problems.length) {
    const more = problems.length > NAMED_PROBLEMS ? `; and ${problems.length - NAMED_PROBLEMS} more` : '';
    throw new ConnectorError(`Workday’s report has compensation history entries Paybench cannot read, so nothing was written: ${problems.slice(0, NAMED_PROBLEMS).join('; ')}${more}.`, 'response');
  }
  return histories;
}

const payCells = (pay: PayEntry | undefined): string[] => (pay ? [String(pay.annual), pay.currency, pay.date, pay.frequency] : ['', '', '', '']);

/** The group named in the settings, and the day whose pay is in force. */
export interface HistoryOptions {
  group: string;
  day: string;
}

/**
 * The report's entries as rows under its columns: the schema's fields first, then any the read
 * brought besides. With a history group, a row per dated entry of each worker (oldest first, the
 * worker's other fields on each), the history's columns leading so the suggestion takes pay from
 * them rather than from a pay-in-force field of the same report.
 */
export function reportTable(entries: readonly Entry[], schema: readonly string[], history?: HistoryOptions): { columns: string[]; rows: SourceRow[] } {
  const group = history?.group;
  const flat = entries.map((entry) => flatten(entry, group));
  // With a history, its columns take the place of the group's fields (and of report fields of the same names).
  const columns = group ? schema.filter((column) => column !== group && !column.startsWith(`${group}.`) && !(HISTORY_COLUMNS as readonly string[]).includes(column)) : [...schema];
  const known = new Set(columns);
  for (const cells of flat) {
    for (const column of cells.keys()) {
      if (!known.has(column)) {
        known.add(column);
        columns.push(column);
      }
    }
  }
  if (!history) return { columns, rows: flat.map((cells, index) => ({ line: index + 2, values: columns.map((column) => cells.get(column) ?? '') })) };
  const histories = payHistories(entries, history.group);
  const rows: SourceRow[] = [];
  flat.forEach((cells, index) => {
    const worker = columns.map((column) => cells.get(column) ?? '');
    // Line 2 for the first row, as if the report were a file with a header.
    for (const pay of payHistory(histories[index] ?? [], (entry) => entry.date, history.day)) rows.push({ line: rows.length + 2, values: [...payCells(pay), ...worker] });
  });
  return { columns: [...HISTORY_COLUMNS, ...columns], rows };
}

/**
 * Read without the setting, a history group's fields are columns of its first entry, which the
 * suggestion could take for the pay in force's date: the connection test says to name the group.
 */
function unnamedHistoryHint(columns: readonly string[]): string {
  if (!columns.some((column) => column.startsWith(`${HISTORY_GROUP}.`))) return '';
  return ` The report has a ${HISTORY_GROUP} group: name it as the compensation history group to read each worker’s pay history.`;
}

/** The history to read, when the settings name its group. */
function historyOf(settings: ConnectorSettings): HistoryOptions | undefined {
  const group = settings.values.compensationHistoryGroup?.trim();
  return group ? { group, day: new Date().toISOString().slice(0, 10) } : undefined;
}

export const workdayConnector: Connector = {
  kind: 'workday',
  displayName: 'Workday',
  category: 'hris',
  importKinds: ['employees'],
  fields: FIELDS,
  unavailableReason: undefined,
  importKind: () => 'employees',
  validate(settings) {
    const problems = checkFields(FIELDS, settings);
    const reportUrl = settings.values.reportUrl;
    if (reportUrl && !/^https?:\/\//i.test(reportUrl)) problems.push({ field: 'reportUrl', message: 'must be an http:// or https:// URL' });
    const needed = settings.values.authMethod === 'oauth' ? (['clientId', 'clientSecret', 'refreshToken'] as const) : settings.values.authMethod === 'basic' ? (['username', 'password'] as const) : [];
    for (const key of needed) {
      if (!(settings.values[key] || settings.secrets[key])) problems.push({ field: key, message: `is required for the ${settings.values.authMethod === 'oauth' ? 'OAuth' : 'basic'} sign-in` });
    }
    if (settings.values.authMethod === 'oauth' && !tokenUrlOf(settings)) problems.push({ field: 'tokenUrl', message: 'is required when the report URL is not a Workday RaaS address' });
    const prompt = settings.values.changedSincePrompt;
    if (prompt && !/^[A-Za-z][\w-]*$/.test(prompt)) problems.push({ field: 'changedSincePrompt', message: 'must be the prompt’s name as in the report’s URL (letters, digits, _ and -)' });
    const group = settings.values.compensationHistoryGroup?.trim();
    if (group && !/^[A-Za-z][\w-]*$/.test(group)) problems.push({ field: 'compensationHistoryGroup', message: `must be the group’s XML alias as in the report (letters, digits, _ and -), e.g. ${HISTORY_GROUP}` });
    return problems;
  },
  async test(settings, env) {
    try {
      const reportUrl = settings.values.reportUrl ?? '';
      const http = await reportClient(settings, env);
      const { entries } = await readReport(http, reportUrl, {});
      const history = historyOf(settings);
      const columns = reportTable(entries, await schemaColumns(http, reportUrl), history).columns;
      const hint = history ? '' : unnamedHistoryHint(columns);
      if (!entries.length) return { ok: true, message: `Connected to Workday: the report answers, but lists no workers yet.${hint}` };
      return { ok: true, message: `Connected to Workday: the report lists ${entries.length} workers with ${columns.length} fields.${hint}` };
    } catch (error) {
      if (error instanceof ConnectorError) return { ok: false, message: error.message };
      throw error;
    }
  },
  async fetch(settings, env, onRows, request) {
    const prompt = settings.values.changedSincePrompt;
    const since = prompt ? (request?.since ?? null) : null;
    const started = Date.now();
    const reportUrl = settings.values.reportUrl ?? '';
    const http = await reportClient(settings, env);
    const report = await readReport(http, reportUrl, since && prompt ? { [prompt]: since } : {});
    await onRows(report.entries.length);
    const { columns, rows } = reportTable(report.entries, await schemaColumns(http, reportUrl), historyOf(settings));
    env.log.info({ calls: http.stats.calls, retries: http.stats.retries, waitedMs: http.stats.waitedMs, workers: report.entries.length, rows: rows.length, incremental: since !== null }, 'Workday read');
    const table = { columns, rows, rowCount: rows.length, incremental: since !== null };
    return prompt ? { ...table, cursor: promptTime((report.serverTime ?? started) - CURSOR_MARGIN_MS) } : table;
  },
};
