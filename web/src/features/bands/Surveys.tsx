import { Database, FileUp, Plus } from 'lucide-react';
import { useState } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { type Column, DataTable } from '../../ui/DataTable';
import { DataGrid } from '../../ui/DataGrid';
import { useQueryParam } from '../../ui/urlState';
import { toTsv } from '../../ui/gridModel';
import { majorOf } from '../../ui/format';
import { ConfirmDelete } from '../../ui/ConfirmDelete';
import { Modal } from '../../ui/Modal';
import { Section } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { BandsFrame, type Schemas, formatDate, formatMoney, formatNumber, refreshBands, useBandsAccess } from './common';
import { SurveyImport } from './SurveysImport';

type Survey = Schemas['Survey'];
type SurveyJob = Schemas['SurveyJob'];
type MarketSource = Schemas['MarketSurveySource'];

/** One row of the list: an imported or BLS survey, or the served market release as a source. */
type SourceRow = { kind: 'survey'; survey: Survey } | { kind: 'market'; market: MarketSource };

const KIND_LABEL: Record<Survey['kind'] | 'market', string> = {
  imported: 'Imported file',
  bls: 'BLS OEWS national',
  market: 'Market release',
};

/** Deleting a survey: refused while an association uses it, in the server's words. */
function DeleteSurvey({ survey, onClose }: { survey: Survey; onClose: () => void }) {
  const { add } = useToasts();
  return (
    <ConfirmDelete
      title={`Delete “${survey.name}”?`}
      confirmLabel="Delete survey"
      problemClassName="bands-problem"
      onClose={onClose}
      call={() => api.DELETE('/api/bands/surveys/{surveyId}', { params: { path: { surveyId: survey.id } } })}
      onDeleted={async () => {
        await refreshBands();
        add('success', `Deleted “${survey.name}”.`);
        onClose();
      }}
    >
      <p>Its {formatNumber(survey.jobCount)} jobs go with it. A survey that company jobs are associated with is kept until those associations are removed.</p>
    </ConfirmDelete>
  );
}

/** The mappings remembered per provider, offered first on that provider's next file. */
function SavedMappings() {
  const saved = useQuery('/api/bands/survey-mappings');
  const access = useBandsAccess();
  const { add } = useToasts();
  async function forget(entry: Schemas['SavedSurveyMapping']) {
    const { error } = await api.DELETE('/api/bands/survey-mappings/{surveyMappingId}', { params: { path: { surveyMappingId: entry.id } } });
    if (error) return add('error', errorMessage(error));
    add('success', `Forgot the mapping saved for ${entry.provider}.`);
    await saved.mutate();
  }
  const list = saved.data?.data ?? [];
  if (!list.length) return null;
  return (
    <Section title="Saved column mappings" id="survey-mappings-heading">
      <p className="bands-muted">The next file from one of these providers is read through its mapping first; you can still change any column before importing.</p>
      <DataTable
        caption="Saved column mappings by provider"
        captionHidden
        cardsOnPhone
        rows={list}
        rowKey={(entry) => entry.id}
        columns={[
          { key: 'provider', header: 'Provider', rowHeader: true, cell: (entry) => entry.provider },
          {
            key: 'mapping',
            header: 'Columns',
            cell: (entry) =>
              Object.entries(entry.mapping)
                .map(([field, column]) => `${field} ← ${column}`)
                .join(', '),
          },
          { key: 'saved', header: 'Saved', cell: (entry) => formatDate(entry.updatedAt) },
          ...(access.edit
            ? [
                {
                  key: 'actions',
                  header: <span className="visually-hidden">Actions</span>,
                  label: 'Actions',
                  cell: (entry: Schemas['SavedSurveyMapping']) => (
                    <span className="bands-row-actions bands-wide-only">
                      <button type="button" className="small ghost" onClick={() => void forget(entry)} aria-label={`Forget the mapping for ${entry.provider}`}>
                        Forget
                      </button>
                    </span>
                  ),
                },
              ]
            : []),
        ]}
      />
    </Section>
  );
}

const PERCENTILE_KEYS = ['p10', 'p25', 'p50', 'p75', 'p90'] as const;

/** Jobs as tab-separated text with a header line, figures in major units, as a spreadsheet takes them. */
function jobsTsv(jobs: readonly SurveyJob[], columns: readonly Column<SurveyJob>[]): string {
  return toTsv(
    columns.map((column) => column.label ?? String(column.header)),
    jobs.map((job) => columns.map((column) => (PERCENTILE_KEYS.some((key) => key === column.key) ? majorText(job[column.key as (typeof PERCENTILE_KEYS)[number]]) : String(column.value?.(job) ?? '')))),
  );
}

const majorText = (money: Schemas['Money'] | null): string => (money ? String(majorOf(money)) : '');

