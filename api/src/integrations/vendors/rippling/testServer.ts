/*
 * A Rippling REST API for tests, speaking the parts Paybench calls as Rippling documents them
 * (https://developer.rippling.com/documentation/rest-api):
 *   - base https://rest.ripplingapis.com, resources as root-level plural collections: GET /workers,
 *     GET /work-locations; "Authorization: Bearer <API token>";
 *   - cursor pagination: limit (at most 100) and cursor; every list answers
 *     { __meta: { redacted_fields: [{ name, reason }] }, results: [...], next_link } with next_link
 *     the full address of the next page, null on the last;
 *   - expand= embeds related objects: user (name: given_name, family_name, preferred_given_name),
 *     department (name), employment_type (type: SALARIED_FT, SALARIED_PT, HOURLY_FT, HOURLY_PT,
 *     CONTRACTOR, TEMP), compensation (annual_salary_equivalent { currency_type, value },
 *     target_annual_bonus_percent), legal_entity (legal_name);
 *   - a worker: id, number, work_email, title, manager_id, location { type, work_location_id },
 *     country, start_date, end_date, status (INIT, HIRED, ACCEPTED, ACTIVE, TERMINATED), gender;
 *     a work location: id, name, address { locality, country };
 *   - fields a token may not read come back null and are named in __meta.redacted_fields;
 *   - a wrong token is 401, a token without a scope 403, too many requests 429 with Retry-After.
 * Errors are JSON { type, title, detail }.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { closeLocally, listenLocally } from '../localServer.js';

export interface RipplingPerson {
  id: string;
  number: string;
  givenName: string;
  familyName: string;
  title: string;
  department: string;
  managerId: string | null;
  workLocationId: string | null;
  country: string;
  startDate: string;
  endDate: string | null;
  status: 'INIT' | 'HIRED' | 'ACCEPTED' | 'ACTIVE' | 'TERMINATED';
  employmentType: 'SALARIED_FT' | 'SALARIED_PT' | 'HOURLY_FT' | 'HOURLY_PT' | 'CONTRACTOR' | 'TEMP';
  legalEntity: string;
  /** Annual salary equivalent. */
  salary: number;
  currency: string;
  bonusPercent: number | null;
  gender: string | null;
}

interface Token {
  workers: boolean;
  compensation: boolean;
}

const MAX_LIMIT = 100;

export class RipplingTestServer {
  readonly server: Server;
  readonly apiToken = 'rippling-token-1';
  /** A token without the workers scope. */
  readonly noWorkersToken = 'rippling-token-2';
  /** A token that may read workers but not compensation. */
  readonly noPayToken = 'rippling-token-3';
  readonly people: RipplingPerson[] = [];
  readonly locations = [
    { id: 'wl-1', name: 'HQ', address: { locality: 'San Francisco', country: 'US' } },
    { id: 'wl-2', name: 'London office', address: { locality: 'London', country: 'GB' } },
  ];
  rateLimitNext = 0;
  /** Worker pages from this offset on answer 503: a sync failing after its first page. */
  failFromOffset: number | null = null;
  readonly calls: string[] = [];
  private baseUrl = '';
  private readonly tokens = new Map<string, Token>([
    [this.apiToken, { workers: true, compensation: true }],
    [this.noWorkersToken, { workers: false, compensation: false }],
    [this.noPayToken, { workers: true, compensation: false }],
  ]);

