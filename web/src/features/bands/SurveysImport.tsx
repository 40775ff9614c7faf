import { type ChangeEvent, useEffect, useState } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { useCompanyCurrency } from '../../api/company';
import { formatNumber } from '../../ui/format';
import { useToasts } from '../../ui/Toasts';
import { invalidate } from '../../api/queries';
import { Problem, type Schemas, fieldProblems, formatDate } from './common';

type SurveyMapping = Schemas['SurveyColumnMapping'];
type SurveyFieldName = Schemas['SurveyFieldName'];
type BandFile = Schemas['BandFile'];
type BandImport = Schemas['BandImport'];
type SavedMapping = Schemas['SavedSurveyMapping'];
type Survey = Schemas['Survey'];

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const FINISHED: ReadonlySet<BandImport['status']> = new Set(['planned', 'applied', 'rejected', 'failed', 'cancelled']);
const SHOWN_PROBLEMS = 200;

/** "  Radford  Global " and "radford global" are one provider (as the server keys saved mappings). */
const providerKey = (provider: string): string => provider.trim().replace(/\s+/g, ' ').toLowerCase();

/** A saved mapping fits a file when the file has every column it names. */
const fits = (saved: SavedMapping, columns: readonly string[]): boolean => Object.values(saved.mapping).every((column) => column !== undefined && columns.includes(column));

const sameMapping = (a: SurveyMapping, b: SurveyMapping): boolean => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as SurveyFieldName[]);
  return [...keys].every((key) => a[key] === b[key]);
};

/** An import started on the server, followed until it settles, with its job's progress meanwhile. */
function useSurveyImport(importId: string | null) {
  const run = useQuery(
    '/api/bands/imports/{bandImportId}',
    importId ? { params: { path: { bandImportId: importId } } } : null,
    // Polled every second until it settles; the app's hour-long de-duplication would swallow the polls.
    { refreshInterval: (latest) => (latest && FINISHED.has(latest.data.status) ? 0 : 1000), dedupingInterval: 0 },
  ).data?.data;
  const jobId = run && !FINISHED.has(run.status) ? run.jobId : null;
  const job = useQuery('/api/background-jobs/{jobId}', jobId ? { params: { path: { jobId } } } : null, { refreshInterval: 1000, dedupingInterval: 0 }).data?.data;
  return { run, progress: jobId ? (job?.progress ?? 0) : null };
}

/** What a plan will do, or did: survey jobs added, changed, unchanged and removed. */
function planText(plan: Schemas['BandImportPlan'], replacing: boolean, done: boolean): string {
  if (!replacing) return `${formatNumber(plan.create)} survey ${plan.create === 1 ? 'job' : 'jobs'} ${done ? 'imported' : 'to import'}`;
  const [add, change, remove] = done ? ['added', 'changed', 'removed'] : ['to add', 'to change', 'to remove'];
  return `${formatNumber(plan.create)} ${add}, ${formatNumber(plan.update)} ${change}, ${formatNumber(plan.unchanged)} unchanged, ${formatNumber(plan.remove ?? 0)} ${remove}`;
}

function UnmatchedAssociations({ plan, done }: { plan: Schemas['BandImportPlan']; done: boolean }) {
  const unmatched = plan.unmatchedAssociations ?? [];
  if (!unmatched.length) return <p className="bands-muted">Every association to this survey still finds its job.</p>;
  return (
    <div data-testid="unmatched-associations">
      <p>
        {formatNumber(unmatched.length)} {unmatched.length === 1 ? 'association no longer matches' : 'associations no longer match'} a job of the file
        {done ? ' and were removed' : ' and will be removed'}; associate those company jobs again:
      </p>
      <ul className="bands-withheld">
        {unmatched.map((entry) => (
          <li key={entry.associationId}>
            {entry.companyJobTitle}: {entry.surveyJobCode} {entry.surveyJobTitle} (weight {formatNumber(entry.weight, 2)})
          </li>
        ))}
      </ul>
    </div>
  );
}

