import { FileChartColumn } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { invalidate } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { SkeletonCards } from '../../ui/Skeleton';
import { Empty } from '../../ui/States';
import { DataTable } from '../../ui/DataTable';
import { FailureScreen } from '../../ui/Screens';
import { FullSizeSpinner } from '../../ui/Spinner';
import { useToasts } from '../../ui/Toasts';
import { can } from '../settings/permissions';
import { useBenchmarkingCatalog } from './data';
import { SliceCollaborators } from './Collaborators';
import { BenchmarkingFrame } from './Frame';
import { ExchangeRatesNote, ExecutiveResultsTable, ResultsTable } from './ResultsTable';
import { describeMarket, marketLabeller } from './markets';
import { fromRequest } from './selection';
import { selectionQuery } from './useSelection';
import './benchmarking.css';

type SharedSlice = components['schemas']['SharedSlice'];

const STATUS: Record<SharedSlice['status'], string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

function SliceHeader({ slice }: { slice: SharedSlice }) {
  return (
    <header className="slice-head">
      <p className="eyebrow">Shared {slice.kind === 'executive' ? 'executive compensation' : 'market data'}</p>
      <h1>{slice.title}</h1>
      <p className="muted">
        Shared {slice.createdBy ? `by ${slice.createdBy.name} ` : ''}on {new Date(slice.createdAt).toLocaleDateString()} · market release {slice.releaseVersion} · as it was
        then
        {slice.expiresAt ? ` · open until ${new Date(slice.expiresAt).toLocaleDateString()}` : ''}
        {slice.status !== 'active' ? ` · ${STATUS[slice.status]}` : ''}
      </p>
    </header>
  );
}

function sliceFailure(error: unknown) {
  const status = (error as { status?: number }).status;
  if (status === 404) return <FailureScreen title="This shared slice is not available" description="It does not exist, was revoked, has expired, or belongs to another company." actions={<a href="/home">Back to home</a>} />;
  if (status === 403) return <FailureScreen title="Permission denied" description="You do not have access to this content. Please contact your company admin for support." />;
  return <FailureScreen title="Something went wrong" description={errorMessage(error)} />;
}

/** Inviting collaborators needs benchmarking edit, and is not done while viewing as someone. */
function useCanInvite(): boolean {
  const person = usePerson().data?.data;
  return can(person, 'benchmarking', 'edit') && !person?.viewAs;
}

/** /shares/:sliceId: a data-explorer slice someone shared, exactly as it answered then. */
export function SharedSliceScreen() {
  const { sliceId = '' } = useParams<{ sliceId: string }>();
  const view = useQuery('/api/shares/{sliceId}', { params: { path: { sliceId } } });
  const { name } = useBenchmarkingCatalog();
  const editable = useCanInvite();
  if (view.error) return sliceFailure(view.error);
  if (!view.data) return <FullSizeSpinner loading label="Loading the shared slice" />;
  const { slice, result } = view.data.data;
  const markets = 'jobFamilies' in slice.request ? slice.request.marketFilters : undefined;
  return (
    <section className="area" data-slice={slice.id}>
      <SliceHeader slice={slice} />
      <ResultsTable result={result} name={name} marketLabel={marketLabeller(markets, name)} />
      <ExchangeRatesNote result={result} />
      {editable && <SliceCollaborators slice={slice} />}
    </section>
  );
}

/** /shares/executive/:sliceId: a shared slice of executive compensation. */
export function SharedExecutiveSliceScreen() {
  const { sliceId = '' } = useParams<{ sliceId: string }>();
  const view = useQuery('/api/shares/executive/{sliceId}', { params: { path: { sliceId } } });
  const { name } = useBenchmarkingCatalog();
  const editable = useCanInvite();
  if (view.error) return sliceFailure(view.error);
  if (!view.data) return <FullSizeSpinner loading label="Loading the shared slice" />;
  const { slice, result } = view.data.data;
  return (
    <section className="area" data-slice={slice.id}>
      <SliceHeader slice={slice} />
      <ExecutiveResultsTable result={result} name={name} />
      {editable && <SliceCollaborators slice={slice} />}
    </section>
  );
}

type SavedQuery = components['schemas']['SavedReportQuery'];

