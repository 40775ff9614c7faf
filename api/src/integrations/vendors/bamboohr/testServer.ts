/*
 * A BambooHR API for tests and the sync benchmark, speaking the parts Paybench calls as BambooHR
 * documents them:
 *   - https://documentation.bamboohr.com/reference/request-custom-report — POST /reports/custom,
 *     format=JSON, a JSON body only with Content-Type exactly application/json (else the body is read
 *     as XML: 400), unknown fields silently left out, filters.lastChanged, all employees whatever
 *     their status; answers { title, fields: [{ id, type, name }], employees: [{ id, … }] }.
 *   - https://documentation.bamboohr.com/reference/get-changed-employee-table-data — GET
 *     /employees/changed/tables/{table}?since=…: every row of each employee changed since then,
 *     { table, employees: { "<id>": { lastChanged, rows: [...] } } }, rates as "75000 USD".
 *   - https://documentation.bamboohr.com/reference/get-changed-employee-ids — the `since` formats
 *     (ISO 8601, Z or an offset) and that compensation and job-info changes count as changes.
 *   - https://www.bamboohr.com/api/documentation/tables.php — the compensation table's columns
 *     (startDate, rate, type, reason, paidPer: Hour, Day, Week, Month, Quarter, Year) and
 *     GET /employees/{id|all}/tables/{table}.
 *   - https://www.bamboohr.com/api/documentation/employees.php — field names (firstName, workEmail,
 *     jobTitle, department, division, location, country, hireDate, terminationDate, status,
 *     employmentHistoryStatus, supervisorEId, gender, ethnicity) and "0000-00-00" as an empty date.
 * Authentication is HTTP basic with the API key as the user and any password; a refused call says why
 * in the X-BambooHR-Error-Message header. Rate limiting is a 429 with Retry-After (seconds).
 * The API is served under /api/v1, as at https://{companyDomain}.bamboohr.com/api/v1.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { closeLocally, listenLocally } from '../localServer.js';

export interface BambooEmployee {
  id: string;
  fields: Record<string, string | null>;
  /** When the record (any field or table row) last changed, ISO 8601 UTC. */
  lastChanged: string;
}

export interface BambooCompensationRow {
  id: string;
  employeeId: string;
  startDate: string;
  endDate: string | null;
  /** "120000.00 USD". */
  rate: string;
  type: string;
  reason: string;
  paidPer: string;
}

/** Field types the report's `fields` list gives, for the fields it knows. */
const KNOWN_FIELDS: Record<string, { type: string; name: string }> = {
  employeeNumber: { type: 'text', name: 'Employee #' },
  firstName: { type: 'text', name: 'First Name' },
  lastName: { type: 'text', name: 'Last Name' },
  workEmail: { type: 'email', name: 'Work Email' },
  jobTitle: { type: 'list', name: 'Job Title' },
  department: { type: 'list', name: 'Department' },
  division: { type: 'list', name: 'Division' },
  location: { type: 'list', name: 'Location' },
  country: { type: 'country', name: 'Country' },
  hireDate: { type: 'date', name: 'Hire Date' },
  terminationDate: { type: 'date', name: 'Termination Date' },
  status: { type: 'status', name: 'Status' },
  employmentHistoryStatus: { type: 'list', name: 'Employment Status' },
  supervisorEId: { type: 'employee', name: 'Supervisor EID' },
  gender: { type: 'gender', name: 'Gender' },
  ethnicity: { type: 'list', name: 'Ethnicity' },
};

export class BambooHrTestServer {
  readonly server: Server;
  readonly companyDomain = 'acme';
  apiKey = 'bamboo-test-key';
  /** A key whose user cannot see compensation. */
  readonly limitedKey = 'bamboo-limited-key';
  employees: BambooEmployee[] = [];
  compensation: BambooCompensationRow[] = [];
  /** The next this many calls are refused with 429 and Retry-After. */
  rateLimitNext = 0;
  retryAfterSeconds = 1;
  /** The compensation endpoints answer 500 (the report still works): a sync that fails half-way through reading. */
  failCompensation = false;
  /** Every call: method, path and query. */
  readonly calls: string[] = [];
  private rowIds = 0;
  private readonly byId = new Map<string, BambooEmployee>();
  private readonly payOf = new Map<string, BambooCompensationRow[]>();
  /** How far this server's clock runs ahead of the machine's: tests move BambooHR's time on. */
  private offsetMs = 0;