/** A survey's jobs in the data grid: every column sorted and filtered, percentiles in whole units of the survey's currency. */
function SurveyJobs({ surveyId, onClose }: { surveyId: string; onClose: () => void }) {
  const detail = useQuery('/api/bands/surveys/{surveyId}', { params: { path: { surveyId } } });
  const survey = detail.data?.data;
  const columns: Column<SurveyJob>[] = [
    { key: 'code', header: 'Code', rowHeader: true, size: 110, value: (job) => job.code, title: (job) => job.code, cell: (job) => job.code },
    { key: 'title', header: 'Title', size: 260, value: (job) => job.title, title: (job) => job.title, cell: (job) => job.title },
    { key: 'family', header: 'Family', size: 180, value: (job) => job.family, title: (job) => job.family ?? undefined, cell: (job) => job.family ?? '—' },
    { key: 'level', header: 'Level', size: 90, value: (job) => job.level, cell: (job) => job.level ?? '—' },
    { key: 'location', header: 'Location', size: 150, value: (job) => job.location, title: (job) => job.location ?? undefined, cell: (job) => job.location ?? '—' },
    ...PERCENTILE_KEYS.map(
      (key): Column<SurveyJob> => ({
        key,
        header: `P${key.slice(1)}`,
        label: `${key.slice(1)}th percentile`,
        numeric: true,
        size: 110,
        value: (job) => job[key]?.amount ?? null,
        cell: (job) => formatMoney(job[key]),
      }),
    ),
    { key: 'incumbents', header: 'Incumbents', numeric: true, size: 110, value: (job) => job.incumbentCount, cell: (job) => (job.incumbentCount === null ? '—' : formatNumber(job.incumbentCount)) },
    { key: 'companies', header: 'Companies', numeric: true, size: 110, value: (job) => job.companyCount, cell: (job) => (job.companyCount === null ? '—' : formatNumber(job.companyCount)) },
  ];
  return (
    <Section
      title={survey ? `Jobs of “${survey.name}”` : 'Jobs of the survey'}
      id="survey-jobs-heading"
      actions={
        <button type="button" className="small" onClick={onClose}>
          Close the jobs
        </button>
      }
    >
      <Loaded data={survey} error={detail.error} retry={() => void detail.mutate()} skeleton={<SkeletonTable rows={8} columns={8} label="Loading the survey’s jobs" />}>
        {(loaded) =>
          loaded.jobs.length === 0 ? (
            <Empty title="No jobs in this survey" icon={Database} compact>
              Replace its jobs with a file to fill it.
            </Empty>
          ) : (
            <DataGrid
              id="survey-jobs"
              label={`Jobs of ${loaded.name}, by code`}
              rows={loaded.jobs}
              rowKey={(job) => job.code}
              rowName={(job) => `${job.code} ${job.title}`}
              rowAttributes={(job) => ({ 'data-job-code': job.code })}
              columns={columns}
              pinned={2}
              filters
              bulkActions={(chosen) => (
                <button type="button" className="small" onClick={() => void navigator.clipboard?.writeText(jobsTsv(chosen, columns))}>
                  Copy {formatNumber(chosen.length)} {chosen.length === 1 ? 'job' : 'jobs'} for a spreadsheet
                </button>
              )}
            />
          )
        }
      </Loaded>
    </Section>
  );
}