function SavedQueryRow({ query, editable }: { query: SavedQuery; editable: boolean }) {
  const { filters, name } = useBenchmarkingCatalog();
  const [, navigate] = useLocation();
  const { add } = useToasts();
  const [open, setOpen] = useState(false);
  const results = useQuery('/api/benchmarking/saved-queries/{savedQueryId}/results', open ? { params: { path: { savedQueryId: query.id } } } : null);
  async function remove() {
    const { error } = await api.DELETE('/api/benchmarking/saved-queries/{savedQueryId}', { params: { path: { savedQueryId: query.id } } });
    if (error) return add('error', errorMessage(error));
    await invalidate('/api/benchmarking/saved-queries');
  }
  async function share() {
    const { data, error } = await api.POST('/api/benchmarking/shares', { body: { title: query.name, savedQueryId: query.id } });
    if (error) return add('error', errorMessage(error));
    navigate(data.data.path);
  }
  function openInExplorer() {
    if (!filters) return;
    navigate(`/benchmarkingsurvey/data-explorer/results${selectionQuery(fromRequest(query.request, filters), filters)}`);
  }
  return (
    <li className="card report" data-report={query.id}>
      <div className="section-head">
        <h3>{query.name}</h3>
        <span className="muted small-text">
          Changed {new Date(query.updatedAt).toLocaleDateString()}
          {query.updatedBy ? ` by ${query.updatedBy.name}` : ''}
        </span>
      </div>
      {query.description && <p>{query.description}</p>}
      <p className="muted small-text report-summary">
        {(query.request.jobFamilies ?? []).map(name).join(', ')} · {(query.request.levels ?? []).map((level) => name(level.id)).join(', ')} ·{' '}
        {(query.request.compensationTypes ?? []).map(name).join(', ')}
        {query.request.currency === 'USD' ? ' · in US dollars' : ''}
      </p>
      <ul className="report-markets" aria-label={`Markets of ${query.name}`}>
        {(query.request.marketFilters ?? []).map((market, index) => (
          <li key={index}>{describeMarket(market, filters, name)}</li>
        ))}
      </ul>
      <div className="actions">
        <button type="button" aria-expanded={open} onClick={() => setOpen((value) => !value)}>
          {open ? 'Hide results' : `Run ${query.name}`}
        </button>
        <button type="button" onClick={openInExplorer} disabled={!filters}>
          Open in the explorer
        </button>
        {editable && (
          <>
            <button type="button" onClick={() => void share()}>
              Share
            </button>
            <button type="button" onClick={() => void remove()}>
              Delete
            </button>
          </>
        )}
      </div>
      {open && results.error && <p role="alert">{errorMessage(results.error)}</p>}
      {open && !results.data && !results.error && <FullSizeSpinner loading label="Running the report" />}
      {open && results.data && (
        <>
          <ResultsTable result={results.data.data} name={name} marketLabel={marketLabeller(query.request.marketFilters, name)} />
          <ExchangeRatesNote result={results.data.data} />
        </>
      )}
    </li>
  );
}

function SharedSlices({ editable }: { editable: boolean }) {
  const slices = useQuery('/api/benchmarking/shares');
  const { add } = useToasts();
  if (!slices.data || slices.data.data.length === 0) return null;
  async function revoke(sliceId: string) {
    const { error } = await api.POST('/api/benchmarking/shares/{sliceId}/revoke', { params: { path: { sliceId } } });
    if (error) return add('error', errorMessage(error));
    await slices.mutate();
  }
  return (
    <section className="card" aria-labelledby="slices-heading">
      <h2 id="slices-heading">Shared slices</h2>
      <DataTable
        caption="Shared slices"
        captionHidden
        rows={slices.data.data}
        rowKey={(slice) => slice.id}
        columns={[
          { key: 'title', header: 'Title', rowHeader: true, cell: (slice) => <Link href={slice.path}>{slice.title}</Link> },
          { key: 'release', header: 'Release', cell: (slice) => slice.releaseVersion },
          { key: 'shared', header: 'Shared', cell: (slice) => new Date(slice.createdAt).toLocaleDateString() },
          { key: 'status', header: 'Status', cell: (slice) => STATUS[slice.status] },
          {
            key: 'actions',
            header: <span className="visually-hidden">Actions</span>,
            cell: (slice) =>
              editable &&
              slice.status === 'active' && (
                <button type="button" className="small" onClick={() => void revoke(slice.id)}>
                  Revoke {slice.title}
                </button>
              ),
          },
        ]}
      />
    </section>
  );
}