function ImportResult({ run, progress, replacing }: { run: BandImport; progress: number | null; replacing: boolean }) {
  if (!FINISHED.has(run.status)) {
    const label = run.status === 'queued' ? 'Waiting to start…' : run.dryRun ? 'Checking every row…' : 'Importing…';
    return (
      <div role="status" aria-live="polite" className="bands-import-progress">
        <span>{label}</span>
        {progress !== null && <progress max={100} value={progress} aria-label="Import progress" />}
      </div>
    );
  }
  if (run.status === 'planned' && run.plan) {
    return (
      <div role="status" className="bands-outcome">
        <p>
          Every row is fine: {planText(run.plan, replacing, false)}. Nothing has been written yet.
        </p>
        {replacing && <UnmatchedAssociations plan={run.plan} done={false} />}
      </div>
    );
  }
  if (run.status === 'applied' && run.plan) {
    return (
      <div role="status" className="bands-outcome">
        <p>Imported: {planText(run.plan, replacing, true)}.</p>
        {replacing && <UnmatchedAssociations plan={run.plan} done />}
      </div>
    );
  }
  if (run.status === 'rejected' && run.errorCount > 0) {
    return (
      <div role="alert" className="bands-import-problems">
        <p>
          {formatNumber(run.errorCount)} {run.errorCount === 1 ? 'problem' : 'problems'} in the file; nothing was written. Fix the file and upload it again.
        </p>
        <ul>
          {run.errors.slice(0, SHOWN_PROBLEMS).map((problem) => (
            <li key={`${problem.line}|${problem.column ?? ''}|${problem.message}`}>
              line {problem.line}
              {problem.column ? `: ${problem.column}` : ''}: {problem.message}
            </li>
          ))}
        </ul>
        {run.errorCount > SHOWN_PROBLEMS && <p className="bands-muted">The first {SHOWN_PROBLEMS} are shown.</p>}
      </div>
    );
  }
  return <p role="alert">{run.message ?? `The import ${run.status === 'cancelled' ? 'was cancelled' : 'failed'}; nothing was written.`}</p>;
}

