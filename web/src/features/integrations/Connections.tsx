import { Cable } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { type MutationCall, useMutation } from '../../api/queries';
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
  return (
    <>
      <span className={`status-${sync.status === 'applied' || sync.status === 'planned' ? 'succeeded' : SYNC_RUNNING.has(sync.status) ? 'running' : 'failed'}`}>{sync.status}</span>{' '}
      {when(sync.finishedAt ?? sync.startedAt)}
      {counts}
      {sync.message && sync.status !== 'applied' ? <div className="muted">{sync.message}</div> : null}
    </>
  );
}

/** What an editor can do to one connection: sync now, test, disconnect (after a confirming press). */
function ConnectionActions({ connection, refresh }: { connection: Integration; refresh: () => Promise<unknown> }) {
  const { add } = useToasts();
  const [confirming, setConfirming] = useState(false);
  const { run, busy } = useMutation();
  const path = { params: { path: { integrationId: connection.id } } };

  // Whatever the outcome, the list is asked again: a failed sync or test shows there too.
  async function act<Data>(call: MutationCall<Data>, done: (data: Data) => string) {
    const result = await run(call);
    if (result.ok) add('info', done(result.data));
    await refresh();
  }
  const sync = () => act(() => api.POST('/api/integrations/{integrationId}/syncs', { ...path, body: { dryRun: false } }), () => `${connection.name}: sync started.`);
  const test = () => act(() => api.POST('/api/integrations/{integrationId}/test', path), (answer) => `${connection.name}: ${answer.data.message}`);
  const disconnect = () => act(() => api.DELETE('/api/integrations/{integrationId}', path), () => `${connection.name} is disconnected.`);

  return (
    <>
      <button type="button" className="small" onClick={() => void sync()} disabled={busy}>
        Sync now
      </button>
      <button type="button" className="small" onClick={() => void test()} disabled={busy}>
        Test
      </button>
      {confirming ? (
        <button type="button" className="small danger" onClick={() => void disconnect()} disabled={busy}>
          Confirm disconnect
        </button>
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
    { key: 'sync', header: 'Last sync', label: 'Last sync', cell: (connection) => <LastSync sync={connection.lastSync} /> },
    {
      key: 'schedule',
      header: 'Schedule',
      label: 'Schedule',
      cell: (connection) => (connection.syncIntervalHours ? `Every ${connection.syncIntervalHours} h, next ${when(connection.nextSyncAt)}` : 'Only when asked'),
    },
    ...(editable ? [{ key: 'actions', header: 'Actions', className: 'row-actions', cell: (connection: Integration) => <ConnectionActions connection={connection} refresh={() => list.mutate()} /> }] : []),
  ];
  // Roles are spelled out: on phones the rows become cards (CSS), which must stay a table to assistive tech.
  return <DataTable className="table-scroll connections" label="Connections" explicitRoles columns={columns} rows={connections} rowKey={(connection) => connection.id} />;
}

function ConnectorField({ field, preset }: { field: Schemas['IntegrationConnectorField']; preset?: string }) {
  const common = { name: `config.${field.key}`, required: field.required, 'aria-describedby': `help-${field.key}` };
  return (
    <label>
      {field.label}
      {field.type === 'select' ? (
        <select {...common} defaultValue={preset ?? field.options?.[0]?.value}>
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

  async function connect(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!connector) return;
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const config: Record<string, string> = {};
    for (const field of connector.fields) {
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
        <select value={kind} onChange={(event) => setKind(event.target.value)}>
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
            {connector.fields.map((field) => (
              <ConnectorField key={field.key} field={field} preset={field.key === 'importKind' ? importKind : undefined} />
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
