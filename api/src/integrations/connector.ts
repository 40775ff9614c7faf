import type { Logger } from 'pino';
import type { components } from '../contract-types.js';
import type { PeopleImportKind } from '../hris/fields.js';
import type { SourceTable } from '../hris/table.js';

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
}

export interface ConnectorTestResult {
  ok: boolean;
  message: string;
}

/** A system the connector cannot reach or read; the sync records the message and writes nothing. */
export class ConnectorError extends Error {}

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
  /** Fetches every row as a table; throws ConnectorError when the system cannot be read. */
  fetch(settings: ConnectorSettings, env: ConnectorEnvironment, onRows: (rowsRead: number) => Promise<void>): Promise<SourceTable>;
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