  constructor() {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => this.refuse(res, 500, String(error)));
    });
  }

  async start(): Promise<string> {
    this.baseUrl = await listenLocally(this.server, '');
    return this.baseUrl;
  }

  stop(): Promise<void> {
    return closeLocally(this.server);
  }

  update(id: string, changes: Partial<RipplingPerson>): void {
    const person = this.people.find((candidate) => candidate.id === id);
    if (!person) throw new Error(`no worker ${id}`);
    Object.assign(person, changes);
  }

  private refuse(res: ServerResponse, status: number, detail: string, headers: Record<string, string> = {}): void {
    if (res.headersSent) return void res.end();
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify({ type: 'error', title: String(status), detail }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://rippling.test');
    this.calls.push(`${req.method} ${url.pathname}${url.search}`);
    for await (const chunk of req) void chunk;
    const header = req.headers.authorization ?? '';
    const token = this.tokens.get(header.startsWith('Bearer ') ? header.slice(7) : '');
    if (!token) return this.refuse(res, 401, 'Invalid token.');
    if (this.rateLimitNext > 0) {
      this.rateLimitNext -= 1;
      return this.refuse(res, 429, 'Rate limit exceeded.', { 'Retry-After': '1' });
    }
    if (req.method !== 'GET') return this.refuse(res, 405, 'Method not allowed.');
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), MAX_LIMIT);
    const offset = Number(Buffer.from(url.searchParams.get('cursor') ?? 'MA==', 'base64').toString('utf8'));
    if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(offset) || offset < 0) return this.refuse(res, 400, 'Invalid limit or cursor.');
    if (url.pathname === '/work-locations') return this.page(res, url, { items: this.locations, offset, limit, redacted: [] });
    if (url.pathname !== '/workers') return this.refuse(res, 404, 'Not found.');
    if (!token.workers) return this.refuse(res, 403, 'The token does not have the scope workers.read.');
    if (this.failFromOffset !== null && offset >= this.failFromOffset) return this.refuse(res, 503, 'Service unavailable.');
    const expand = new Set((url.searchParams.get('expand') ?? '').split(',').filter(Boolean));
    const redacted = token.compensation || !expand.has('compensation') ? [] : [{ name: 'compensation', reason: 'Insufficient permissions' }];
    return this.page(res, url, { items: this.people.map((person) => this.worker(person, expand, token)), offset, limit, redacted });
  }

  private page(res: ServerResponse, url: URL, page: { items: unknown[]; offset: number; limit: number; redacted: { name: string; reason: string }[] }): void {
    const end = page.offset + page.limit;
    let next: string | null = null;
    if (end < page.items.length) {
      const link = new URL(`${this.baseUrl}${url.pathname}`);
      for (const [key, value] of url.searchParams) if (key !== 'cursor') link.searchParams.set(key, value);
      link.searchParams.set('cursor', Buffer.from(String(end)).toString('base64'));
      next = link.toString();
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ __meta: { redacted_fields: page.redacted }, results: page.items.slice(page.offset, end), next_link: next }));
  }

  private worker(person: RipplingPerson, expand: ReadonlySet<string>, token: Token): Record<string, unknown> {
    const id = (kind: string, name: string) => `${kind}-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
    return {
      id: person.id,
      created_at: '2021-01-01T00:00:00Z',
      updated_at: '2025-01-01T00:00:00Z',
      user_id: `user-${person.id}`,
      ...(expand.has('user') ? { user: { id: `user-${person.id}`, name: { given_name: person.givenName, family_name: person.familyName, preferred_given_name: null } } } : {}),
      number: person.number,
      work_email: `${person.givenName.toLowerCase()}@rippling.test`,
      title: person.title,
      department_id: id('dept', person.department),
      ...(expand.has('department') ? { department: { id: id('dept', person.department), name: person.department } } : {}),
      manager_id: person.managerId,
      location: person.workLocationId ? { type: 'WORK', work_location_id: person.workLocationId } : { type: 'REMOTE', work_location_id: null },
      country: person.country,
      start_date: person.startDate,
      end_date: person.endDate,
      status: person.status,
      employment_type_id: id('et', person.employmentType),
      ...(expand.has('employment_type') ? { employment_type: { id: id('et', person.employmentType), type: person.employmentType } } : {}),
      legal_entity_id: id('le', person.legalEntity),
      ...(expand.has('legal_entity') ? { legal_entity: { id: id('le', person.legalEntity), legal_name: person.legalEntity } } : {}),
      compensation_id: `comp-${person.id}`,
      ...(expand.has('compensation')
        ? {
            compensation: token.compensation
              ? { id: `comp-${person.id}`, annual_salary_equivalent: { currency_type: person.currency, value: person.salary }, target_annual_bonus_percent: person.bonusPercent }
              : null,
          }
        : {}),
      gender: person.gender,
    };
  }
}
