/*
 * A Workday tenant for tests, serving a custom report as a service (RaaS) the way Workday documents it:
 *   - https://doc.workday.com/admin-guide/en-us/integration/workday-reports/report-as-a-service-raas.html
 *     (Report as a Service): an Advanced report enabled as a web service is served at
 *     /ccx/service/customreport2/{tenant}/{report owner}/{report name}; ?format=json answers
 *     { "Report_Entry": [ { <field alias>: value } ] } (a report without rows has no Report_Entry,
 *     and an entry leaves out the fields it has no value for); ?xsd answers the report's XML schema,
 *     Report_Data holding Report_Entry elements of a type that lists every field alias; the report's
 *     prompts are query parameters named after them (here a date-and-time prompt Changed_Since).
 *     Fields of a multi-instance related business object, added under a group (the group's column
 *     heading override XML alias), come as an array of objects under the group's alias, one per
 *     instance, each with the fields' aliases; the schema lists the group as an element of a complex
 *     type of its own (maxOccurs unbounded) that lists the fields. Here the group is a worker's
 *     compensation history, Compensation_History: Effective_Date, Base_Pay, Currency, Frequency.
 *   - Credentials: an integration system user with HTTP basic authentication, or OAuth 2.0 — an API
 *     client for integrations whose refresh token is exchanged at /ccx/oauth2/{tenant}/token
 *     (grant_type=refresh_token, the client id and secret by HTTP basic), answering
 *     { access_token, token_type: "Bearer" }; a wrong client is 401 invalid_client, a wrong or
 *     revoked refresh token 400 invalid_grant (RFC 6749 §5.2).
 *   - A report not shared with the user is refused 403 "The task submitted is not authorized.", a
 *     report that does not exist is 404, wrong credentials 401; Workday's API throttling answers
 *     429 with Retry-After. Errors are JSON { error, errors: [{ error }] }.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { closeLocally, listenLocally } from '../localServer.js';

/** An instance of a group: its fields' aliases and values. */
export type GroupInstance = Record<string, string | undefined>;

/** A worker as the report lists it: its field aliases and values (a group's instances as a list); undefined, '' or no instances leaves the field out. */
export type WorkdayWorker = Record<string, string | GroupInstance[] | undefined>;

/** The report's fields, in its column order (the XSD lists them so). */
export const REPORT_FIELDS = [
  'Employee_ID',
  'Legal_Name_-_First_Name',
  'Legal_Name_-_Last_Name',
  'Email_-_Primary_Work',
  'Business_Title',
  'Supervisory_Organization',
  'Manager_ID',
  'Location',
  'Country',
  'Hire_Date',
  'Termination_Date',
  'Worker_Status',
  'Time_Type',
  'FTE',
  'Company',
  'Total_Base_Pay_Annualized',
  'Currency',
  'Gender',
] as const;

/** The report's compensation history group and its fields. */
export const HISTORY_GROUP = 'Compensation_History';
export const HISTORY_FIELDS = ['Effective_Date', 'Base_Pay', 'Currency', 'Frequency'] as const;

const TENANT = 'acme';
const OWNER = 'ISU_Paybench';
const REPORT = 'Paybench_Workers';

export class WorkdayTestServer {
  readonly server: Server;
  readonly username = 'ISU_Paybench';
  readonly password = 'isu-password-1';
  /** A user the report is not shared with. */
  readonly unsharedUsername = 'ISU_Other';
  readonly clientId = 'NTk3ZWU2YTQtY2xpZW50';
  readonly clientSecret = 'client-secret-1';
  refreshToken = 'refresh-token-1';
  readonly workers: { worker: WorkdayWorker; changedAt: string }[] = [];
  /** The next report calls answer 429 with this Retry-After (seconds). */
  rateLimitNext = 0;
  retryAfterSeconds = '1';
  /** The next report calls answer 500. */
  failNext = 0;
  readonly calls: string[] = [];
  private readonly tokens = new Set<string>();
  private offsetMs = 0;

