import { type ChangeEvent, useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { formatNumber } from '../../ui/format';
import { useToasts } from '../../ui/Toasts';
import './integrations.css';

type Schemas = components['schemas'];
export type ImportKind = Schemas['PeopleImportKind'];
type Mapping = Schemas['PeopleImportColumnMapping'];
type FieldName = Schemas['PeopleImportFieldName'];
type PeopleImport = Schemas['PeopleImport'];
type UploadedFile = Schemas['PeopleImportFile'];

export const IMPORT_TITLES: Record<ImportKind, string> = {
  employees: 'Import employees',
  equityGrants: 'Import equity grants',
};

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const FINISHED: ReadonlySet<PeopleImport['status']> = new Set(['planned', 'applied', 'rejected', 'failed', 'cancelled']);
const SHOWN_PROBLEMS = 200;

/** What a plan will do (in the words the CLI prints too), or what it did. */
export function planSummary(plan: Schemas['PeopleImportPlan'], kind: ImportKind, done = false): string {
  const [create, update, add] = done ? ['created', 'updated', 'added'] : ['to create', 'to update', 'to add'];
  const counts = `${formatNumber(plan.create)} ${create}, ${formatNumber(plan.update)} ${update}, ${formatNumber(plan.unchanged)} unchanged`;
  if (kind !== 'employees') return counts;
  return `${counts}; ${formatNumber(plan.compensationRecords.add)} compensation records ${add}`;
}

/** The headline of an import's market warning (in the words the CLI prints too). */
export function marketExclusionsHeadline(exclusions: Schemas['PeopleImportMarketExclusions']): string {
  const of = `${formatNumber(exclusions.employees)} of the ${formatNumber(exclusions.activeEmployees)} active employee${exclusions.activeEmployees === 1 ? '' : 's'} in this file`;
  return `A market release built today would leave out ${of}, if your company takes part in the market:`;
}

/** How many rows the market will leave out, why, and the fix for each; nothing when it takes them all. */
function MarketExclusions({ plan }: { plan: Schemas['PeopleImportPlan'] }) {
  const exclusions = plan.marketExclusions;
  if (!exclusions || exclusions.employees === 0) return null;
  return (
    <div className="import-market-warning" data-testid="import-market-exclusions" role="note">
      <p>{marketExclusionsHeadline(exclusions)}</p>
      <ul>
        {exclusions.reasons.map((entry) => (
          <li key={entry.reason}>
            <strong>{formatNumber(entry.employees)}</strong> — {entry.description}. <span className="muted">{entry.fix}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** An import started on the server, followed until it settles (it runs as a background job). */
function useImportRun(runId: string | null) {
  return useQuery(
    '/api/people-imports/runs/{peopleImportRunId}',
    runId ? { params: { path: { peopleImportRunId: runId } } } : null,
    // Polled every second until it settles; the app's hour-long de-duplication would swallow the polls.
    { refreshInterval: (latest) => (latest && FINISHED.has(latest.data.status) ? 0 : 1000), dedupingInterval: 0 },
  );
}

function RunResult({ run, kind }: { run: PeopleImport; kind: ImportKind }) {
  if (!FINISHED.has(run.status)) {
    return (
      <p role="status" aria-live="polite">
        {run.status === 'queued' ? 'Waiting to start…' : run.dryRun ? 'Checking every row…' : 'Importing…'}
      </p>
    );
  }
  if (run.status === 'planned' && run.plan) {
    return (
      <>
        <p role="status" className="import-plan">
          Every row is fine: {planSummary(run.plan, kind)}. Nothing has been written yet.
        </p>
        <MarketExclusions plan={run.plan} />
      </>
    );
  }
  if (run.status === 'applied' && run.plan) {
    return (
      <>
        <p role="status" className="import-plan">
          Imported: {planSummary(run.plan, kind, true)}.
        </p>
        <MarketExclusions plan={run.plan} />
      </>
    );
  }
  if (run.status === 'rejected') {
    return (
      <div role="alert" className="import-problems">
        <p>
          {formatNumber(run.errorCount)} {run.errorCount === 1 ? 'problem' : 'problems'} in the file; nothing was written. Fix the file and upload it again.
        </p>
        <ul className="field-problems">
          {run.errors.slice(0, SHOWN_PROBLEMS).map((problem) => (
            <li key={`${problem.line}|${problem.column ?? ''}|${problem.message}`}>
              line {problem.line}
              {problem.column ? `: ${problem.column}` : ''}: {problem.message}
            </li>
          ))}
        </ul>
        {run.errorCount > SHOWN_PROBLEMS && <p className="muted">The first {SHOWN_PROBLEMS} are shown.</p>}
      </div>
    );
  }
  return <p role="alert">{run.message ?? `The import ${run.status === 'cancelled' ? 'was cancelled' : 'failed'}; nothing was written.`}</p>;
}

/** Which column fills each field: the suggestion, a saved mapping, or the person's own choice. */
function MappingEditor({ kind, file, mapping, onChange }: { kind: ImportKind; file: UploadedFile; mapping: Mapping; onChange: (mapping: Mapping) => void }) {
  const fields = useQuery('/api/people-imports/fields', { params: { query: { kind } } });
  const saved = useQuery('/api/people-imports/mappings', { params: { query: { kind } } });
  const { add } = useToasts();
  const [name, setName] = useState('');

  function choose(field: FieldName, column: string) {
    const next: Mapping = { ...mapping };
    if (column) next[field] = column;
    else delete next[field];
    onChange(next);
  }

  function applySaved(event: ChangeEvent<HTMLSelectElement>) {
    const chosen = saved.data?.data.find((entry) => entry.id === event.target.value);
    if (chosen) onChange(Object.fromEntries(Object.entries(chosen.mapping).filter(([, column]) => file.columns.includes(column))));
  }

  async function save() {
    const { error } = await api.PUT('/api/people-imports/mappings', { body: { kind, name: name.trim(), mapping } });
    if (error) return add('error', errorMessage(error));
    add('success', `Mapping “${name.trim()}” saved.`);
    setName('');
    await saved.mutate();
  }

  if (fields.error) return <p role="alert">{errorMessage(fields.error)}</p>;
  const missing = (fields.data?.data ?? []).filter((field) => field.required && !mapping[field.field]);
  return (
    <fieldset className="import-mapping">
      <legend>Which column fills each field</legend>
      {(saved.data?.data.length ?? 0) > 0 && (
        <label>
          Use a saved mapping
          <select defaultValue="" onChange={applySaved}>
            <option value="">—</option>
            {saved.data?.data.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="mapping-rows">
        {(fields.data?.data ?? []).map((field) => (
          <label key={field.field}>
            <span>
              {field.label}
              {field.required && <span className="badge">required</span>}
            </span>
            <select aria-label={field.label} value={mapping[field.field] ?? ''} onChange={(event) => choose(field.field, event.target.value)}>
              <option value="">— not imported —</option>
              {file.columns.map((column) => (
                <option key={column} value={column}>
                  {column}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {missing.length > 0 && <p role="alert">Choose a column for: {missing.map((field) => field.label).join(', ')}.</p>}
      <div className="actions">
        <label>
          Save this mapping as
          <input value={name} onChange={(event) => setName(event.target.value)} maxLength={120} placeholder="e.g. Payroll export" />
        </label>
        <button type="button" onClick={() => void save()} disabled={!name.trim()}>
          Save mapping
        </button>
      </div>
    </fieldset>
  );
}

/**
 * Upload an HRIS or cap-table file (CSV or XLSX), map its columns, check every row, then import it
 * all or nothing. The server does the work in a background job; this follows it.
 */
export function PeopleImportWizard({ kind }: { kind: ImportKind }) {
  const { add } = useToasts();
  const [file, setFile] = useState<UploadedFile | null>(null);
  const [mapping, setMapping] = useState<Mapping>({});
  const [uploading, setUploading] = useState(false);
  const [checkId, setCheckId] = useState<string | null>(null);
  const [importId, setImportId] = useState<string | null>(null);
  const check = useImportRun(checkId).data?.data;
  const run = useImportRun(importId).data?.data;

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    setUploading(true);
    setCheckId(null);
    setImportId(null);
    const isXlsx = chosen.name.toLowerCase().endsWith('.xlsx');
    const { data, error } = await api.POST('/api/people-imports/files', {
      params: { query: { kind, filename: chosen.name } },
      // The body is the file itself, sent as it is with its media type.
      body: chosen as unknown as string,
      bodySerializer: (body: unknown) => body as BodyInit,
      headers: { 'Content-Type': isXlsx ? XLSX_TYPE : 'text/csv' },
    });
    setUploading(false);
    event.target.value = '';
    if (error) return add('error', errorMessage(error));
    setFile(data.data);
    setMapping(data.data.suggestedMapping);
  }

  async function start(dryRun: boolean) {
    if (!file) return;
    const { data, error } = await api.POST('/api/people-imports/files/{peopleImportFileId}/runs', {
      params: { path: { peopleImportFileId: file.id } },
      body: { dryRun, mapping },
    });
    if (error) return add('error', errorMessage(error));
    if (dryRun) {
      setCheckId(data.data.id);
      setImportId(null);
    } else setImportId(data.data.id);
  }

  const checking = check !== undefined && !FINISHED.has(check.status);
  const importing = run !== undefined && !FINISHED.has(run.status);
  const checkedClean = check?.status === 'planned';
  return (
    <div className="people-import">
      <label>
        {file ? 'Upload another file' : 'CSV or XLSX file'}
        <input type="file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" onChange={(event) => void upload(event)} disabled={uploading || importing} />
      </label>
      {uploading && <p role="status">Reading the file…</p>}
      {file && (
        <>
          <p className="muted" data-testid="import-file">
            {file.filename}: {formatNumber(file.rowCount)} {file.rowCount === 1 ? 'row' : 'rows'}, {file.columns.length} columns
          </p>
          <MappingEditor
            kind={kind}
            file={file}
            mapping={mapping}
            onChange={(next) => {
              setMapping(next);
              setCheckId(null);
              setImportId(null);
            }}
          />
          <div className="actions">
            <button type="button" onClick={() => void start(true)} disabled={checking || importing}>
              Check the file
            </button>
            <button type="button" className="primary" onClick={() => void start(false)} disabled={!checkedClean || importing || run?.status === 'applied'}>
              Import
            </button>
          </div>
          {run ? <RunResult run={run} kind={kind} /> : check && <RunResult run={check} kind={kind} />}
        </>
      )}
    </div>
  );
}
