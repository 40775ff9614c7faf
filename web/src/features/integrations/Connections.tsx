import { Cable } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { type MutationCall, useMutation } from '../../api/queries';
import { FormProblem } from '../../ui/FormProblem';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty } from '../../ui/States';
import { type Column, DataTable } from '../../ui/DataTable';
import { formatNumber } from '../../ui/format';
import { useToasts } from '../../ui/Toasts';
import './integrations.css';

type Schemas = components['schemas'];
type Connector = Schemas['IntegrationConnector'];
type Integration = Schemas['Integration'];
type ImportKind = Schemas['PeopleImportKind'];
export type Category = Schemas['IntegrationCategory'];

const HOLDS: Record<ImportKind, string> = { employees: 'Employees', equityGrants: 'Equity grants' };
const SYNC_RUNNING: ReadonlySet<string> = new Set(['queued', 'running']);
const when = (value: string | null) => (value ? new Date(value).toLocaleString() : '—');

/** The systems that can fill a category: its own connectors and the generic ones that import that kind. */
export function connectorsFor(connectors: Connector[], category: Category): Connector[] {
  const kind: ImportKind = category === 'hris' ? 'employees' : 'equityGrants';
  return connectors.filter((connector) => connector.category === category || connector.importKinds.includes(kind));
}

function LastSync({ sync }: { sync: Integration['lastSync'] }) {
  if (!sync) return <>Never</>;
  const counts =
    sync.status === 'applied' || sync.status === 'planned'
      ? ` — ${formatNumber(sync.create)} created, ${formatNumber(sync.update)} updated, ${formatNumber(sync.unchanged)} unchanged`
      : sync.status === 'rejected'
        ? ` — ${formatNumber(sync.errorCount)} problems, nothing written`
        : '';
  const scope = sync.incremental ? ' (changes since the last sync)' : '';
  const conflicts = sync.conflictCount
    ? `${formatNumber(sync.conflictCount)} ${sync.conflictCount === 1 ? 'field' : 'fields'} edited in Paybench kept over the system’s values (conflicts)`
    : null;
  return (
    <>
      {sync.dryRun ? <span className="muted">Dry run: </span> : null}
      <span className={`status-${sync.status === 'applied' || sync.status === 'planned' ? 'succeeded' : SYNC_RUNNING.has(sync.status) ? 'running' : 'failed'}`}>{sync.status}</span>{' '}
      {when(sync.finishedAt ?? sync.startedAt)}
      {counts}
      {scope}
      {conflicts ? (
        <div className="muted" data-state="conflicts">
          {conflicts}
        </div>
      ) : null}
      {sync.message && sync.status !== 'applied' ? <div className="muted">{sync.message}</div> : null}
    </>
  );
}

type Sync = Schemas['IntegrationSync'];

const OUTCOME: Record<Sync['status'], string> = { queued: 'Queued', running: 'Running', planned: 'Planned (dry run)', applied: 'Applied', rejected: 'Rejected', failed: 'Failed', cancelled: 'Cancelled' };