  constructor() {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'X-BambooHR-Error-Message': String(error) }).end();
      });
    });
  }

  start(): Promise<string> {
    return listenLocally(this.server, '/api/v1');
  }

  stop(): Promise<void> {
    return closeLocally(this.server);
  }

  /** BambooHR's time now (its Date header, and when records change). */
  now(): string {
    return new Date(Date.now() + this.offsetMs).toISOString();
  }

  /** Moves BambooHR's clock on, as if time passed between two syncs. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  addEmployee(id: string, fields: Record<string, string | null>, lastChanged = this.now()): void {
    const employee = { id, fields, lastChanged };
    this.employees.push(employee);
    this.byId.set(id, employee);
  }

  addCompensation(employeeId: string, row: { startDate: string; rate: string; paidPer?: string; type?: string; reason?: string }, lastChanged = this.now()): void {
    this.rowIds += 1;
    const added: BambooCompensationRow = { id: String(this.rowIds), employeeId, startDate: row.startDate, endDate: null, rate: row.rate, type: row.type ?? 'Salary', reason: row.reason ?? '', paidPer: row.paidPer ?? 'Year' };
    this.compensation.push(added);
    const rows = this.payOf.get(employeeId);
    if (rows) rows.push(added);
    else this.payOf.set(employeeId, [added]);
    this.touch(employeeId, lastChanged);
  }

  /** Changes fields of an employee, as an HR admin would in BambooHR. */
  update(id: string, fields: Record<string, string | null>, lastChanged = this.now()): void {
    const employee = this.byId.get(id);
    if (!employee) throw new Error(`no employee ${id}`);
    Object.assign(employee.fields, fields);
    employee.lastChanged = lastChanged;
  }

  touch(id: string, lastChanged: string): void {
    const employee = this.byId.get(id);
    if (employee && employee.lastChanged < lastChanged) employee.lastChanged = lastChanged;
  }

  private refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'X-BambooHR-Error-Message': message, ...headers }).end();
  }

  private send(res: ServerResponse, body: unknown): void {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  }

  private keyOf(req: IncomingMessage): string | undefined {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return undefined;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon < 0 ? decoded : decoded.slice(0, colon);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://bamboohr.test');
    this.calls.push(`${req.method} ${url.pathname}${url.search}`);
    res.setHeader('Date', new Date(this.now()).toUTCString());
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const key = this.keyOf(req);
    if (key !== this.apiKey && key !== this.limitedKey) return this.refuse(res, 401, 'Invalid API key');
    if (this.rateLimitNext > 0) {
      this.rateLimitNext -= 1;
      return this.refuse(res, 429, 'Limit exceeded', { 'Retry-After': String(this.retryAfterSeconds) });
    }
    const path = url.pathname.replace(/^\/api\/v1/, '').replace(/\/$/, '');
    if (req.method === 'POST' && path === '/reports/custom') return this.report(req, url, body, res);
    if (req.method === 'GET' && path === '/employees/all/tables/compensation') {
      if (key === this.limitedKey) return this.refuse(res, 403, 'You do not have access to this resource');
      if (this.failCompensation) return this.refuse(res, 500, 'Internal error');
      return this.send(res, this.compensation);
    }
    if (req.method === 'GET' && path === '/employees/changed/tables/compensation') {
      if (key === this.limitedKey) return this.refuse(res, 403, 'You do not have access to this resource');
      if (this.failCompensation) return this.refuse(res, 500, 'Internal error');
      const since = parseSince(url.searchParams.get('since'));
      if (since === undefined) return this.refuse(res, 400, 'Invalid "since" timestamp');
      const employees: Record<string, { lastChanged: string; rows: Omit<BambooCompensationRow, 'id' | 'employeeId'>[] }> = {};
      for (const employee of this.employees) {
        if (Date.parse(employee.lastChanged) < since) continue;
        const rows = (this.payOf.get(employee.id) ?? []).map(({ id: _id, employeeId: _employee, ...row }) => row);
        if (rows.length) employees[employee.id] = { lastChanged: employee.lastChanged, rows };
      }
      return this.send(res, { table: 'compensation', employees });
    }
    return this.refuse(res, 404, 'Not found');
  }

  private report(req: IncomingMessage, url: URL, body: string, res: ServerResponse): void {
    if ((url.searchParams.get('format') ?? '').toLowerCase() !== 'json') return this.refuse(res, 404, 'Unsupported format');
    if (req.headers['content-type'] !== 'application/json') return this.refuse(res, 400, 'Malformed XML');
    let request: { title?: string; fields?: unknown; filters?: { lastChanged?: { value?: string; includeNull?: string } } };
    try {
      request = JSON.parse(body) as typeof request;
    } catch {
      return this.refuse(res, 400, 'Malformed JSON');
    }
    if (!Array.isArray(request.fields) || request.fields.length > 400) return this.refuse(res, 400, 'fields must be a list of at most 400 field ids');
    const fields = (request.fields as unknown[]).filter((field): field is string => typeof field === 'string' && field in KNOWN_FIELDS);
    const changedSince = request.filters?.lastChanged?.value;
    const since = changedSince === undefined ? null : parseSince(changedSince);
    if (since === undefined) return this.refuse(res, 400, 'Invalid lastChanged filter');
    const employees = this.employees
      .filter((employee) => since === null || Date.parse(employee.lastChanged) >= since)
      .map((employee) => Object.fromEntries([['id', employee.id], ...fields.map((field) => [field, employee.fields[field] ?? null])]));
    this.send(res, { title: request.title ?? 'Report', fields: fields.map((id) => ({ id, ...KNOWN_FIELDS[id] })), employees });
  }
}

/** BambooHR's `since`: ISO 8601 with Z or an offset; undefined when unreadable. */
function parseSince(text: string | null): number | undefined {
  if (!text || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:?\d{2})$/.test(text)) return undefined;
  const time = Date.parse(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(time) ? undefined : time;
}