  constructor() {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => this.refuse(res, 500, String(error)));
    });
  }

  /** The tenant's base address; the report's URL is reportUrl(base). */
  start(): Promise<string> {
    return listenLocally(this.server, '');
  }

  stop(): Promise<void> {
    return closeLocally(this.server);
  }

  reportUrl(base: string, report = REPORT): string {
    return `${base}/ccx/service/customreport2/${TENANT}/${OWNER}/${report}`;
  }

  now(): string {
    return new Date(Date.now() + this.offsetMs).toISOString();
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  add(worker: WorkdayWorker, changedAt = this.now()): void {
    this.workers.push({ worker, changedAt });
  }

  update(id: string, changes: WorkdayWorker): void {
    const found = this.workers.find((entry) => entry.worker.Employee_ID === id);
    if (!found) throw new Error(`no worker ${id}`);
    Object.assign(found.worker, changes);
    found.changedAt = this.now();
  }

  private refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
    if (res.headersSent) return void res.end();
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify({ error: message, errors: [{ error: message }] }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://workday.test');
    this.calls.push(`${req.method} ${url.pathname}${url.search}`);
    res.setHeader('Date', new Date(this.now()).toUTCString());
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const header = req.headers.authorization ?? '';
    if (req.method === 'POST' && url.pathname === `/ccx/oauth2/${TENANT}/token`) return this.token(res, header, new URLSearchParams(body));
    const reportPath = new RegExp(`^/ccx/service/customreport2/${TENANT}/${OWNER}/([^/]+)$`).exec(url.pathname);
    if (req.method !== 'GET' || !reportPath) return this.refuse(res, 404, 'Resource not found');
    const user = this.userOf(header);
    if (!user) return this.refuse(res, 401, 'Unauthorized', { 'WWW-Authenticate': 'Basic realm="Workday"' });
    if (reportPath[1] !== REPORT) return this.refuse(res, 404, 'Resource not found');
    if (user === this.unsharedUsername) return this.refuse(res, 403, 'The task submitted is not authorized.');
    if (this.rateLimitNext > 0) {
      this.rateLimitNext -= 1;
      return this.refuse(res, 429, 'Too many requests', { 'Retry-After': this.retryAfterSeconds });
    }
    if (url.searchParams.has('xsd')) {
      res.writeHead(200, { 'Content-Type': 'application/xml' }).end(this.xsd());
      return;
    }
    if (this.failNext > 0) {
      this.failNext -= 1;
      return this.refuse(res, 500, 'An internal error occurred.');
    }
    if (url.searchParams.get('format') !== 'json') return this.refuse(res, 400, 'This test tenant serves format=json.');
    const sinceText = url.searchParams.get('Changed_Since');
    const since = sinceText === null ? null : Date.parse(sinceText);
    if (since !== null && Number.isNaN(since)) return this.refuse(res, 400, `Invalid value for prompt Changed_Since: ${sinceText}`);
    const entries = this.workers
      .filter((entry) => since === null || Date.parse(entry.changedAt) >= since)
      .map(({ worker }) => Object.fromEntries(Object.entries(worker).filter(([, value]) => value !== undefined && value !== '' && !(Array.isArray(value) && !value.length))));
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(entries.length ? { Report_Entry: entries } : {}));
  }

  /** Basic: the user name when the password is right; Bearer: the ISU when the token was issued. */
  private userOf(header: string): string | undefined {
    if (header.startsWith('Bearer ')) return this.tokens.has(header.slice(7)) ? this.username : undefined;
    if (!header.startsWith('Basic ')) return undefined;
    const [user, password] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    if (user === this.username && password === this.password) return user;
    if (user === this.unsharedUsername && password === this.password) return user;
    return undefined;
  }

  private token(res: ServerResponse, header: string, form: URLSearchParams): void {
    const [id, secret] = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8').split(':') : [];
    if (id !== this.clientId || secret !== this.clientSecret) {
      res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client' }));
      return;
    }
    if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== this.refreshToken) {
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant' }));
      return;
    }
    const token = randomUUID();
    this.tokens.add(token);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ access_token: token, token_type: 'Bearer', refresh_token: this.refreshToken }));
  }

  private xsd(): string {
    const elements = [
      ...REPORT_FIELDS.map((name) => `      <xsd:element name="${name}" type="xsd:string" minOccurs="0"/>`),
      `      <xsd:element name="${HISTORY_GROUP}" type="wd:${HISTORY_GROUP}Type" minOccurs="0" maxOccurs="unbounded"/>`,
    ].join('\n');
    const historyElements = HISTORY_FIELDS.map((name) => `      <xsd:element name="${name}" type="${name === 'Effective_Date' ? 'xsd:date' : 'xsd:string'}" minOccurs="0"/>`).join('\n');
    return `<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:wd="urn:com.workday.report/${REPORT}" targetNamespace="urn:com.workday.report/${REPORT}" elementFormDefault="qualified">
  <xsd:element name="Report_Data" type="wd:Report_DataType"/>
  <xsd:complexType name="Report_DataType">
    <xsd:sequence>
      <xsd:element name="Report_Entry" type="wd:Report_EntryType" minOccurs="0" maxOccurs="unbounded"/>
    </xsd:sequence>
  </xsd:complexType>
  <xsd:complexType name="Report_EntryType">
    <xsd:sequence>
${elements}
    </xsd:sequence>
  </xsd:complexType>
  <xsd:complexType name="${HISTORY_GROUP}Type">
    <xsd:sequence>
${historyElements}
    </xsd:sequence>
  </xsd:complexType>
</xsd:schema>
`;
  }
}