/** One connection's syncs, newest first: when, who or the schedule, what each did, its conflicts and problems. */
export function SyncHistory({ connection, onClose }: { connection: Integration; onClose: () => void }) {
  const running = SYNC_RUNNING.has(connection.lastSync?.status ?? '');
  const history = useQuery('/api/integrations/{integrationId}/syncs', { params: { path: { integrationId: connection.id } } }, { refreshInterval: running ? 1000 : 0, dedupingInterval: 0 });
  const syncs = history.data?.data;
  const columns: Column<Sync>[] = [
    { key: 'when', header: 'When', rowHeader: true, cell: (sync) => when(sync.startedAt ?? sync.finishedAt) },
    {
      key: 'who',
      header: 'Asked by',
      label: 'Asked by',
      cell: (sync) => (sync.trigger === 'schedule' ? `Schedule${sync.triggeredBy ? ` (as ${sync.triggeredBy.name})` : ''}` : (sync.triggeredBy?.name ?? 'Someone no longer here')),
    },
    {
      key: 'what',
      header: 'Sync',
      label: 'Sync',
      cell: (sync) => `${sync.dryRun ? 'Dry run' : 'Sync'}${sync.incremental ? ', changes only' : ''}`,
    },
    {
      key: 'outcome',
      header: 'Outcome',
      label: 'Outcome',
      cell: (sync) => (
        <>
          <span className={`status-${sync.status === 'applied' || sync.status === 'planned' ? 'succeeded' : SYNC_RUNNING.has(sync.status) ? 'running' : 'failed'}`}>{OUTCOME[sync.status]}</span>
          {sync.message && sync.status !== 'applied' && sync.status !== 'planned' ? <div className="muted">{sync.message}</div> : null}
        </>
      ),
    },
    { key: 'created', header: 'Created', label: 'Created', cell: (sync) => formatNumber(sync.create) },
    { key: 'updated', header: 'Updated', label: 'Updated', cell: (sync) => formatNumber(sync.update) },
    { key: 'unchanged', header: 'Unchanged', label: 'Unchanged', cell: (sync) => formatNumber(sync.unchanged) },
    { key: 'conflicts', header: 'Conflicts', label: 'Conflicts', cell: (sync) => formatNumber(sync.conflictCount ?? 0) },
    {
      key: 'problems',
      header: 'Problems',
      label: 'Problems',
      cell: (sync) =>
        sync.errorCount ? (
          <>
            {formatNumber(sync.errorCount)}
            <ul className="sync-problems">
              {(sync.problems ?? []).map((problem, index) => (
                <li key={index}>
                  line {problem.line}
                  {problem.column ? `, ${problem.column}` : ''}: {problem.message}
                </li>
              ))}
            </ul>
          </>
        ) : (
          '0'
        ),
    },
  ];
  return (
    <section className="sync-history" aria-labelledby={`history-${connection.id}`}>
      <div className="section-heading">
        <h3 id={`history-${connection.id}`}>Sync history: {connection.name}</h3>
        <button type="button" className="small" onClick={onClose}>
          Close
        </button>
      </div>
      {history.error ? (
        <p role="alert">{errorMessage(history.error)}</p>
      ) : !syncs ? (
        <SkeletonTable rows={3} columns={5} label="Loading the sync history" />
      ) : syncs.length === 0 ? (
        <p className="muted">No syncs yet.</p>
      ) : (
        <DataTable className="table-scroll connections" label={`Sync history of ${connection.name}`} regionLabel={`Sync history of ${connection.name}, scrollable`} explicitRoles columns={columns} rows={syncs} rowKey={(sync) => sync.importId} />
      )}
    </section>
  );
}

/**
 * A connection's name and schedule, changed at the version read: someone else's newer change is
 * refused (the server says so) and what was typed stays. An empty interval syncs only when asked.
 */
function EditConnection({ connection, refresh, onDone }: { connection: Integration; refresh: () => Promise<unknown>; onDone: () => void }) {
  const { add } = useToasts();
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  const [name, setName] = useState(connection.name);
  const [hours, setHours] = useState(connection.syncIntervalHours ? String(connection.syncIntervalHours) : '');

  async function save() {
    const syncIntervalHours = hours.trim() ? Number(hours) : null;
    const body = { version: connection.version, name: name.trim(), syncIntervalHours };
    const result = await run(() => api.PATCH('/api/integrations/{integrationId}', { params: { path: { integrationId: connection.id } }, body }));
    await refresh();
    if (!result.ok) return;
    add('success', `${result.data.data.name} was saved.`);
    onDone();
  }

  return (
    <form
      aria-label={`Edit ${connection.name}`}
      className="connection-edit"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label>
        Name
        <input value={name} required maxLength={120} onChange={(event) => setName(event.target.value)} />
      </label>
      <label>
        Sync every (hours)
        <input type="number" inputMode="numeric" min={1} max={720} value={hours} onChange={(event) => setHours(event.target.value)} aria-describedby={`schedule-help-${connection.id}`} />
        <span id={`schedule-help-${connection.id}`} className="muted small-text">
          Leave empty to sync only when asked.
        </span>
      </label>
      <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
      <button type="submit" className="small primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save'}
      </button>
      <button type="button" className="small" onClick={onDone} disabled={busy}>
        Cancel
      </button>
    </form>
  );
}

