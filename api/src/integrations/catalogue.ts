import type { PeopleImportKind } from '../hris/fields.js';
import { type Connector, type ConnectorField, ConnectorError, type IntegrationCategory, checkFields } from './connector.js';
import { fileUrlConnector } from './fileUrl.js';
import { bambooHrConnector } from './vendors/bamboohr/connector.js';
import { hiBobConnector } from './vendors/hibob/connector.js';
import { personioConnector } from './vendors/personio/connector.js';
import { ripplingConnector } from './vendors/rippling/connector.js';
import { workdayConnector } from './vendors/workday/connector.js';

interface Listing {
  kind: string;
  displayName: string;
  category: IntegrationCategory;
  fields: ConnectorField[];
  /** What to export from the system instead, in its own words. */
  exportHint: string;
}

const text = (key: string, label: string, description: string): ConnectorField => ({ key, label, type: 'text', required: true, description });
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

/** Every connector, the working ones first. A vendor's connector is listed as available only with its conformance tests. */
export const CONNECTORS: readonly Connector[] = [
  fileUrlConnector,
  bambooHrConnector,
  workdayConnector,
  ripplingConnector,
  hiBobConnector,
  personioConnector,
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
