/*
 * A Personio API for tests, speaking the parts Paybench calls as Personio documents them:
 *   - https://developer.personio.de/reference/post_auth-1 and the Personnel Data OpenAPI
 *     (github.com/personio/api-docs, personio-personnel-data-api-oa3.yaml) — POST /auth with
 *     client_id and client_secret gives { success: true, data: { token } }; calls carry
 *     "Authorization: Bearer <token>", and each answered call hands back the token of the next one
 *     in its Authorization header (the one used is then spent).
 *   - https://developer.personio.de/reference/get_company-employees — GET /company/employees with
 *     limit (at most 100 a page, https://developer.personio.de/changelog/pagination-enforcement-v1-employees-api),
 *     offset (the first item to return), attributes[] and updated_since (ISO 8601 without a zone);
 *     answers { success, metadata: { total_elements, current_page, total_pages }, offset, limit,
 *     data: [{ type: 'Employee', attributes: { <name>: { label, value, type, universal_id } } }] },
 *     department, office and subcompany as { type, attributes: { id, name } }, the supervisor as an
 *     Employee object, dates as times with an offset, fix_salary with fix_salary_interval.
 *   - Attributes the credentials may not read are left out, not refused ("the updated_since filter is
 *     applied only to attributes that are whitelisted as part of the API Credentials").
 *   - https://developer.personio.de/changelog/rate-limits-on-get-employees-endpoint-may-6-2024 —
 *     too many requests is a 429 (no Retry-After; retry after at least a second).
 * Errors are { success: false, error: { code, message } }. Served under /v1, as at
 * https://api.personio.de/v1.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { closeLocally, listenLocally } from '../localServer.js';

export interface PersonioPerson {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  position: string;
  department: string;
  office: string;
  supervisorId: number | null;
  hire_date: string;
  termination_date: string | null;
  status: 'active' | 'inactive' | 'onboarding' | 'leave';
  employment_type: 'internal' | 'external';
  weekly_working_hours: string;
  subcompany: string;
  gender: string;
  fix_salary: number;
  fix_salary_interval: 'monthly' | 'yearly';
  hourly_salary: number;
  /** ISO 8601 UTC. */
  last_modified_at: string;
}

interface Client {
  secret: string;
  /** Employees: read. */
  readEmployees: boolean;
  /** Attributes the credentials may read. */
  readable: ReadonlySet<string>;
}

const ALL_ATTRIBUTES = [
  'id', 'first_name', 'last_name', 'email', 'position', 'department', 'office', 'supervisor', 'hire_date', 'termination_date', 'status', 'employment_type',
  'weekly_working_hours', 'subcompany', 'gender', 'fix_salary', 'fix_salary_interval', 'hourly_salary', 'last_modified_at',
];
const MAX_LIMIT = 100;

export class PersonioTestServer {
  readonly server: Server;
  readonly clientId = 'papi-client-1';
  readonly clientSecret = 'papi-secret-1';
  /** Credentials without read access to employees. */
  readonly noEmployeesClientId = 'papi-client-2';
  /** Credentials whose readable attributes leave out the salary. */
  readonly noSalaryClientId = 'papi-client-3';
  readonly people: PersonioPerson[] = [];
  rateLimitNext = 0;
  /** Pages starting at or after this offset answer 500: a sync failing after its first page. */
  failFromOffset: number | null = null;
  readonly calls: string[] = [];
  private readonly clients = new Map<string, Client>();
  /** Live tokens and whose they are. */
  private readonly tokens = new Map<string, Client>();
  private offsetMs = 0;