const REPORT_FORMATS = ['xlsx', 'csv'] as const;

/** Reports of published releases, written as background jobs, and the market files the company can still download. */
function ReleaseReports({ canStart }: { canStart: boolean }) {
  const reports = useQuery('/api/benchmarking/market-data-reports');
  const { add } = useToasts();
  const [busy, setBusy] = useState<string | null>(null);
  if (reports.error) return <p role="alert">{errorMessage(reports.error)}</p>;
  if (!reports.data) return null;
  const { releases, files } = reports.data.data;
  async function start(releaseId: string, report: 'market_summary' | 'data_composition', format: 'csv' | 'xlsx') {
    setBusy(`${releaseId}|${report}|${format}`);
    const { error } = await api.POST('/api/benchmarking/market-data-reports', { body: { releaseId, report, format } });
    setBusy(null);
    if (error) return add('error', errorMessage(error));
    add('info', 'The report is being written. It appears in your background jobs and below when it is ready.');
    await invalidate('/api/me/background-jobs');
  }
  return (
    <>
      <section className="card" aria-labelledby="release-reports-heading">
        <h2 id="release-reports-heading">Release reports</h2>
        {releases.length === 0 && <p className="muted">No market release is published yet.</p>}
        <ul className="release-list">
          {releases.map((release) => (
            <li key={release.releaseId}>
              <h3>
                Release {release.version} {release.serving && <span className="badge success">Served now</span>}
              </h3>
              {release.publishedAt && <p className="muted small-text">Published {new Date(release.publishedAt).toLocaleDateString()}</p>}
              <ul className="report-kinds">
                {[...new Map(release.reports.map((entry) => [entry.report, entry])).values()].map((entry) => (
                  <li key={entry.report}>
                    <strong>{entry.title}</strong>
                    <p className="muted small-text">{entry.description}</p>
                    {canStart && (
                      <div className="actions">
                        {REPORT_FORMATS.filter((format) => release.reports.some((r) => r.report === entry.report && r.format === format)).map((format) => (
                          <button
                            key={format}
                            type="button"
                            className="small"
                            disabled={busy === `${release.releaseId}|${entry.report}|${format}`}
                            onClick={() => void start(release.releaseId, entry.report, format)}
                          >
                            Write {entry.title} ({format.toUpperCase()})
                          </button>
                        ))}
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </section>
      {files.length > 0 && (
        <section className="card" aria-labelledby="files-heading">
          <h2 id="files-heading">Files you can download</h2>
          <ul className="file-list">
            {files.map((file) => (
              <li key={file.id}>
                <Link href={`/compensation-report-download/${file.id}`}>{file.filename}</Link>{' '}
                <span className="muted small-text">until {new Date(file.expiresAt).toLocaleDateString()}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** /market-data-reports: release reports, the company's saved report queries run on the served release, and its shared slices. */
export function MarketDataReportsScreen() {
  const person = usePerson().data?.data;
  const queries = useQuery('/api/benchmarking/saved-queries');
  const editable = can(person, 'benchmarking', 'edit') && !person?.viewAs;
  return (
    <BenchmarkingFrame>
      <h1>Market data reports</h1>
      <p className="lede">Saved data-explorer queries, each run on the market release served today; and reports of every published release.</p>
      <h2>Saved reports</h2>
      {queries.error && <p role="alert">{errorMessage(queries.error)}</p>}
      {!queries.data && !queries.error && <SkeletonCards count={2} label="Loading saved reports" />}
      {queries.data && queries.data.data.length === 0 && (
        <Empty
          title="No saved reports yet"
          icon={FileChartColumn}
          compact
          headingLevel={3}
          action={
            <Link href="/benchmarkingsurvey/data-explorer" className="button primary">
              Run a benchmark
            </Link>
          }
        >
          Run a benchmark in the data explorer and choose “Save as report”{editable ? '' : ' (saving needs the benchmarking edit permission)'}; it runs again here on every new release.
        </Empty>
      )}
      <ul className="reports" aria-label="Saved reports">
        {queries.data?.data.map((query) => (
          <SavedQueryRow key={query.id} query={query} editable={editable} />
        ))}
      </ul>
      <SharedSlices editable={editable} />
      <ReleaseReports canStart={!person?.viewAs} />
    </BenchmarkingFrame>
  );
}

