import type { PeopleImportKind } from '../hris/fields.js';
import { type Connector, type ConnectorField, ConnectorError, type IntegrationCategory, checkFields } from './connector.js';
import { fileUrlConnector } from './fileUrl.js';

interface Listing {
  kind: string;
  displayName: string;
  category: IntegrationCategory;
  fields: ConnectorField[];
  /** What to export from the system instead, in its own words. */
  exportHint: string;
}

const text = (key: string, label: string, description: string): ConnectorField => ({ key, label, type: 'text', required: true, description });
const url = (key: string, label: string, description: string): ConnectorField => ({ key, label, type: 'url', required: true, description });
const secret = (key: string, label: string, description: string): ConnectorField => ({ key, label, type: 'secret', required: true, description });

/**
 * A system this deployment cannot reach: Paybench ships no client and no partner credentials for
 * it. It says so, in the catalogue and whenever it is tested or synced, and points at the file
 * route that works today.
 */
function unavailable(listing: Listing): Connector {
  const importKind: PeopleImportKind = listing.category === 'hris' ? 'employees' : 'equityGrants';
  const reason =
    `${listing.displayName} is not available in this deployment: it has no ${listing.displayName} API client or partner credentials, ` +
    `and no connectivity to ${listing.displayName}. Export ${listing.exportHint} as CSV or XLSX and import the file, ` +
    'or publish the export at an address and connect it as “File from a URL”.';
  return {
    kind: listing.kind,
    displayName: listing.displayName,
    category: listing.category,
    importKinds: [importKind],
    fields: listing.fields,
    unavailableReason: reason,
    importKind: () => importKind,
    validate: (settings) => checkFields(listing.fields, settings),
    test: async () => ({ ok: false, message: reason }),
    fetch: async () => {
      throw new ConnectorError(reason);
    },
  };
}

const workersReport = 'a worker report (employee id, name, manager, title, location, pay)';

/** Every connector, the working one first. */
export const CONNECTORS: readonly Connector[] = [
  fileUrlConnector,
  unavailable({
    kind: 'workday',
    displayName: 'Workday',
    category: 'hris',
    exportHint: workersReport,
    fields: [
      url('tenantUrl', 'Tenant URL', 'Your Workday tenant, e.g. https://wd5-services1.myworkday.com/acme.'),
      url('reportUrl', 'Report URL (RaaS)', 'The custom report that lists workers, published as a web service.'),
      text('username', 'Integration system user', 'The ISU Paybench signs in as.'),
      secret('password', 'Password', 'The integration system user’s password.'),
    ],
  }),
  unavailable({
    kind: 'bamboohr',
    displayName: 'BambooHR',
    category: 'hris',
    exportHint: 'a custom report of employees',
    fields: [text('subdomain', 'Company subdomain', 'The part before .bamboohr.com.'), secret('apiKey', 'API key', 'An API key of a BambooHR admin.')],
  }),
  unavailable({
    kind: 'rippling',
    displayName: 'Rippling',
    category: 'hris',
    exportHint: 'an employee report',
    fields: [secret('apiToken', 'API token', 'A Rippling API token with read access to employees and compensation.')],
  }),
  unavailable({
    kind: 'hibob',
    displayName: 'HiBob',
    category: 'hris',
    exportHint: 'a people data report',
    fields: [text('serviceUserId', 'Service user id', 'The id of a HiBob service user.'), secret('serviceUserToken', 'Service user token', 'Its token.')],
  }),
  unavailable({
    kind: 'personio',
    displayName: 'Personio',
    category: 'hris',
    exportHint: 'an employee list report',
    fields: [text('clientId', 'Client id', 'Personio API credentials: the client id.'), secret('clientSecret', 'Client secret', 'And its secret.')],
  }),
  unavailable({
    kind: 'carta',
    displayName: 'Carta',
    category: 'capTable',
    exportHint: 'the stakeholder equity grants (securities ledger)',
    fields: [text('clientId', 'OAuth client id', 'A Carta developer application’s client id.'), secret('clientSecret', 'OAuth client secret', 'Its secret.'), text('issuerId', 'Issuer id', 'The company’s issuer id in Carta.')],
  }),
  unavailable({
    kind: 'pulley',
    displayName: 'Pulley',
    category: 'capTable',
    exportHint: 'the cap table’s grants',
    fields: [secret('apiKey', 'API key', 'A Pulley API key.'), text('companyId', 'Company id', 'The company’s id in Pulley.')],
  }),
];

const byKind = new Map(CONNECTORS.map((connector) => [connector.kind, connector]));

export function findConnector(kind: string): Connector | undefined {
  return byKind.get(kind);
}