  constructor() {
    const all = new Set(ALL_ATTRIBUTES);
    this.clients.set(this.clientId, { secret: this.clientSecret, readEmployees: true, readable: all });
    this.clients.set(this.noEmployeesClientId, { secret: 'papi-secret-2', readEmployees: false, readable: all });
    this.clients.set(this.noSalaryClientId, { secret: 'papi-secret-3', readEmployees: true, readable: new Set(ALL_ATTRIBUTES.filter((name) => !name.includes('salary'))) });
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => this.refuse(res, 500, String(error)));
    });
  }

  secretOf(clientId: string): string {
    return this.clients.get(clientId)?.secret ?? '';
  }

  start(): Promise<string> {
    return listenLocally(this.server, '/v1');
  }

  stop(): Promise<void> {
    return closeLocally(this.server);
  }

  now(): string {
    return new Date(Date.now() + this.offsetMs).toISOString();
  }

  /** Moves Personio's clock on, as if time passed between two syncs. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  add(person: Omit<PersonioPerson, 'last_modified_at'>, lastModified = this.now()): void {
    this.people.push({ ...person, last_modified_at: lastModified });
  }

  update(id: number, changes: Partial<PersonioPerson>): void {
    const person = this.people.find((candidate) => candidate.id === id);
    if (!person) throw new Error(`no employee ${id}`);
    Object.assign(person, changes, { last_modified_at: this.now() });
  }

  private refuse(res: ServerResponse, status: number, message: string): void {
    if (res.headersSent) return void res.end();
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ success: false, error: { code: status === 401 ? 0 : status, message } }));
  }

  private issue(client: Client): string {
    const token = randomUUID();
    this.tokens.set(token, client);
    return token;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://personio.test');
    this.calls.push(`${req.method} ${url.pathname}${url.search}`);
    res.setHeader('Date', new Date(this.now()).toUTCString());
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    if (this.rateLimitNext > 0) {
      this.rateLimitNext -= 1;
      return this.refuse(res, 429, 'Too Many Requests');
    }
    const path = url.pathname.replace(/^\/v1/, '').replace(/\/$/, '');
    if (req.method === 'POST' && path === '/auth') {
      let given: { client_id?: unknown; client_secret?: unknown } = { client_id: url.searchParams.get('client_id'), client_secret: url.searchParams.get('client_secret') };
      if (body) {
        try {
          given = { ...given, ...(JSON.parse(body) as typeof given) };
        } catch {
          return this.refuse(res, 400, 'The request body is not valid JSON.');
        }
      }
      const client = typeof given.client_id === 'string' ? this.clients.get(given.client_id) : undefined;
      if (!client || client.secret !== given.client_secret) return this.refuse(res, 401, 'Wrong credentials');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ success: true, data: { token: this.issue(client) } }));
      return;
    }
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const client = this.tokens.get(token);
    if (!client) return this.refuse(res, 401, 'The token is missing, invalid or was already used.');
    if (req.method === 'GET' && path === '/company/employees') {
      if (!client.readEmployees) return this.refuse(res, 403, 'Access to employees is not granted to these credentials.');
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 50), MAX_LIMIT);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(offset) || offset < 0) return this.refuse(res, 400, 'limit and offset must be whole numbers.');
      if (this.failFromOffset !== null && offset >= this.failFromOffset) return this.refuse(res, 500, 'Internal Server Error');
      const sinceText = url.searchParams.get('updated_since');
      const since = sinceText === null ? null : Date.parse(/[zZ]|[+-]\d{2}:\d{2}$/.test(sinceText) ? sinceText : `${sinceText}Z`);
      if (since !== null && Number.isNaN(since)) return this.refuse(res, 400, 'updated_since must be an ISO 8601 date and time.');
      const asked = url.searchParams.getAll('attributes[]');
      const attributes = (asked.length ? asked : ALL_ATTRIBUTES).filter((name) => client.readable.has(name));
      const matching = this.people.filter((person) => since === null || Date.parse(person.last_modified_at) >= since);
      const page = matching.slice(offset, offset + limit);
      // The token used is spent; the answer carries the next one.
      this.tokens.delete(token);
      res.writeHead(200, { 'Content-Type': 'application/json', Authorization: `Bearer ${this.issue(client)}` }).end(
        JSON.stringify({
          success: true,
          metadata: { total_elements: matching.length, current_page: Math.floor(offset / limit), total_pages: Math.ceil(matching.length / limit) },
          offset,
          limit,
          data: page.map((person) => ({ type: 'Employee', attributes: this.attributesOf(person, ['id', ...attributes]) })),
        }),
      );
      return;
    }
    return this.refuse(res, 404, 'Not found');
  }

  private attributesOf(person: PersonioPerson, names: string[]): Record<string, { label: string; value: unknown; type: string; universal_id: string }> {
    const object = (type: string, id: number, name: string) => ({ type, attributes: { id, name } });
    const values: Record<string, [unknown, string]> = {
      id: [person.id, 'integer'],
      first_name: [person.first_name, 'standard'],
      last_name: [person.last_name, 'standard'],
      email: [person.email, 'standard'],
      position: [person.position, 'standard'],
      department: [object('Department', 281521, person.department), 'standard'],
      office: [object('Office', 131014, person.office), 'standard'],
      supervisor: [person.supervisorId === null ? null : { type: 'Employee', attributes: { id: { label: 'ID', value: person.supervisorId, type: 'integer', universal_id: 'id' } } }, 'standard'],
      hire_date: [`${person.hire_date}T00:00:00+01:00`, 'date'],
      termination_date: [person.termination_date ? `${person.termination_date}T00:00:00+01:00` : null, 'date'],
      status: [person.status, 'standard'],
      employment_type: [person.employment_type, 'standard'],
      weekly_working_hours: [person.weekly_working_hours, 'standard'],
      subcompany: [object('Subcompany', 7033, person.subcompany), 'standard'],
      gender: [person.gender, 'standard'],
      fix_salary: [person.fix_salary, 'decimal'],
      fix_salary_interval: [person.fix_salary_interval, 'standard'],
      hourly_salary: [person.hourly_salary, 'decimal'],
      last_modified_at: [person.last_modified_at.replace(/\.\d{3}Z$/, '+00:00'), 'date'],
    };
    const attributes: Record<string, { label: string; value: unknown; type: string; universal_id: string }> = {};
    for (const name of names) {
      const found = values[name];
      if (found) attributes[name] = { label: name.replace(/_/g, ' '), value: found[0], type: found[1], universal_id: name };
    }
    return attributes;
  }
}
