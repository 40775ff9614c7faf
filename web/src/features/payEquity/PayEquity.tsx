import { Download, Scale } from 'lucide-react';
import { useState } from 'react';
import { api, useQuery } from '../../api/client';
import { type CompTypeId, useCompTypes } from '../../api/compTypes';
import { useMutation } from '../../api/queries';
import { Badge } from '../../ui/Badge';
import { saveFile } from '../../ui/files';
import { formatMajor, formatNumber } from '../../ui/format';
import { PageHeader, Section } from '../../ui/Page';
import { SkeletonStats } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import './payEquity.css';
import { type Report, type Adjusted, percent, useCan } from './payEquityModel';
import { JobEvaluation } from './Evaluation';
import { AssessmentItem, SendToCycle } from './Assessments';

/** The complementary and variable components the report counts (the server's `ANNUAL_COMPONENTS` and one-off bonuses), with the catalog's titles. */
const VARIABLE_COMPONENTS: [CompTypeId, string][] = [
  ['bonus_target', 'Bonus target'],
  ['variable_pay', 'Variable pay'],
  ['commission', 'Commission'],
  ['benefits', 'Benefits'],
  ['one_off_bonus', 'One-off bonus'],
];

function Indicators({ report, adjusted }: { report: Report; adjusted: Adjusted | null | undefined }) {
  const c = report.currency;
  const names = useCompTypes();
  return (
    <>
    <StatGrid label="Pay gap indicators">
      <StatCard label="Mean gap (annual)" value={percent(report.annual.total.meanGap)} hint={`hourly ${percent(report.hourly.total.meanGap)}`} testId="mean-gap" />
      <StatCard label="Median gap (annual)" value={percent(report.annual.total.medianGap)} hint={`hourly ${percent(report.hourly.total.medianGap)}`} />
      <StatCard label="Variable pay gap (mean)" value={percent(report.variable.annual.meanGap)} hint={`median ${percent(report.variable.annual.medianGap)}`} />
      <StatCard label="Receiving variable pay" value={`${percent(report.receivingVariable.female)} · ${percent(report.receivingVariable.male)}`} hint="women · men" />
      {adjusted && (
        <>
          <StatCard label="Adjusted gap" value={percent(adjusted.adjustedGap)} hint={`95 % interval ${percent(adjusted.adjustedGapInterval[0])} to ${percent(adjusted.adjustedGapInterval[1])}`} testId="adjusted-gap" />
          <StatCard label="Cost to close" value={formatMajor(adjusted.costToClose.total, c)} hint={`${formatNumber(adjusted.costToClose.people)} raises a year`} testId="cost-to-close" />
        </>
      )}
    </StatGrid>
    <p className="muted small-text" data-testid="variable-components">
      Variable pay counts {VARIABLE_COMPONENTS.map(([id, title]) => names.label(id, title)).join(', ')}: every complementary or variable component, including a type your company has switched off in its compensation types, as the law asks.
    </p>
    </>
  );
}

function Quartiles({ report }: { report: Report }) {
  if (report.quartiles.length === 0) return <p className="pe-muted">Withheld: fewer than {report.minimumGroup} women or men.</p>;
  return (
    <ol className="pe-quartiles" aria-label="Women and men in each pay quartile">
      {report.quartiles.map((band) => (
        <li key={band.quartile} className="pe-quartile">
          <span>Quartile {band.quartile}</span>
          <span className="pe-split" role="img" aria-label={`Quartile ${band.quartile}: women ${band.femaleShare} %, men ${band.maleShare} %`}>
            <span className="women" style={{ width: `${band.femaleShare}%` }} />
            <span className="men" style={{ width: `${band.maleShare}%` }} />
          </span>
          <span>
            women {Math.round(band.femaleShare)} % · men {Math.round(band.maleShare)} %
          </span>
        </li>
      ))}
    </ol>
  );
}

