import type { Logger } from 'pino';
import type { components } from '../contract-types.js';
import type { PeopleImportKind } from '../hris/fields.js';
import type { SourceTable } from '../kernel/files/table.js';
import type { RetryPolicy } from './http.js';

export type ConnectorField = components['schemas']['IntegrationConnectorField'];
export type IntegrationCategory = components['schemas']['IntegrationCategory'];

/** A connection's configuration: plain values, and the secrets (stored sealed, never shown again). */
export interface ConnectorSettings {
  values: Record<string, string>;
  secrets: Record<string, string>;
}

/** What the deployment lets connectors do. */
export interface ConnectorEnvironment {
  log: Logger;
  /** Whether URLs may point at loopback and private networks (self-hosted HR exports); off by default. */
  allowPrivateNetworks: boolean;
  /** How calls to a vendor's API wait and retry (http.ts); the defaults when left out. */
  retry?: Partial<RetryPolicy>;
}

export interface ConnectorTestResult {
  ok: boolean;
  message: string;
}

/** What kind of trouble a connector met, for the people who fix it (an admin, or the vendor's status page). */
export type ConnectorProblem = 'credentials' | 'permission' | 'rateLimited' | 'unreachable' | 'notFound' | 'vendor' | 'response' | 'refused';

/** A system the connector cannot reach or read; the sync records the message and writes nothing. */
export class ConnectorError extends Error {
  constructor(
    message: string,
    readonly problem: ConnectorProblem = 'vendor',
  ) {
    super(message);
  }
}

/** What a sync asks of a connector: everything, or only what changed since the cursor of the last applied sync. */
export interface FetchRequest {
  /** The cursor the last applied sync ended with; null: read everything. */
  since: string | null;
}

/** A connector's rows, and (for systems with a "changed since") where the next sync continues from. */
export interface FetchedTable extends SourceTable {
  /** The system's time this read covers up to; stored when the sync is applied. */
  cursor?: string;
  /** True when only changed records were read. */
  incremental?: boolean;
}

/**
 * An HR or cap-table system Paybench can sync people data from. A connector only fetches rows:
 * the mapping, the checks and the all-or-nothing write are the people-data import's, the same as
 * for an uploaded file.
 */
export interface Connector {
  readonly kind: string;
  readonly displayName: string;
  readonly category: IntegrationCategory;
  /** What its rows can be: employees (HRIS), equity grants (cap table), or either. */
  readonly importKinds: readonly PeopleImportKind[];
  readonly fields: readonly ConnectorField[];
  /** Why this deployment cannot connect to it; undefined when it can. */
  readonly unavailableReason: string | undefined;
  /** The kind of import a connection's rows feed. */
  importKind(settings: ConnectorSettings): PeopleImportKind;
  /** Problems with the settings by field key, before anything is contacted. */
  validate(settings: ConnectorSettings): { field: string; message: string }[];
  /** Reaches the system with the settings and says what it found. */
  test(settings: ConnectorSettings, env: ConnectorEnvironment): Promise<ConnectorTestResult>;
  /** Fetches the rows as a table (all, or changed since `request.since`); throws ConnectorError when the system cannot be read. */
  fetch(settings: ConnectorSettings, env: ConnectorEnvironment, onRows: (rowsRead: number) => Promise<void>, request?: FetchRequest): Promise<FetchedTable>;
}

/** Whether a field applies to these values: one shown only for another choice (a password under OAuth) does not. */
export function fieldApplies(field: ConnectorField, values: Record<string, string>): boolean {
  return !field.shownWhen || field.shownWhen.values.includes(values[field.shownWhen.field] ?? '');
}

/** The settings without the fields of a choice not made, so a switch of sign-in keeps no secret nobody uses. */
export function withoutUnusedFields(fields: readonly ConnectorField[], settings: ConnectorSettings): ConnectorSettings {
  const unused = new Set(fields.filter((field) => !fieldApplies(field, settings.values)).map((field) => field.key));
  const keep = (entries: Record<string, string>) => Object.fromEntries(Object.entries(entries).filter(([key]) => !unused.has(key)));
  return { values: keep(settings.values), secrets: keep(settings.secrets) };
}

/** Required fields filled and select fields holding one of their options. */
export function checkFields(fields: readonly ConnectorField[], settings: ConnectorSettings): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  for (const field of fields) {
    const value = field.type === 'secret' ? settings.secrets[field.key] : settings.values[field.key];
    if (field.required && !value) problems.push({ field: field.key, message: 'is required' });
    if (value && field.options && !field.options.some((option) => option.value === value)) {
      problems.push({ field: field.key, message: `must be one of: ${field.options.map((option) => option.value).join(', ')}` });
    }
  }
  return problems;
}

/**
 * The problem with a connector's optional own API address (`apiUrl`: a vendor's sandbox or regional
 * host), if any: it must be an http(s) URL. Where it may point is the outbound guard's to check.
 */
export function apiUrlProblems(settings: ConnectorSettings): { field: string; message: string }[] {
  const custom = settings.values.apiUrl;
  if (!custom) return [];
  return /^https?:\/\//i.test(custom) && URL.canParse(custom) ? [] : [{ field: 'apiUrl', message: 'must be an http:// or https:// URL' }];
}

