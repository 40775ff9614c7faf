/*
 * A HiBob ("Bob") API for tests, speaking the parts Paybench calls as Bob documents them:
 *   - https://apidocs.hibob.com/reference/post_people-search and
 *     https://apidocs.hibob.com/docs/people-read-api-contract — POST /people/search with { fields,
 *     filters, showInactive, humanReadable }: every matching employee in one { employees: [...] }
 *     answer (no pages), active employees only unless showInactive, fields grouped by category
 *     ({ id, firstName, surname, email, work: { … }, internal: { … } }), fields the service user may
 *     not see or that do not exist silently left out.
 *   - https://apidocs.hibob.com/reference/get_bulk-people-salaries and
 *     https://apidocs.hibob.com/reference/get_bulk-people-work — the bulk table reads, each
 *     { results: [{ employeeId, values: [entries] }], response_metadata: { next_cursor } }; salary
 *     entries { id, effectiveDate, endEffectiveDate, base: { value, currency }, payPeriod,
 *     payFrequency, reason }, work entries { id, effectiveDate, title, department, site, reportsTo }.
 *   - https://apidocs.hibob.com/reference/pagination-1 — cursor and limit (default 50, at most 200,
 *     more is a 400).
 *   - https://apidocs.hibob.com/reference/rate-limiting — 429 when a limit is passed, with the
 *     X-RateLimit-* headers (X-RateLimit-Reset a Unix time in seconds) and no Retry-After.
 *   - https://apidocs.hibob.com/reference/error-handling — 401 for credentials Bob does not know,
 *     403 for a service user whose permission group lacks what the call reads, JSON error bodies.
 * Authentication is HTTP basic with the service user's id and token. Served under /v1, as at
 * https://api.hibob.com/v1.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { closeLocally, listenLocally } from '../localServer.js';

export interface BobPerson {
  id: string;
  firstName: string;
  surname: string;
  email: string;
  startDate: string;
  employmentType: string;
  status: 'Active' | 'Inactive';
  terminationDate: string | null;
}

export interface BobSalaryEntry {
  effectiveDate: string;
  value: number;
  currency: string;
  payPeriod: 'Annual' | 'Monthly' | 'Weekly' | 'Daily' | 'Hourly';
  reason?: string;
}

export interface BobWorkEntry {
  effectiveDate: string;
  title: string;
  department: string;
  site: string;
  reportsTo: string | null;
}

/** What a service user's permission group lets it read. */
interface ServiceUser {
  token: string;
  /** People's data › Basic info: names and e-mail in the search. */
  basicInfo: boolean;
  workHistory: boolean;
  payrollHistory: boolean;
}

const MAX_LIMIT = 200;

export class HiBobTestServer {
  readonly server: Server;
  readonly serviceUserId = 'SERVICE-1001';
  readonly serviceUserToken = 'bob-token-1001';
  /** A service user whose group cannot see payroll histories. */
  readonly noPayrollUserId = 'SERVICE-1002';
  /** A service user whose group cannot see basic info (the search leaves names out). */
  readonly noBasicInfoUserId = 'SERVICE-1003';
  readonly people: BobPerson[] = [];
  readonly salaries = new Map<string, BobSalaryEntry[]>();
  readonly work = new Map<string, BobWorkEntry[]>();
  /** The next this many calls are refused with 429. */
  rateLimitNext = 0;
  /** The salary table answers 500 (the search and work history still work): a sync failing half-way. */
  failSalaries = false;
  readonly calls: string[] = [];
  private readonly users = new Map<string, ServiceUser>();
  private entryIds = 0;

