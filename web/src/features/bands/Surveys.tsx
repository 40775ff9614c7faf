import { Database, FileUp, Plus } from 'lucide-react';
import { useState } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { DataTable } from '../../ui/DataTable';
import { Modal } from '../../ui/Modal';
import { Section } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { BandsFrame, Problem, type Schemas, formatDate, formatNumber, refreshBands, useBandsAccess } from './common';
import { SurveyImport } from './SurveysImport';

type Survey = Schemas['Survey'];
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
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    const { error } = await api.DELETE('/api/bands/surveys/{surveyId}', { params: { path: { surveyId: survey.id } } });
    setBusy(false);
    if (error) return setProblem(errorMessage(error));
    await refreshBands();
    add('success', `Deleted “${survey.name}”.`);
    onClose();
  }
  return (
    <Modal
      title={`Delete “${survey.name}”?`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="danger" onClick={() => void confirm()} disabled={busy}>
            Delete survey
          </button>
          <button type="button" onClick={onClose}>
            Keep it
          </button>
        </>
      }
    >
      <p>Its {formatNumber(survey.jobCount)} jobs go with it. A survey that company jobs are associated with is kept until those associations are removed.</p>
      <Problem message={problem} />
    </Modal>
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

/** /bands/surveys: third-party market data — imported files, the BLS survey and the market release — and importing more. */
export function SurveysScreen() {
  const access = useBandsAccess();
  const surveys = useQuery('/api/bands/surveys');
  const { add } = useToasts();
  const [importing, setImporting] = useState(false);
  const [replacing, setReplacing] = useState<Survey | null>(null);
  const [deleting, setDeleting] = useState<Survey | null>(null);
  const [addingBls, setAddingBls] = useState(false);
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
            <DataTable
              caption="Surveys, newest effective date first"
              captionHidden
              cardsOnPhone
              rows={rows}
              rowKey={(row) => (row.kind === 'survey' ? row.survey.id : `market-${row.market.releaseId}`)}
              rowAttributes={(row) => (row.kind === 'survey' ? { 'data-survey-id': row.survey.id } : { 'data-survey-id': 'market' })}
              columns={[
                {
                  key: 'name',
                  header: 'Survey',
                  rowHeader: true,
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
                { key: 'provider', header: 'Source', cell: (row) => (row.kind === 'survey' ? row.survey.provider : row.market.provider) },
                { key: 'kind', header: 'Kind', cell: (row) => KIND_LABEL[row.kind === 'survey' ? row.survey.kind : 'market'] },
                { key: 'effective', header: 'Effective', cell: (row) => formatDate(row.kind === 'survey' ? row.survey.effectiveDate : row.market.effectiveDate) },
                { key: 'jobs', header: 'Jobs', numeric: true, cell: (row) => (row.kind === 'survey' ? formatNumber(row.survey.jobCount) : 'Every family × level') },
                { key: 'associations', header: 'Associations', numeric: true, cell: (row) => (row.kind === 'survey' ? formatNumber(row.survey.associationCount) : '—') },
                ...(access.edit
                  ? [
                      {
                        key: 'actions',
                        header: <span className="visually-hidden">Actions</span>,
                        label: 'Actions',
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
