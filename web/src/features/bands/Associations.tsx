import { Link2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { api, errorMessage, useQuery } from '../../api/client';
import { invalidate, useVersionedSave } from '../../api/queries';
import { DataTable } from '../../ui/DataTable';
import { Section } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { useQueryParam } from '../../ui/urlState';
import { BandsFrame, type CompanyJob, Problem, type Schemas, formatNumber, useBandsAccess, useMarketNames, useBandsMutation } from './common';
import { CompositePanel, useMarketCellLabel } from './Composite';

type Association = Schemas['MarketAssociation'];

const SHOWN_MATCHES = 12;

/** An association changed: the job's list and every composite are asked again. */
const refreshSources = () => invalidate((path) => path.startsWith('/api/bands/jobs/') || path === '/api/bands/composites' || path === '/api/bands/surveys');

function useSourceLabel() {
  const cellLabel = useMarketCellLabel();
  return (association: Association): string =>
    association.survey ? `${association.survey.surveyName}: ${association.survey.surveyJobCode} ${association.survey.surveyJobTitle}` : association.market ? cellLabel(association.market) : 'Unknown source';
}

/** A source's weight, saved at the version read (a stale one is refused, and what was typed stays). */
function WeightEditor({ job, association, label }: { job: CompanyJob; association: Association; label: string }) {
  const { add } = useToasts();
  const [text, setText] = useState(String(association.weight));
  const { save, busy } = useVersionedSave((ifMatch, weight: number) =>
    api.PATCH('/api/bands/jobs/{companyJobId}/associations/{marketAssociationId}', {
      params: { path: { companyJobId: job.id, marketAssociationId: association.id }, header: { 'If-Match': ifMatch } },
      body: { weight },
    }),
  );
  const weight = Number(text);
  const valid = text.trim() !== '' && Number.isFinite(weight) && weight > 0 && weight <= 1000;
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!valid) return;
    const result = await save(association.version, weight);
    if (!result.ok) return;
    add('success', `Weight ${formatNumber(weight, 2)} saved.`);
    await refreshSources();
  }
  return (
    <form className="bands-weight" onSubmit={(event) => void submit(event)}>
      <input type="number" min={0.01} max={1000} step="any" value={text} onChange={(event) => setText(event.target.value)} aria-label={`Weight of ${label}`} />
      <button type="submit" className="small" disabled={busy || !valid || weight === association.weight}>
        Save weight
      </button>
    </form>
  );
}