/** /bands/surveys: third-party market data — imported files, the BLS survey and the market release — and importing more. */
export function SurveysScreen() {
  const access = useBandsAccess();
  const surveys = useQuery('/api/bands/surveys');
  const { add } = useToasts();
  const [importing, setImporting] = useState(false);
  const [replacing, setReplacing] = useState<Survey | null>(null);
  const [deleting, setDeleting] = useState<Survey | null>(null);
  const [addingBls, setAddingBls] = useState(false);
  const [openSurvey, setOpenSurvey] = useQueryParam('survey');
  const hasBls = surveys.data?.data.some((survey) => survey.kind === 'bls') ?? true;

  async function addBls() {
    setAddingBls(true);
    const { data, error } = await api.POST('/api/bands/surveys/bls');
    setAddingBls(false);
    if (error || !data) return add('error', errorMessage(error));
    add('success', `Added “${data.data.name}”: ${formatNumber(data.data.jobCount)} occupations.`);
    await refreshBands();
  }

  const actions = access.edit ? (
    <span className="bands-row-actions bands-wide-only">
      <button type="button" className="primary" onClick={() => setImporting(true)} disabled={importing}>
        <FileUp size={18} aria-hidden="true" /> Import a survey file
      </button>
      {!hasBls && (
        <button type="button" onClick={() => void addBls()} disabled={addingBls}>
          <Plus size={18} aria-hidden="true" /> Add the BLS survey
        </button>
      )}
    </span>
  ) : undefined;

  return (
    <BandsFrame
      title="Surveys"
      icon={Database}
      description="Third-party market data: survey files you import, the BLS national survey, and Paybench’s own market release. Associate company jobs with their jobs to price bands from a composite."
      actions={actions}
    >
      {importing && (
        <Section title="Import a survey file" id="survey-import-heading" className="bands-wide-only">
          <SurveyImport onDone={() => setImporting(false)} />
        </Section>
      )}
      <Loaded data={surveys.data} error={surveys.error} retry={() => void surveys.mutate()} skeleton={<SkeletonTable rows={4} columns={6} label="Loading the surveys" />}>
        {({ data, market }) => {
          const rows: SourceRow[] = [...data.map((survey): SourceRow => ({ kind: 'survey', survey })), ...(market ? [{ kind: 'market', market } as SourceRow] : [])];
          return data.length === 0 && !market ? (
            <Empty title="No surveys yet" icon={Database} action={actions}>
              Import a survey file or add the BLS national survey, then associate your company jobs with its jobs.
            </Empty>
          ) : (
            <DataGrid
              id="band-surveys"
              label="Surveys, newest effective date first"
              rows={rows}
              rowName={(row) => (row.kind === 'survey' ? row.survey.name : row.market.name)}
              onOpen={(row) => (row.kind === 'survey' ? setOpenSurvey(row.survey.id) : undefined)}
              filters
              rowKey={(row) => (row.kind === 'survey' ? row.survey.id : `market-${row.market.releaseId}`)}
              rowAttributes={(row) => (row.kind === 'survey' ? { 'data-survey-id': row.survey.id } : { 'data-survey-id': 'market' })}
              columns={[
                {
                  key: 'name',
                  header: 'Survey',
                  rowHeader: true,
                  size: 280,
                  value: (row) => (row.kind === 'survey' ? row.survey.name : row.market.name),
                  title: (row) => (row.kind === 'survey' ? row.survey.name : row.market.name),
                  cell: (row) =>
                    row.kind === 'survey' ? (
                      <>
                        {row.survey.name}
                        {row.survey.filename && <span className="bands-job-meta">{row.survey.filename}</span>}
                      </>
                    ) : (
                      <>
                        {row.market.name}
                        <span className="bands-job-meta">Release {row.market.releaseVersion}</span>
                      </>
                    ),
                },
                { key: 'provider', header: 'Source', size: 160, value: (row) => (row.kind === 'survey' ? row.survey.provider : row.market.provider), cell: (row) => (row.kind === 'survey' ? row.survey.provider : row.market.provider) },
                { key: 'kind', header: 'Kind', size: 150, value: (row) => KIND_LABEL[row.kind === 'survey' ? row.survey.kind : 'market'], cell: (row) => KIND_LABEL[row.kind === 'survey' ? row.survey.kind : 'market'] },
                {
                  key: 'effective',
                  header: 'Effective',
                  size: 130,
                  value: (row) => (row.kind === 'survey' ? row.survey.effectiveDate : row.market.effectiveDate),
                  cell: (row) => formatDate(row.kind === 'survey' ? row.survey.effectiveDate : row.market.effectiveDate),
                },
                { key: 'jobs', header: 'Jobs', numeric: true, size: 110, value: (row) => (row.kind === 'survey' ? row.survey.jobCount : null), cell: (row) => (row.kind === 'survey' ? formatNumber(row.survey.jobCount) : 'Every family × level') },
                { key: 'associations', header: 'Associations', numeric: true, size: 120, value: (row) => (row.kind === 'survey' ? row.survey.associationCount : null), cell: (row) => (row.kind === 'survey' ? formatNumber(row.survey.associationCount) : '—') },
                ...(access.edit
                  ? [
                      {
                        key: 'actions',
                        header: <span className="visually-hidden">Actions</span>,
                        label: 'Actions',
                        size: 210,
                        cell: (row: SourceRow) =>
                          row.kind === 'survey' ? (
                            <span className="bands-row-actions bands-wide-only">
                              {row.survey.kind === 'imported' && (
                                <button type="button" className="small" onClick={() => setReplacing(row.survey)} aria-label={`Replace the jobs of ${row.survey.name}`}>
                                  Replace jobs
                                </button>
                              )}
                              <button type="button" className="small ghost" onClick={() => setDeleting(row.survey)} aria-label={`Delete ${row.survey.name}`}>
                                Delete
                              </button>
                            </span>
                          ) : null,
                      },
                    ]
                  : []),
              ]}
            />
          );
        }}
      </Loaded>
      {openSurvey && <SurveyJobs key={openSurvey} surveyId={openSurvey} onClose={() => setOpenSurvey(null)} />}
      <SavedMappings />
      {replacing && (
        <Modal title={`Replace the jobs of “${replacing.name}”`} onClose={() => setReplacing(null)}>
          <SurveyImport replace={replacing} onDone={() => setReplacing(null)} />
        </Modal>
      )}
      {deleting && <DeleteSurvey survey={deleting} onClose={() => setDeleting(null)} />}
    </BandsFrame>
  );
}