function Categories({ report, year, minimumGroup, canFlag }: { report: Report; year: number; minimumGroup: number; canFlag: boolean }) {
  const { run, busy } = useMutation();
  const { add } = useToasts();
  const published = report.categories.filter((category) => !category.suppressed);
  const withheld = report.categories.length - published.length;
  const scale = Math.max(5, ...published.map((category) => Math.abs(category.annual?.total.meanGap ?? 0)));
  async function flag(categoryId: string) {
    const legalEntity = report.legalEntity ?? undefined;
    const result = await run(() => api.POST('/api/pay-equity/assessments', { body: { year, categoryId, minimumGroup, ...(legalEntity ? { legalEntity } : {}) } }), { invalidates: ['/api/pay-equity/assessments', '/api/pay-equity/report'] });
    if (result.ok) add('success', 'Flagged for a joint pay assessment: the six-month clock has started.');
  }
  return (
    <>
      <p className="pe-muted">
        Mean gap of pay per category{report.legalEntity ? ` within ${report.legalEntity}` : ''}; 5 % or more either way, not justified by objective, gender-neutral criteria, calls for a joint pay assessment
        {report.legalEntity ? '' : ' (judged per employer: pick a legal entity)'}. {withheld > 0 ? `${formatNumber(withheld)} categories withheld (small groups).` : ''}
      </p>
      <div className="table-scroll" role="region" aria-label="Gap per category of workers" tabIndex={0}>
        <table className="compact">
          <caption className="visually-hidden">Gap per category of workers</caption>
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col">Women</th>
              <th scope="col">Men</th>
              <th scope="col">Mean gap</th>
              <th scope="col">Basic wage</th>
              <th scope="col" aria-hidden="true" />
              <th scope="col">Assessment</th>
            </tr>
          </thead>
          <tbody>
            {published.map((category) => {
              const gap = category.annual?.total.meanGap ?? 0;
              const width = (Math.abs(gap) / scale) * 50;
              return (
                <tr key={category.categoryId} data-testid="category-row">
                  <th scope="row">{category.categoryName}</th>
                  <td>{category.counts?.female}</td>
                  <td>{category.counts?.male}</td>
                  <td>
                    {percent(gap)} {category.flagged && <Badge tone="warning">≥ 5 %</Badge>}
                  </td>
                  <td>{percent(category.annual?.base.meanGap)}</td>
                  <td aria-hidden="true">
                    <span className="pe-gapbar">
                      <span className={category.flagged ? 'flagged' : ''} style={gap >= 0 ? { left: '50%', width: `${width}%` } : { right: '50%', width: `${width}%` }} />
                    </span>
                  </td>
                  <td>
                    {category.assessment ? (
                      <Badge tone={category.unexplained ? 'warning' : 'success'}>{category.unexplained ? `Flagged · ${category.assessment.status}` : `Explained · ${category.assessment.status}`}</Badge>
                    ) : category.flagged && canFlag ? (
                      <button type="button" disabled={busy} onClick={() => void flag(category.categoryId)}>
                        Flag
                      </button>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Residuals({ adjusted }: { adjusted: Adjusted }) {
  if (adjusted.people.length === 0) return <p className="pe-muted">Each person’s predicted pay and residual show to those who see everyone’s pay.</p>;
  const xs = adjusted.people.map((entry) => Math.log(entry.predicted));
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs, minX + 1e-6);
  const limit = Math.max(0.05, ...adjusted.people.map((entry) => Math.abs(entry.residual)));
  const under = adjusted.people.filter((entry) => entry.raise > 0).length;
  return (
    <figure>
      <svg className="pe-residuals" viewBox="0 0 400 200" role="img" aria-label={`Residuals of ${adjusted.n} people against their predicted pay; ${under} women paid under their prediction`}>
        <line x1="0" x2="400" y1="100" y2="100" />
        {adjusted.people.map((entry, index) => (
          <circle key={entry.employeeId} className={entry.sex === 'female' ? 'women' : 'men'} r="2.5" cx={10 + ((xs[index]! - minX) / (maxX - minX)) * 380} cy={100 - (entry.residual / limit) * 90} />
        ))}
      </svg>
      <figcaption className="pe-muted">
        Each dot a person: across, their predicted pay; up or down, how far their pay is above or below it (log points, ± {limit.toFixed(2)} at the edges). Women filled in the accent colour. R² {adjusted.rSquared?.toFixed(2) ?? '—'};
        explained {percent(adjusted.decomposition.explainedShare)} of the raw gap.
      </figcaption>
    </figure>
  );
}

const DIRECTIVE_DUTY: Record<Report['legalEntities'][number]['directive'], string> = {
  yearly: 'reports every year (250 or more workers)',
  every_three_years: 'reports every three years',
  not_required: 'no report required at this size',
};

/** Who the report is about: one employer and what the Directive and the UK ask of it, or every entity of the group view. */
function LegalEntities({ report }: { report: Report }) {
  const shown = report.legalEntity === null ? report.legalEntities : report.legalEntities.filter((entity) => entity.name === report.legalEntity);
  if (report.legalEntity === null && report.legalEntities.length <= 1 && report.legalEntities[0]?.name === null) return null;
  return (
    <div className="pe-entities" data-testid="legal-entities">
      <p className="pe-muted">
        {report.legalEntity === null
          ? 'Group view: every legal entity together. The Directive and the UK rules ask each employer (legal entity) for its own report; pick one above.'
          : `Employer: ${report.legalEntity}.`}
      </p>
      <ul>
        {shown.map((entity) => (
          <li key={entity.name ?? ''}>
            <strong>{entity.name ?? 'No legal entity recorded'}</strong>: {formatNumber(entity.workers)} workers on {report.asOf} — Directive: {DIRECTIVE_DUTY[entity.directive]}; UK: {formatNumber(entity.ukRelevantEmployees)} relevant employees,{' '}
            {entity.ukRequired ? 'report required' : 'no report required (fewer than 250)'}.
          </li>
        ))}
      </ul>
    </div>
  );
}

export function PayEquityScreen() {
  const [year, setYear] = useState(new Date().getFullYear());
  const [minimumGroup, setMinimumGroup] = useState(5);
  // '' is every legal entity together (the group view).
  const [legalEntity, setLegalEntity] = useState('');
  const can = useCan();
  const { add } = useToasts();
  const entityQuery = legalEntity ? { legalEntity } : {};
  const report = useQuery('/api/pay-equity/report', { params: { query: { year, minimumGroup, ...entityQuery } } });
  const entities = report.data?.data.legalEntities ?? [];
  const named = entities.flatMap((entity) => (entity.name === null ? [] : [entity.name]));
  const adjusted = useQuery('/api/pay-equity/adjusted-gap', { params: { query: { year, ...entityQuery } } });
  const evaluation = useQuery('/api/pay-equity/evaluation');
  // An employer's assessments, or every employer's in the group view.
  const assessments = useQuery('/api/pay-equity/assessments', { params: { query: { year, ...entityQuery } } });

  async function download(format: 'pdf' | 'csv' | 'xlsx') {
    const { data, error, response } = await api.GET('/api/pay-equity/report/file', { params: { query: { year, minimumGroup, format, ...entityQuery } }, parseAs: 'blob' });
    if (error || !data) return void add('error', 'The file could not be made. Please try again.');
    saveFile(data, response, `pay-gap-report-${year}.${format}`);
  }

  async function downloadAdjusted(format: 'csv' | 'xlsx') {
    const controls = adjusted.data?.data?.controls.join(',');
    const { data, error, response } = await api.GET('/api/pay-equity/adjusted-gap/file', { params: { query: { year, format, ...entityQuery, ...(controls ? { controls } : {}) } }, parseAs: 'blob' });
    if (error || !data) return void add('error', 'The file could not be made. Please try again.');
    saveFile(data, response, `adjusted-pay-gap-${year}.${format}`);
  }

  return (
    <div className="pay-equity">
      <PageHeader
        title="Pay equity"
        icon={Scale}
        description="The EU Pay Transparency Directive’s Article 9 report, the UK figures, the adjusted gap and what it costs to close."
        actions={
          <>
            <button type="button" onClick={() => void download('pdf')}>
              <Download size={16} aria-hidden="true" /> PDF
            </button>
            <button type="button" onClick={() => void download('csv')}>
              <Download size={16} aria-hidden="true" /> CSV
            </button>
          </>
        }
      />
      <div className="pe-toolbar">
        <label>
          Reference year
          <input type="number" min={2000} max={2100} value={year} onChange={(event) => setYear(Number(event.target.value) || year)} />
        </label>
        <label>
          Legal entity
          <select value={legalEntity} onChange={(event) => setLegalEntity(event.target.value)} data-testid="legal-entity">
            <option value="">All entities (group view)</option>
            {(legalEntity && !named.includes(legalEntity) ? [legalEntity, ...named] : named).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Publication minimum
          <input type="number" min={3} max={100} value={minimumGroup} onChange={(event) => setMinimumGroup(Math.max(3, Number(event.target.value) || 5))} />
        </label>
      </div>
      {!can.demographics ? (
        <Empty title="Pay gaps need the Demographics permission">Ask your admin for the Demographics permission to see figures by gender.</Empty>
      ) : (
        <Loaded data={report.data?.data} error={report.error} retry={() => void report.mutate()} skeleton={<SkeletonStats count={6} label="Running the report" />}>
          {(data) => (
            <>
              <p className="pe-muted" data-testid="report-summary">
                {data.year}: {formatNumber(data.workers)} workers — {data.counts.female} women, {data.counts.male} men, {data.counts.other} of another gender, {data.counts.unknown} with none recorded. Pay as of {data.asOf}, in{' '}
                {data.currency}.
              </p>
              <LegalEntities report={data} />
              <Indicators report={data} adjusted={adjusted.data?.data} />
              <Section title="Quartile pay bands" id="pe-quartiles">
                <Quartiles report={data} />
              </Section>
              <Section title="Gap per category of workers" id="pe-categories">
                <Categories report={data} year={year} minimumGroup={minimumGroup} canFlag={can.edit} />
              </Section>
              {adjusted.data?.data && (
                <Section title="Adjusted gap: residuals" id="pe-residuals">
                  <div className="pe-downloads">
                    <span className="pe-muted">{adjusted.data.data.legalEntity ? `Fitted within ${adjusted.data.data.legalEntity}.` : 'Fitted on every legal entity together.'}</span>
                    <button type="button" onClick={() => void downloadAdjusted('csv')}>
                      <Download size={16} aria-hidden="true" /> Adjusted gap CSV
                    </button>
                    <button type="button" onClick={() => void downloadAdjusted('xlsx')}>
                      <Download size={16} aria-hidden="true" /> XLSX
                    </button>
                  </div>
                  <Residuals adjusted={adjusted.data.data} />
                </Section>
              )}
              {can.edit && adjusted.data?.data && adjusted.data.data.people.length > 0 && adjusted.data.data.costToClose.people > 0 && (
                <Section title="Send the cost to close to a merit cycle" id="pe-send">
                  <SendToCycle year={year} adjusted={adjusted.data.data} />
                </Section>
              )}
              <Section title="UK gender pay gap" id="pe-uk">
                <p className="pe-muted">
                  Snapshot {data.uk.snapshotDate}: hourly gap {percent(data.uk.hourly.meanGap)} (median {percent(data.uk.hourly.medianGap)}), bonus gap {percent(data.uk.bonus.meanGap)} (median {percent(data.uk.bonus.medianGap)}); receiving a bonus: women{' '}
                  {percent(data.uk.receivingBonus.female)}, men {percent(data.uk.receivingBonus.male)}.
                </p>
              </Section>
            </>
          )}
        </Loaded>
      )}
      <Section title="Joint pay assessments (Article 10)" id="pe-assessments">
        <Loaded data={assessments.data?.data} error={assessments.error} retry={() => void assessments.mutate()}>
          {(list) => (list.length === 0 ? <p className="pe-muted">No category flagged for {year}{legalEntity ? ` in ${legalEntity}` : ''}.</p> : list.map((entry) => <AssessmentItem key={`${entry.id}-${entry.version}`} assessment={entry} canEdit={can.edit} />))}
        </Loaded>
      </Section>
      <Section title="Job evaluation (categories of workers)" id="pe-evaluation">
        <Loaded data={evaluation.data?.data} error={evaluation.error} retry={() => void evaluation.mutate()}>
          {(data) => <JobEvaluation key={data.version} evaluation={data} canEdit={can.edit} />}
        </Loaded>
      </Section>
    </div>
  );
}