function AssociationList({ job }: { job: CompanyJob }) {
  const access = useBandsAccess();
  const { add } = useToasts();
  const label = useSourceLabel();
  const associations = useQuery('/api/bands/jobs/{companyJobId}/associations', { params: { path: { companyJobId: job.id } } });
  async function remove(association: Association) {
    const { error } = await api.DELETE('/api/bands/jobs/{companyJobId}/associations/{marketAssociationId}', { params: { path: { companyJobId: job.id, marketAssociationId: association.id } } });
    if (error) return add('error', errorMessage(error));
    add('success', `Removed ${label(association)}.`);
    await refreshSources();
  }
  return (
    <Loaded data={associations.data?.data} error={associations.error} inline retry={() => void associations.mutate()} skeleton={<SkeletonTable rows={2} columns={3} label="Loading the associations" />}>
      {(list) =>
        list.length === 0 ? (
          <Empty title="No market data associated yet" compact headingLevel={3} icon={Link2}>
            Until it has a source, {job.title} is priced from the market release alone. Add a survey job or a market cell below.
          </Empty>
        ) : (
          <DataTable
            caption={`${job.title}’s sources`}
            captionHidden
            cardsOnPhone
            rows={list}
            rowKey={(association) => association.id}
            rowAttributes={(association) => ({ 'data-association-id': association.id })}
            columns={[
              { key: 'source', header: 'Source', rowHeader: true, cell: (association) => label(association) },
              {
                key: 'weight',
                header: 'Weight',
                numeric: true,
                cell: (association) =>
                  access.edit ? (
                    <>
                      <span className="bands-phone-only">{String(association.weight)}</span>
                      <span className="bands-wide-only">
                        <WeightEditor key={`${association.id}-${association.version}`} job={job} association={association} label={label(association)} />
                      </span>
                    </>
                  ) : (
                    String(association.weight)
                  ),
              },
              ...(access.edit
                ? [
                    {
                      key: 'actions',
                      header: <span className="visually-hidden">Actions</span>,
                      label: 'Actions',
                      cell: (association: Association) => (
                        <span className="bands-row-actions bands-wide-only">
                          <button type="button" className="small ghost" onClick={() => void remove(association)} aria-label={`Remove ${label(association)}`}>
                            Remove
                          </button>
                        </span>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )
      }
    </Loaded>
  );
}

/** Adds a source: a survey job found by code or title, or the market cell of the job's family and level in a location. */
function AddAssociation({ job }: { job: CompanyJob }) {
  const { add } = useToasts();
  const names = useMarketNames();
  const surveys = useQuery('/api/bands/surveys');
  const [surveyId, setSurveyId] = useState('');
  const [search, setSearch] = useState('');
  const [weightText, setWeightText] = useState('1');
  const [locationId, setLocationId] = useState('840');
  const { run, busy, problem, setProblem } = useBandsMutation();
  const chosenSurvey = surveyId || surveys.data?.data[0]?.id || '';
  const detail = useQuery('/api/bands/surveys/{surveyId}', chosenSurvey ? { params: { path: { surveyId: chosenSurvey } } } : null);
  const weight = Number(weightText);
  const weightOk = weightText.trim() !== '' && Number.isFinite(weight) && weight > 0 && weight <= 1000;
  const words = search.trim().toLowerCase();
  const jobs = detail.data?.data.jobs ?? [];
  const matches = words ? jobs.filter((entry) => entry.code.toLowerCase().includes(words) || entry.title.toLowerCase().includes(words)) : jobs;

  async function associate(body: Schemas['MarketAssociationInput'], what: string) {
    setProblem(null);
    const result = await run(() => api.POST('/api/bands/jobs/{companyJobId}/associations', { params: { path: { companyJobId: job.id } }, body: { ...body, weight } }));
    if (!result.ok) return;
    add('success', `Associated ${job.title} with ${what}.`);
    await refreshSources();
  }

  const surveyList = surveys.data?.data ?? [];
  return (
    <Section title="Add a source" id="add-source-heading" className="bands-wide-only">
      <div className="bands-fields">
        <label>
          Weight of the new source
          <input type="number" min={0.01} max={1000} step="any" value={weightText} onChange={(event) => setWeightText(event.target.value)} />
        </label>
      </div>
      {surveyList.length === 0 ? (
        <p className="bands-muted">
          No surveys yet: <Link href="/bands/surveys">import a survey file or add the BLS survey</Link>.
        </p>
      ) : (
        <fieldset className="bands-width">
          <legend>A survey job</legend>
          <div className="bands-fields">
            <label>
              Survey
              <select value={chosenSurvey} onChange={(event) => setSurveyId(event.target.value)}>
                {surveyList.map((survey) => (
                  <option key={survey.id} value={survey.id}>
                    {survey.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Search survey jobs
              <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Code or title" autoComplete="off" />
            </label>
          </div>
          <ul className="bands-survey-matches" aria-label="Survey jobs found">
            {matches.slice(0, SHOWN_MATCHES).map((entry) => (
              <li key={entry.code}>
                <span>
                  <strong>{entry.code}</strong> {entry.title}
                </span>
                <button
                  type="button"
                  className="small"
                  disabled={busy || !weightOk}
                  onClick={() => void associate({ survey: { surveyId: chosenSurvey, surveyJobCode: entry.code } }, `${entry.code} ${entry.title}`)}
                  aria-label={`Associate ${entry.code} ${entry.title}`}
                >
                  Associate
                </button>
              </li>
            ))}
          </ul>
          {matches.length > SHOWN_MATCHES && <p className="bands-muted">{formatNumber(matches.length - SHOWN_MATCHES)} more match; narrow the search.</p>}
          {detail.data && matches.length === 0 && <p className="bands-muted">No job of this survey has that code or title.</p>}
        </fieldset>
      )}
      <fieldset className="bands-width">
        <legend>A market cell</legend>
        <div className="bands-inline">
          <label>
            Market location for {job.jobFamilyName} · {job.levelDisplay}
            <select value={locationId} onChange={(event) => setLocationId(event.target.value)}>
              {names.locations.map((location) => (
                <option key={location.id} value={location.id}>
                  {location.name}
                </option>
              ))}
            </select>
          </label>
          <button type="button" disabled={busy || !weightOk} onClick={() => void associate({ market: { jobFamilyId: job.jobFamilyId, levelId: job.levelId, locationId } }, `the market cell in ${names.name(locationId)}`)}>
            Associate the market cell
          </button>
        </div>
      </fieldset>
      <Problem message={problem?.message ?? null} fields={problem?.fields} />
    </Section>
  );
}

/** /bands/market-data: a company job's sources (survey jobs and market cells, weighted) and its composite benchmark. */
export function AssociationsScreen() {
  const access = useBandsAccess();
  const jobs = useQuery('/api/bands/jobs');
  const [jobParam, setJobParam] = useQueryParam('job');
  return (
    <BandsFrame
      title="Market data"
      icon={Link2}
      description="Each company job’s sources — survey jobs and market cells, weighted — and the composite benchmark they blend into, every source aged to one date at a stated rate."
    >
      <Loaded data={jobs.data?.data} error={jobs.error} retry={() => void jobs.mutate()} skeleton={<SkeletonTable rows={4} columns={3} label="Loading the company jobs" />}>
        {(list) => {
          const job = list.find((entry) => entry.id === jobParam) ?? list[0];
          if (!job) {
            return (
              <Empty title="No company jobs yet" icon={Link2} action={<Link href="/bands/jobs">Go to job architecture</Link>}>
                Make the company’s jobs first; then associate each with survey jobs or market cells.
              </Empty>
            );
          }
          return (
            <>
              <div className="bands-fields bands-job-pick">
                <label>
                  Company job
                  <select value={job.id} onChange={(event) => setJobParam(event.target.value, { replace: true })}>
                    {list.map((entry) => (
                      <option key={entry.id} value={entry.id}>
                        {entry.title}
                        {entry.jobCode ? ` (${entry.jobCode})` : ''}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              <Section title={`${job.title}’s sources`} id="sources-heading">
                <AssociationList job={job} />
              </Section>
              {access.edit && <AddAssociation key={job.id} job={job} />}
              <CompositePanel key={`composite-${job.id}`} job={job} />
            </>
          );
        }}
      </Loaded>
    </BandsFrame>
  );
}