/** What an editor can do to one connection: sync now, test, rename or reschedule, disconnect (after a confirming press). */
function ConnectionActions({ connection, refresh }: { connection: Integration; refresh: () => Promise<unknown> }) {
  const { add } = useToasts();
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const { run, busy } = useMutation();
  const path = { params: { path: { integrationId: connection.id } } };

  // Whatever the outcome, the list is asked again: a failed sync or test shows there too.
  async function act<Data>(call: MutationCall<Data>, done: (data: Data) => string) {
    const result = await run(call);
    if (result.ok) add('info', done(result.data));
    await refresh();
  }
  const sync = (dryRun: boolean) =>
    act(() => api.POST('/api/integrations/{integrationId}/syncs', { ...path, body: { dryRun } }), () => `${connection.name}: ${dryRun ? 'dry run started; nothing will be written.' : 'sync started.'}`);
  const test = () => act(() => api.POST('/api/integrations/{integrationId}/test', path), (answer) => `${connection.name}: ${answer.data.message}`);
  const disconnect = (keptValues: 'keep' | 'remove') =>
    act(
      () => api.DELETE('/api/integrations/{integrationId}', { params: { path: { integrationId: connection.id }, query: { keptValues } } }),
      () => `${connection.name} is disconnected; ${keptValues === 'keep' ? 'corrections made in Paybench stay kept.' : 'corrections made in Paybench are no longer kept over a system’s values.'}`,
    );

  return (
    <>
      <button type="button" className="small" onClick={() => void sync(true)} disabled={busy}>
        Dry run
      </button>
      <button type="button" className="small" onClick={() => void sync(false)} disabled={busy}>
        Sync now
      </button>
      <button type="button" className="small" onClick={() => void test()} disabled={busy}>
        Test
      </button>
      {editing ? (
        <EditConnection connection={connection} refresh={refresh} onDone={() => setEditing(false)} />
      ) : (
        <button type="button" className="small" onClick={() => setEditing(true)} disabled={busy}>
          Edit
        </button>
      )}
      {confirming ? (
        // The values kept from corrections made in Paybench are the company's: the admin says whether they outlive the connection.
        <div role="group" aria-label={`Disconnect ${connection.name}`} className="disconnect-choice">
          <p className="muted small-text">Disconnect {connection.name}? People data stays. Fields corrected in Paybench are kept over any system’s values: keep those corrections, or remove them so the next sync writes every field?</p>
          <button type="button" className="small danger" onClick={() => void disconnect('keep')} disabled={busy}>
            Disconnect, keep corrections
          </button>
          <button type="button" className="small danger" onClick={() => void disconnect('remove')} disabled={busy}>
            Disconnect, remove corrections
          </button>
          <button type="button" className="small" onClick={() => setConfirming(false)} disabled={busy}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" className="small" onClick={() => setConfirming(true)} disabled={busy}>
          Disconnect
        </button>
      )}
    </>
  );
}

/** The company's connections: status, last sync and what it did, and (for editors) sync, test, disconnect. */
export function ConnectionsList({ editable }: { editable: boolean }) {
  // Followed every second while a sync runs (without the app's hour-long de-duplication).
  const list = useQuery('/api/integrations', {}, { refreshInterval: (latest) => (latest?.data.some((entry) => SYNC_RUNNING.has(entry.lastSync?.status ?? '')) ? 1000 : 0), dedupingInterval: 0 });
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  if (list.error) return <p role="alert">{errorMessage(list.error)}</p>;
  const connections = list.data?.data;
  if (!connections) return <SkeletonTable rows={2} columns={4} label="Loading connections" />;
  if (connections.length === 0)
    return (
      <Empty title="Nothing connected" icon={Cable} compact headingLevel={3}>
        No systems are connected yet. {editable ? 'Connect your HR system or your cap table above, and Paybench keeps your people and their grants up to date.' : 'Connecting systems needs the integrations edit permission.'}
      </Empty>
    );
  const columns: Column<Integration>[] = [
    {
      key: 'connection',
      header: 'Connection',
      rowHeader: true,
      cell: (connection) => (
        <>
          {connection.name}
          <div className="muted">{connection.displayName}</div>
        </>
      ),
    },
    { key: 'holds', header: 'Holds', label: 'Holds', cell: (connection) => HOLDS[connection.importKind] },
    {
      key: 'status',
      header: 'Status',
      label: 'Status',
      cell: (connection) => (
        <>
          <span className={connection.status === 'connected' ? 'status-succeeded' : 'status-failed'}>{connection.status === 'connected' ? 'Connected' : 'Error'}</span>
          {connection.statusMessage && <div className="muted">{connection.statusMessage}</div>}
        </>
      ),
    },
    {
      key: 'sync',
      header: 'Last sync',
      label: 'Last sync',
      cell: (connection) => (
        <>
          <LastSync sync={connection.lastSync} />
          {connection.lastSync ? (
            <div>
              <button type="button" aria-expanded={historyOf === connection.id} onClick={() => setHistoryOf(historyOf === connection.id ? null : connection.id)}>
                Sync history
              </button>
            </div>
          ) : null}
        </>
      ),
    },
    {
      key: 'schedule',
      header: 'Schedule',
      label: 'Schedule',
      cell: (connection) => (connection.syncIntervalHours ? `Every ${connection.syncIntervalHours} h, next ${when(connection.nextSyncAt)}` : 'Only when asked'),
    },
    ...(editable ? [{ key: 'actions', header: 'Actions', className: 'row-actions', cell: (connection: Integration) => <ConnectionActions connection={connection} refresh={() => list.mutate()} /> }] : []),
  ];
  // Roles are spelled out: on phones the rows become cards (CSS), which must stay a table to assistive tech.
  const shown = connections.find((connection) => connection.id === historyOf);
  return (
    <>
      <DataTable className="table-scroll connections" label="Connections" explicitRoles columns={columns} rows={connections} rowKey={(connection) => connection.id} />
      {shown ? <SyncHistory connection={shown} onClose={() => setHistoryOf(null)} /> : null}
    </>
  );
}

