import { Link } from 'wouter';
import { errorMessage, useQuery } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { ClickableBox } from '../../ui/ClickableBox';
import { Modal } from '../../ui/Modal';
import { useQueryParam } from '../../ui/urlState';
import { can } from '../settings/permissions';
import { type Category, ConnectForm, ConnectionsList, connectorsFor } from './Connections';
import { IMPORT_TITLES, type ImportKind, PeopleImportWizard } from './PeopleImport';
import './integrations.css';

/** The kinds of systems, as the URL names them (`?integration=hris|cap_table`). */
const KINDS: { id: string; category: Category; title: string; description: string }[] = [
  { id: 'hris', category: 'hris', title: 'HR system', description: 'Employees, jobs, managers, locations and pay, kept in sync.' },
  { id: 'cap_table', category: 'capTable', title: 'Cap table', description: 'Equity grants and their vesting.' },
];

const IMPORTS: { kind: ImportKind; description: string }[] = [
  { kind: 'employees', description: 'An HRIS export: one row per employee, with their manager, job, location and pay.' },
  { kind: 'equityGrants', description: 'A cap-table export: one row per grant, by employee id.' },
];

const isImportKind = (value: string | null): value is ImportKind => value === 'employees' || value === 'equityGrants';

/**
 * The integrations area: import a file now, or connect the system the data lives in. Which modal
 * is open lives in the URL (`?import=…`, `?integration=…`, then `?capTableSelection=…` for cap
 * tables), so back and forward close and reopen them.
 */
export function IntegrationsScreen({ title = 'Integrations' }: { title?: string }) {
  const person = usePerson().data?.data;
  const editable = can(person, 'integrations', 'edit') && !person?.viewAs;
  const mayImport = can(person, 'team', 'edit', 'all') && !person?.viewAs;
  const [open, setOpen] = useQueryParam('integration');
  const [capTable, setCapTable] = useQueryParam('capTableSelection');
  const [importing, setImporting] = useQueryParam('import');
  const connectors = useQuery('/api/integration-connectors');
  const connections = useQuery('/api/integrations', {});
  const kind = KINDS.find((entry) => entry.id === open);
  const all = connectors.data?.data ?? [];
  // A connection counts where its data goes: employees fill the HR side, grants the cap table.
  const connectedIn = (category: Category) => connections.data?.data.filter((connection) => connection.importKind === (category === 'hris' ? 'employees' : 'equityGrants')).length ?? 0;

  return (
    <>
      <h1>{title}</h1>
      <p className="lede">Bring in your people and equity data: upload an export now, or connect the system it lives in.</p>
      {mayImport && (
        <section aria-labelledby="import-heading">
          <h2 id="import-heading">Import a file</h2>
          <ul className="modules" aria-label="Files to import">
            {IMPORTS.map((entry) => (
              <li key={entry.kind}>
                <ClickableBox onActivate={() => setImporting(entry.kind)} label={IMPORT_TITLES[entry.kind]} className="module">
                  <h3>{IMPORT_TITLES[entry.kind]}</h3>
                  <p>{entry.description}</p>
                  <p className="module-state">CSV or XLSX</p>
                </ClickableBox>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="connect-heading">
        <h2 id="connect-heading">Connect a system</h2>
        {connectors.error && <p role="alert">{errorMessage(connectors.error)}</p>}
        <ul className="modules" aria-label="Kinds of systems">
          {KINDS.map((entry) => {
            const count = connectedIn(entry.category);
            return (
              <li key={entry.id}>
                <ClickableBox onActivate={() => setOpen(entry.id)} label={`Connect ${entry.title}`} className="module">
                  <h3>{entry.title}</h3>
                  <p>{entry.description}</p>
                  <p className="module-state">{count > 0 ? `${count} connected` : 'Not connected'}</p>
                </ClickableBox>
              </li>
            );
          })}
        </ul>
      </section>
      <section aria-labelledby="connections-heading">
        <h2 id="connections-heading">Connections</h2>
        <ConnectionsList editable={editable} />
      </section>

      {isImportKind(importing) && (
        <Modal title={IMPORT_TITLES[importing]} onClose={() => setImporting(null)}>
          <PeopleImportWizard kind={importing} />
        </Modal>
      )}
      {kind && !capTable && (
        <Modal
          title={`Connect ${kind.title}`}
          onClose={() => setOpen(null)}
          footer={
            kind.category === 'capTable' && editable ? (
              <button type="button" className="primary" onClick={() => setCapTable('open')}>
                Choose the cap table
              </button>
            ) : undefined
          }
        >
          <p>{kind.description}</p>
          {kind.category === 'capTable' ? (
            <ul className="connector-list">
              {connectorsFor(all, 'capTable').map((connector) => (
                <li key={connector.kind}>
                  <strong>{connector.displayName}</strong>: {connector.available ? 'can be connected here.' : connector.availabilityNote}
                </li>
              ))}
            </ul>
          ) : editable ? (
            <ConnectForm
              category="hris"
              connectors={all}
              onConnected={() => {
                setOpen(null);
                void connections.mutate();
              }}
            />
          ) : (
            <p className="muted">Connecting systems needs the integrations edit permission.</p>
          )}
        </Modal>
      )}
      {kind?.category === 'capTable' && capTable && (
        <Modal title="Choose the cap table" onClose={() => setCapTable(null)}>
          <p>Pick where your cap table’s grants come from; each connection brings in one company’s grants.</p>
          <ConnectForm
            category="capTable"
            connectors={all}
            onConnected={() => {
              setCapTable(null, { replace: true });
              setOpen(null);
              void connections.mutate();
            }}
          />
        </Modal>
      )}
    </>
  );
}

/** /settings/connections: every connection with its status and last sync. */
export function ConnectionsScreen() {
  const person = usePerson().data?.data;
  const editable = can(person, 'integrations', 'edit') && !person?.viewAs;
  return (
    <>
      <h1>Connections</h1>
      <p className="lede">
        Each connected system, when it last synced and what that changed. Connect another under <Link href="/settings/integrations">Integrations settings</Link>.
      </p>
      <ConnectionsList editable={editable} />
    </>
  );
}
