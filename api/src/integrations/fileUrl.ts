import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { PeopleImportKind } from '../hris/fields.js';
import { type ReadOptions, type SourceTable, UnreadableFile, formatOf, readTable } from '../kernel/files/table.js';
import { type SpecialAddress, describeSpecial } from '../kernel/addresses.js';
import { type Connector, type ConnectorEnvironment, ConnectorError, type ConnectorField, type ConnectorSettings, checkFields } from './connector.js';
import { type OutboundPolicy, guardedLookup, literalRefusal } from '../kernel/outbound.js';

/** The largest file a sync fetches, the same as an upload. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
const TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;

const FIELDS: ConnectorField[] = [
  { key: 'url', label: 'File address', type: 'url', required: true, description: 'The https:// (or http://) address of a CSV or XLSX export; fetched on every sync.' },
  {
    key: 'importKind',
    label: 'The file holds',
    type: 'select',
    required: true,
    description: 'Employees (an HRIS export) or equity grants (a cap-table export).',
    options: [
      { value: 'employees', label: 'Employees' },
      { value: 'equityGrants', label: 'Equity grants' },
    ],
  },
  { key: 'authorization', label: 'Authorization header', type: 'secret', required: false, description: 'Sent as the Authorization header, e.g. "Bearer …" or "Basic …". Stored encrypted.' },
];

/** `hostname` when the address came from resolving it. */
const refused = (found: SpecialAddress, hostname?: string): ConnectorError =>
  new ConnectorError(
    `${describeSpecial(found, hostname)}; this deployment does not fetch from such addresses (set PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS=true to allow private and special-purpose ones).`,
  );

export function parseFileUrl(text: string | undefined): URL | undefined {
  if (!text) return undefined;
  try {
    const parsed = new URL(text);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

interface Fetched {
  bytes: Buffer;
  contentType: string | undefined;
  url: URL;
}

/** The outbound guard with this deployment's setting and the connector's refusal. */
const policyOf = (env: ConnectorEnvironment): OutboundPolicy => ({ allowPrivateNetworks: env.allowPrivateNetworks, refuse: refused });

function get(url: URL, headers: Record<string, string>, env: ConnectorEnvironment, redirectsLeft: number): Promise<Fetched> {
  // Every hop, the first and each redirect, is checked: the address in the URL here, a name by the lookup.
  const blocked = literalRefusal(url, policyOf(env));
  if (blocked) return Promise.reject(blocked);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Fetched>((resolve, reject) => {
    const request = client.get(url, { headers: { 'User-Agent': 'Paybench integration', Accept: 'text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, */*', ...headers }, lookup: guardedLookup(policyOf(env)), timeout: TIMEOUT_MS }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        if (redirectsLeft <= 0) return reject(new ConnectorError(`${url.host} redirected too many times.`));
        const next = parseFileUrl(new URL(response.headers.location, url).toString());
        if (!next) return reject(new ConnectorError(`${url.host} redirected to an address that is not http(s).`));
        // Credentials are for the address configured, not for wherever it redirects.
        const forwarded = next.origin === url.origin ? headers : {};
        return resolve(get(next, forwarded, env, redirectsLeft - 1));
      }
      if (status !== 200) {
        response.resume();
        return reject(new ConnectorError(`${url.host} answered ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}.`));
      }
      const declared = Number(response.headers['content-length'] ?? 0);
      if (declared > MAX_FILE_BYTES) {
        response.destroy();
        return reject(new ConnectorError(`The file is larger than ${MAX_FILE_BYTES} bytes.`));
      }
      const parts: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_FILE_BYTES) {
          response.destroy(new ConnectorError(`The file is larger than ${MAX_FILE_BYTES} bytes.`));
          return;
        }
        parts.push(chunk);
      });
      response.on('error', (error) => reject(error instanceof ConnectorError ? error : new ConnectorError(`Reading from ${url.host} failed: ${error.message}`)));
      response.on('end', () => resolve({ bytes: Buffer.concat(parts), contentType: response.headers['content-type'], url }));
    });
    request.on('timeout', () => request.destroy(new ConnectorError(`${url.host} did not answer within ${TIMEOUT_MS / 1000} seconds.`)));
    request.on('error', (error) => reject(error instanceof ConnectorError ? error : new ConnectorError(`Could not reach ${url.host}: ${error.message}`)));
  });
}

async function download(settings: ConnectorSettings, env: ConnectorEnvironment): Promise<Fetched> {
  const url = parseFileUrl(settings.values.url);
  if (!url) throw new ConnectorError('The file address must be an http:// or https:// URL.');
  const authorization = settings.secrets.authorization;
  return get(url, authorization ? { Authorization: authorization } : {}, env, MAX_REDIRECTS);
}

async function tableOf(fetched: Fetched, options: ReadOptions): Promise<SourceTable> {
  const format = formatOf(fetched.contentType, fetched.url.pathname, fetched.bytes.subarray(0, 4));
  try {
    return await readTable(Readable.from(fetched.bytes), format, options);
  } catch (error) {
    if (error instanceof UnreadableFile) throw new ConnectorError(`${fetched.url.host} sent a file that is not readable: ${error.message}`);
    throw error;
  }
}

/**
 * The connector every deployment can use: a CSV or XLSX export that an HR or cap-table system (or
 * a script) publishes at an address, fetched on a schedule or on "sync now".
 */
export const fileUrlConnector: Connector = {
  kind: 'file_url',
  displayName: 'File from a URL (CSV or XLSX)',
  category: 'hris',
  importKinds: ['employees', 'equityGrants'],
  fields: FIELDS,
  unavailableReason: undefined,
  importKind: (settings) => (settings.values.importKind === 'equityGrants' ? 'equityGrants' : 'employees') as PeopleImportKind,
  validate(settings) {
    const problems = checkFields(FIELDS, settings);
    if (settings.values.url && !parseFileUrl(settings.values.url)) problems.push({ field: 'url', message: 'must be an http:// or https:// URL' });
    return problems;
  },
  async test(settings, env) {
    try {
      const table = await tableOf(await download(settings, env), { keepRows: false });
      return { ok: true, message: `Fetched the file: ${table.columns.length} columns, ${table.rowCount} rows.` };
    } catch (error) {
      if (error instanceof ConnectorError) return { ok: false, message: error.message };
      throw error;
    }
  },
  async fetch(settings, env, onRows) {
    return tableOf(await download(settings, env), { onProgress: onRows });
  },
};
