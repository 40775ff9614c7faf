import { ClickableBox } from '../../ui/ClickableBox';
import { Modal } from '../../ui/Modal';
import { useQueryParam } from '../../ui/urlState';

interface IntegrationKind {
  id: string;
  title: string;
  description: string;
  capTable?: boolean;
}

const KINDS: IntegrationKind[] = [
  { id: 'hris', title: 'HR system', description: 'Employees, jobs, managers and locations, kept in sync.' },
  { id: 'payroll', title: 'Payroll', description: 'Salaries, bonuses and pay history.' },
  { id: 'cap_table', title: 'Cap table', description: 'Equity grants, vesting and share prices.', capTable: true },
  { id: 'ats', title: 'Applicant tracking', description: 'Candidates and offers.' },
];

const NOT_YET = 'Connecting systems is not available yet: the server does not offer integrations yet. This is where you will choose the system, sign in to it and pick what to sync.';

/**
 * The integrations area. Which modal is open lives in the URL (`?integration=…`, then
 * `?capTableSelection=…` for cap tables), so back and forward close and reopen them.
 */
export function IntegrationsScreen({ title = 'Integrations' }: { title?: string }) {
  const [open, setOpen] = useQueryParam('integration');
  const [capTable, setCapTable] = useQueryParam('capTableSelection');
  const kind = KINDS.find((entry) => entry.id === open);
  return (
    <>
      <h1>{title}</h1>
      <p className="lede">Connect the systems your people and equity data live in.</p>
      <ul className="modules" aria-label="Kinds of systems">
        {KINDS.map((entry) => (
          <li key={entry.id}>
            <ClickableBox onActivate={() => setOpen(entry.id)} label={`Connect ${entry.title}`} className="module">
              <h2>{entry.title}</h2>
              <p>{entry.description}</p>
              <p className="module-state">Not connected</p>
            </ClickableBox>
          </li>
        ))}
      </ul>
      {kind && !capTable && (
        <Modal
          title={`Connect ${kind.title}`}
          onClose={() => setOpen(null)}
          footer={
            kind.capTable ? (
              <button type="button" className="primary" onClick={() => setCapTable('open')}>
                Choose the cap table
              </button>
            ) : undefined
          }
        >
          <p>{kind.description}</p>
          <p className="muted" data-state="not-available">
            {NOT_YET}
          </p>
        </Modal>
      )}
      {kind?.capTable && capTable && (
        <Modal title="Choose the cap table" onClose={() => setCapTable(null)}>
          <p>A cap-table system may hold several companies or entities; this is where you pick the one that is yours.</p>
          <p className="muted" data-state="not-available">
            {NOT_YET}
          </p>
        </Modal>
      )}
    </>
  );
}

export function ConnectionsScreen() {
  return (
    <>
      <h1>Connections</h1>
      <section className="panel not-available" data-state="not-available">
        <p className="eyebrow">Not available yet</p>
        <p>Each connected system, when it last synced and what it changed will be listed here.</p>
        <p className="muted">{NOT_YET}</p>
      </section>
    </>
  );
}