  constructor() {
    this.users.set(this.serviceUserId, { token: this.serviceUserToken, basicInfo: true, workHistory: true, payrollHistory: true });
    this.users.set(this.noPayrollUserId, { token: 'bob-token-1002', basicInfo: true, workHistory: true, payrollHistory: false });
    this.users.set(this.noBasicInfoUserId, { token: 'bob-token-1003', basicInfo: false, workHistory: true, payrollHistory: true });
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => this.error(res, 500, 'Internal Server Error', String(error)));
    });
  }

  tokenOf(userId: string): string {
    return this.users.get(userId)?.token ?? '';
  }

  start(): Promise<string> {
    return listenLocally(this.server, '/v1');
  }

  stop(): Promise<void> {
    return closeLocally(this.server);
  }

  addPerson(person: BobPerson, work: BobWorkEntry[], salaries: BobSalaryEntry[]): void {
    this.people.push(person);
    this.work.set(person.id, [...work]);
    this.salaries.set(person.id, [...salaries]);
  }

  private error(res: ServerResponse, status: number, error: string, message: string, headers: Record<string, string> = {}): void {
    if (res.headersSent) return void res.end();
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify({ error, message, statusCode: status, timestamp: new Date().toISOString() }));
  }

  private send(res: ServerResponse, body: unknown): void {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  }

  private userOf(req: IncomingMessage): ServiceUser | undefined {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return undefined;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const user = this.users.get(decoded.slice(0, colon));
    return user && user.token === decoded.slice(colon + 1) ? user : undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://hibob.test');
    this.calls.push(`${req.method} ${url.pathname}${url.search}`);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const user = this.userOf(req);
    if (!user) return this.error(res, 401, 'Unauthorized', 'Service user credentials are invalid.');
    if (this.rateLimitNext > 0) {
      this.rateLimitNext -= 1;
      const reset = Math.ceil(Date.now() / 1000) + 1;
      return this.error(res, 429, 'Too Many Requests', 'Rate limit exceeded.', { 'X-RateLimit-Limit': '50', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(reset) });
    }
    const path = url.pathname.replace(/^\/v1/, '').replace(/\/$/, '');
    if (req.method === 'POST' && path === '/people/search') return this.search(req, body, user, res);
    if (req.method === 'GET' && path === '/bulk/people/salaries') {
      if (!user.payrollHistory) return this.error(res, 403, 'Forbidden', 'The service user has no permission to view payroll section histories.');
      if (this.failSalaries) return this.error(res, 500, 'Internal Server Error', 'Something went wrong.');
      return this.bulk(url, res, (id) =>
        (this.salaries.get(id) ?? []).map((entry) => ({
          id: this.nextEntryId(),
          effectiveDate: entry.effectiveDate,
          endEffectiveDate: null,
          base: { value: entry.value, currency: entry.currency },
          payPeriod: entry.payPeriod,
          payFrequency: 'Monthly',
          reason: entry.reason ?? null,
        })),
      );
    }
    if (req.method === 'GET' && path === '/bulk/people/work') {
      if (!user.workHistory) return this.error(res, 403, 'Forbidden', 'The service user has no permission to view work section histories.');
      return this.bulk(url, res, (id) =>
        (this.work.get(id) ?? []).map((entry) => ({
          id: this.nextEntryId(),
          effectiveDate: entry.effectiveDate,
          title: entry.title,
          department: entry.department,
          site: entry.site,
          reportsTo: entry.reportsTo ? { id: entry.reportsTo, displayName: this.people.find((person) => person.id === entry.reportsTo)?.firstName ?? null } : null,
        })),
      );
    }
    return this.error(res, 404, 'Not Found', `No route for ${req.method} ${url.pathname}.`);
  }

  private nextEntryId(): number {
    this.entryIds += 1;
    return this.entryIds;
  }

  private search(req: IncomingMessage, body: string, user: ServiceUser, res: ServerResponse): void {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) return this.error(res, 415, 'Unsupported Media Type', 'Send the search as application/json.');
    let request: { fields?: unknown; showInactive?: unknown; humanReadable?: unknown };
    try {
      request = JSON.parse(body || '{}') as typeof request;
    } catch {
      return this.error(res, 400, 'Bad Request', 'The request body is not valid JSON.');
    }
    const fields = Array.isArray(request.fields) ? request.fields.filter((field): field is string => typeof field === 'string') : ['root.id', 'root.firstName', 'root.surname', 'root.email', 'work.startDate'];
    const visible = (field: string) => user.basicInfo || !['root.firstName', 'root.surname', 'root.email'].includes(field);
    const employees = this.people
      .filter((person) => request.showInactive === true || person.status === 'Active')
      .map((person) => {
        const values: Record<string, unknown> = {
          'root.id': person.id,
          'root.firstName': person.firstName,
          'root.surname': person.surname,
          'root.email': person.email,
          'work.startDate': person.startDate,
          'payroll.employment.type': person.employmentType,
          'internal.status': person.status,
          'internal.terminationDate': person.terminationDate,
        };
        const employee: Record<string, unknown> = { id: person.id };
        for (const field of fields) {
          if (!(field in values) || !visible(field)) continue;
          const parts = field.replace(/^root\./, '').split('.');
          let target = employee;
          for (const part of parts.slice(0, -1)) target = (target[part] ??= {}) as Record<string, unknown>;
          target[parts[parts.length - 1] as string] = values[field];
        }
        return employee;
      });
    this.send(res, { employees });
  }

  /** A cursor page over the employees' entries of a table: the cursor is where the next page starts. */
  private bulk(url: URL, res: ServerResponse, entriesOf: (id: string) => Record<string, unknown>[]): void {
    const limitText = url.searchParams.get('limit');
    const limit = limitText === null ? 50 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return this.error(res, 400, 'Bad Request', `limit must be between 1 and ${MAX_LIMIT}.`);
    const cursor = url.searchParams.get('cursor');
    const start = cursor ? Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^offset:/, '')) : 0;
    if (!Number.isInteger(start) || start < 0) return this.error(res, 400, 'Bad Request', 'The cursor is not valid.');
    const results = this.people.slice(start, start + limit).map((person) => ({ employeeId: person.id, values: entriesOf(person.id) }));
    const end = start + results.length;
    const next = end < this.people.length ? Buffer.from(`offset:${end}`).toString('base64url') : null;
    this.send(res, { results, response_metadata: { next_cursor: next }, errors: [] });
  }
}