type ConnectorFieldSpec = Schemas['IntegrationConnectorField'];

/** The form's select values as they start: the preset, else each select's first option. */
function startingChoices(fields: ConnectorFieldSpec[], presets: Record<string, string>): Record<string, string> {
  return Object.fromEntries(fields.filter((field) => field.type === 'select').map((field) => [field.key, presets[field.key] ?? field.options?.[0]?.value ?? '']));
}

function ConnectorField({ field, value, onChoose }: { field: ConnectorFieldSpec; value?: string; onChoose: (value: string) => void }) {
  const common = { name: `config.${field.key}`, required: field.required, 'aria-describedby': `help-${field.key}` };
  return (
    <label>
      {field.label}
      {field.type === 'select' ? (
        <select {...common} value={value ?? ''} onChange={(event) => onChoose(event.target.value)}>
          {field.options?.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <input {...common} type={field.type === 'secret' ? 'password' : field.type === 'url' ? 'url' : 'text'} autoComplete="off" />
      )}
      <span id={`help-${field.key}`} className="muted small-text">
        {field.description}
      </span>
    </label>
  );
}

/**
 * Connect a system of one category: pick it, fill in what it needs, and Paybench tests the
 * connection at once. Systems this deployment cannot reach say so instead of offering a form.
 */
export function ConnectForm({ category, connectors, onConnected }: { category: Category; connectors: Connector[]; onConnected: () => void }) {
  const choices = connectorsFor(connectors, category);
  // Until the person picks one, the first system that works here (the list may still be loading).
  const [picked, setKind] = useState<string | null>(null);
  const kind = picked ?? choices.find((connector) => connector.available)?.kind ?? choices[0]?.kind ?? '';
  const { run, busy } = useMutation();
  const { add } = useToasts();
  const connector = choices.find((entry) => entry.kind === kind);
  const importKind: ImportKind = category === 'hris' ? 'employees' : 'equityGrants';
  // The selects' values, so fields that apply to one choice only (a password for basic sign-in) show with it.
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const selects = { ...startingChoices(connector?.fields ?? [], { importKind }), ...chosen };
  const shown = (connector?.fields ?? []).filter((field) => !field.shownWhen || field.shownWhen.values.includes(selects[field.shownWhen.field] ?? ''));

  async function connect(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!connector) return;
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const config: Record<string, string> = {};
    for (const field of shown) {
      const value = text(`config.${field.key}`);
      if (value) config[field.key] = value;
    }
    const hours = text('syncIntervalHours');
    const body = { kind: connector.kind, config, ...(text('name') ? { name: text('name') } : {}), mappingName: text('mappingName') || null, syncIntervalHours: hours ? Number(hours) : null };
    const result = await run(() => api.POST('/api/integrations', { body }));
    if (!result.ok) return;
    const connection = result.data.data;
    if (connection.status === 'connected') add('success', `${connection.name} is connected.`);
    else add('warning', `${connection.name} was saved, but its test failed: ${connection.statusMessage ?? 'no reason given'}`);
    onConnected();
  }

  if (choices.length === 0) return <p role="status">Loading the systems…</p>;
  return (
    <form className="settings-form connect-form" onSubmit={(event) => void connect(event)} key={kind}>
      <label>
        System
        <select
          value={kind}
          onChange={(event) => {
            setKind(event.target.value);
            setChosen({});
          }}
        >
          {choices.map((entry) => (
            <option key={entry.kind} value={entry.kind}>
              {entry.displayName}
              {entry.available ? '' : ' (not available here)'}
            </option>
          ))}
        </select>
      </label>
      {connector && !connector.available ? (
        <p className="muted" data-state="not-available">
          {connector.availabilityNote}
        </p>
      ) : (
        connector && (
          <>
            <label>
              Name
              <input name="name" defaultValue={connector.displayName} maxLength={120} />
            </label>
            {shown.map((field) => (
              <ConnectorField key={field.key} field={field} value={selects[field.key]} onChoose={(value) => setChosen((current) => ({ ...current, [field.key]: value }))} />
            ))}
            <label>
              Saved column mapping (optional)
              <input name="mappingName" maxLength={120} placeholder="Uses the suggestion when empty" />
            </label>
            <label>
              Sync every … hours (optional)
              <input name="syncIntervalHours" type="number" min={1} max={720} inputMode="numeric" placeholder="Only when asked" />
            </label>
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Connecting…' : 'Connect'}
            </button>
          </>
        )
      )}
    </form>
  );
}