/** Which column fills each survey field: the saved mapping of the provider, the suggestion, or the person's choice. */
function SurveyMapper({ file, mapping, onChange }: { file: BandFile; mapping: SurveyMapping; onChange: (mapping: SurveyMapping) => void }) {
  const fields = useQuery('/api/bands/survey-fields');
  function choose(field: SurveyFieldName, column: string) {
    const next: SurveyMapping = { ...mapping };
    if (column) next[field] = column;
    else delete next[field];
    onChange(next);
  }
  if (fields.error) return <p role="alert">{errorMessage(fields.error)}</p>;
  const list = fields.data?.data ?? [];
  const missing = list.filter((field) => field.required && !mapping[field.field]).map((field) => field.label);
  if (!(['p10', 'p25', 'p50', 'p75', 'p90'] as const).some((name) => mapping[name])) missing.push('at least one percentile');
  return (
    <fieldset className="bands-mapping">
      <legend>Which column fills each field</legend>
      <div className="bands-fields">
        {list.map((field) => (
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
      {missing.length > 0 && <p role="alert">Choose a column for: {missing.join(', ')}.</p>}
    </fieldset>
  );
}

/**
 * Upload a survey file (CSV or XLSX), confirm the column mapping (the provider's saved one first,
 * else the suggestion), check every row, then import it all or nothing as a background job — as a
 * new survey, or replacing the jobs of `replace`.
 */
export function SurveyImport({ replace, onDone }: { replace?: Survey; onDone?: () => void }) {
  const { add } = useToasts();
  const saved = useQuery('/api/bands/survey-mappings');
  const company = useCompanyCurrency();
  const [file, setFile] = useState<BandFile | null>(null);
  const [mapping, setMapping] = useState<SurveyMapping>({});
  const [usingSaved, setUsingSaved] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [provider, setProvider] = useState(replace?.provider ?? '');
  const [effectiveDate, setEffectiveDate] = useState(replace?.effectiveDate ?? '');
  const [currency, setCurrency] = useState('');
  const [remember, setRemember] = useState(true);
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<{ message: string; fields: string[] } | null>(null);
  const [checkId, setCheckId] = useState<string | null>(null);
  const [importId, setImportId] = useState<string | null>(null);
  const check = useSurveyImport(checkId);
  const run = useSurveyImport(importId);
  const savedList = saved.data?.data ?? [];
  const currencyShown = currency || company.currency || 'USD';

  function reset() {
    setCheckId(null);
    setImportId(null);
    setProblem(null);
  }

  /** The mapping saved for this provider, applied when the file has its columns. */
  function applySavedFor(nextProvider: string, columns: readonly string[]): boolean {
    const match = savedList.find((entry) => providerKey(entry.provider) === providerKey(nextProvider));
    if (!match || !fits(match, columns)) return false;
    setMapping(match.mapping);
    setUsingSaved(match.provider);
    return true;
  }

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    setUploading(true);
    reset();
    const isXlsx = chosen.name.toLowerCase().endsWith('.xlsx');
    const { data, error } = await api.POST('/api/bands/files', {
      params: { query: { kind: 'survey', filename: chosen.name } },
      // The body is the file itself, sent as it is with its media type.
      body: chosen as unknown as string,
      bodySerializer: (body: unknown) => body as BodyInit,
      headers: { 'Content-Type': isXlsx ? XLSX_TYPE : 'text/csv' },
    });
    setUploading(false);
    event.target.value = '';
    if (error || !data) return add('error', errorMessage(error));
    const uploaded = data.data;
    setFile(uploaded);
    setUsingSaved(null);
    // The provider's saved mapping first; a new file with no provider yet takes the first saved mapping that fits it.
    if (provider.trim() && applySavedFor(provider, uploaded.columns)) return;
    const fitting = provider.trim() ? undefined : savedList.find((entry) => fits(entry, uploaded.columns));
    if (fitting) {
      setProvider(fitting.provider);
      setMapping(fitting.mapping);
      setUsingSaved(fitting.provider);
      return;
    }
    setMapping(uploaded.suggestedMapping ?? {});
  }

  function changeProvider(next: string) {
    setProvider(next);
    reset();
    if (file && !applySavedFor(next, file.columns) && usingSaved && providerKey(usingSaved) !== providerKey(next)) {
      setUsingSaved(null);
      setMapping(file.suggestedMapping ?? {});
    }
  }

  /** Remembers the confirmed mapping for the provider: a new one, or the saved one at the version read. */
  async function rememberMapping(): Promise<boolean> {
    const existing = savedList.find((entry) => providerKey(entry.provider) === providerKey(provider));
    if (existing && sameMapping(existing.mapping, mapping)) return true;
    const { error } = existing
      ? await api.PATCH('/api/bands/survey-mappings/{surveyMappingId}', { params: { path: { surveyMappingId: existing.id }, header: { 'If-Match': `"${existing.version}"` } }, body: { mapping } })
      : await api.POST('/api/bands/survey-mappings', { body: { provider: provider.trim(), mapping } });
    await saved.mutate();
    if (error) {
      setProblem({ message: errorMessage(error), fields: fieldProblems(error) });
      return false;
    }
    return true;
  }

  async function start(dryRun: boolean) {
    if (!file) return;
    setProblem(null);
    if (!dryRun && remember && !(await rememberMapping())) return;
    const { data, error } = replace
      ? await api.POST('/api/bands/surveys/{surveyId}/imports', {
          params: { path: { surveyId: replace.id }, header: { 'If-Match': `"${replace.version}"` } },
          body: { fileId: file.id, mapping, dryRun, ...(effectiveDate ? { effectiveDate } : {}) },
        })
      : await api.POST('/api/bands/survey-imports', {
          body: { fileId: file.id, mapping, dryRun, survey: { name: name.trim(), provider: provider.trim(), effectiveDate, currency: currencyShown } },
        });
    if (error || !data) return setProblem({ message: errorMessage(error), fields: fieldProblems(error) });
    if (dryRun) {
      setCheckId(data.data.id);
      setImportId(null);
    } else setImportId(data.data.id);
  }

  const checking = check.run !== undefined && !FINISHED.has(check.run.status);
  const importing = run.run !== undefined && !FINISHED.has(run.run.status);
  const applied = run.run?.status === 'applied';
  const checkedClean = check.run?.status === 'planned';
  // The lists behind the screen (surveys, their counts, associations) are asked again once it is written.
  useEffect(() => {
    if (applied) void invalidate((path) => path.startsWith('/api/bands/') && !path.startsWith('/api/bands/imports/'));
  }, [applied]);
  const shown = run.run ? run : check;
  const described = replace ? true : Boolean(name.trim() && provider.trim() && effectiveDate);
  return (
    <div className="bands-survey-import">
      <label>
        {file ? 'Upload another file' : 'Survey file (CSV or XLSX)'}
        <input type="file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" onChange={(event) => void upload(event)} disabled={uploading || importing} />
      </label>
      {uploading && <p role="status">Reading the file…</p>}
      {file && (
        <>
          <p className="bands-muted" data-testid="survey-file">
            {file.filename}: {formatNumber(file.rowCount)} {file.rowCount === 1 ? 'row' : 'rows'}, {file.columns.length} columns
          </p>
          <div className="bands-fields">
            {!replace && (
              <label>
                Survey name
                <input value={name} onChange={(event) => { setName(event.target.value); reset(); }} maxLength={200} required autoComplete="off" />
              </label>
            )}
            {!replace && (
              <label>
                Provider
                <input value={provider} onChange={(event) => changeProvider(event.target.value)} maxLength={200} required autoComplete="off" list="survey-providers" />
                <datalist id="survey-providers">
                  {savedList.map((entry) => (
                    <option key={entry.id} value={entry.provider} />
                  ))}
                </datalist>
              </label>
            )}
            <label>
              Effective date
              <input type="date" value={effectiveDate} onChange={(event) => { setEffectiveDate(event.target.value); reset(); }} required />
            </label>
            {!replace && (
              <label>
                Currency
                <input value={currencyShown} onChange={(event) => { setCurrency(event.target.value.toUpperCase()); reset(); }} maxLength={3} pattern="[A-Z]{3}" required autoComplete="off" />
              </label>
            )}
          </div>
          {replace && (
            <p className="bands-muted">
              The file’s jobs replace the {formatNumber(replace.jobCount)} jobs of “{replace.name}” (figures in {replace.currency}, effective {formatDate(replace.effectiveDate)} until now). Associations whose job the file still has are kept.
            </p>
          )}
          {usingSaved && (
            <p className="bands-muted" data-testid="saved-mapping-used">
              Using the mapping saved for {usingSaved}’s files.
            </p>
          )}
          <SurveyMapper
            file={file}
            mapping={mapping}
            onChange={(next) => {
              setMapping(next);
              reset();
            }}
          />
          {provider.trim() && (
            <label className="bands-check">
              <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
              Remember this mapping for {provider.trim()}’s files
            </label>
          )}
          <Problem message={problem?.message ?? null} fields={problem?.fields} />
          <div className="actions">
            <button type="button" onClick={() => void start(true)} disabled={checking || importing || !described}>
              Check the file
            </button>
            <button type="button" className="primary" onClick={() => void start(false)} disabled={!checkedClean || importing || applied}>
              {replace ? 'Replace the jobs' : 'Import survey'}
            </button>
            {applied && onDone && (
              <button type="button" onClick={onDone}>
                Done
              </button>
            )}
          </div>
          {shown.run && <ImportResult run={shown.run} progress={shown.progress} replacing={Boolean(replace)} />}
        </>
      )}
    </div>
  );
}
