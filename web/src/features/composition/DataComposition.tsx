import type { ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { useQuery } from '../../api/client';
import { formatShare } from '../../ui/format';
import { Loaded } from '../../ui/States';
import { BELOW_THRESHOLD } from '../benchmarking/data';
import { BenchmarkingFrame } from '../benchmarking/Frame';
import { employmentName } from '../benchmarking/markets';
import { type EmploymentType, WITH_CONTRACTORS, includesContractors } from '../benchmarking/selection';
import './composition.css';

type MarketingEntry = components['schemas']['MarketingCompositionEntry'];

const TABS = [
  { href: '/datacomposition/companies', label: 'Companies' },
  { href: '/datacomposition/jobfamilies', label: 'Job families' },
  { href: '/datacomposition/locations', label: 'Locations' },
  { href: '/datacomposition/marketingversion', label: 'Public summary' },
];

/**
 * Whose pay the composition counts, in the URL's query like the explorer's selection, so a reload,
 * a shared link and the tabs keep it: `employmentTypes=employee,contractor` when contractors are
 * included, nothing for employees alone (the market).
 */
const POPULATION_PARAM = 'employmentTypes';

/** Employees alone (none named, as the explorer keeps it) or employees and contractors. */
function populationOf(search: string): readonly EmploymentType[] {
  const named = new URLSearchParams(search).get(POPULATION_PARAM)?.split(',') ?? [];
  return includesContractors({ employmentTypes: named }) ? WITH_CONTRACTORS : [];
}

/** The query (with its "?") that asks for a population, keeping whatever else the URL holds. */
function populationQuery(search: string, employmentTypes: readonly EmploymentType[]): string {
  const params = new URLSearchParams(search);
  params.delete(POPULATION_PARAM);
  const rest = params.toString();
  const parts = [...(rest ? [rest] : []), ...(employmentTypes.length > 0 ? [`${POPULATION_PARAM}=${employmentTypes.join(',')}`] : [])];
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** The population in the URL, and a switch between the two that replaces the URL (like the explorer's choices). */
function usePopulation(): [readonly EmploymentType[], (withContractors: boolean) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const employmentTypes = populationOf(search);
  const choose = (withContractors: boolean) => navigate(`${location}${populationQuery(search, withContractors ? WITH_CONTRACTORS : [])}`, { replace: true });
  return [employmentTypes, choose];
}

/** Whose pay, as the explorer's markets name it: "Employees" or "Employees and contractors". */
const populationName = (employmentTypes: readonly EmploymentType[]): string => employmentName({ employmentTypes }) ?? 'Employees';

/** The operations' query for a population: employees alone name nothing, as the API's default. */
function populationInit(employmentTypes: readonly EmploymentType[]): { params: { query: { employmentTypes?: EmploymentType[] } } } {
  return { params: { query: employmentTypes.length > 0 ? { employmentTypes: [...employmentTypes] } : {} } };
}

/** The area's tabs, each carrying the population, so moving between them keeps it. */
function CompositionTabs() {
  const [location] = useLocation();
  const query = populationQuery('', populationOf(useSearch()));
  return (
    <nav className="tabs" aria-label="Data composition">
      {TABS.map((tab) => (
        <Link key={tab.href} href={`${tab.href}${query}`} className={location === tab.href ? 'tab active' : 'tab'} aria-current={location === tab.href ? 'page' : undefined}>
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}

/** The "Include contractors" switch, worded as the explorer's "Whose pay", and the population it counts. */
function PopulationSwitch() {
  const [employmentTypes, choose] = usePopulation();
  const included = includesContractors({ employmentTypes });
  return (
    <div className="composition-population">
      <fieldset className="check-group">
        <legend>Whose pay</legend>
        <p className="muted small-text">The market is employees’ pay; contractors of participating companies are included on request.</p>
        <div className="pills">
          <label className={included ? 'pill checked' : 'pill'}>
            <input type="checkbox" checked={included} onChange={() => choose(!included)} />
            <span>Include contractors</span>
          </label>
        </div>
      </fieldset>
      <p className="composition-counts" role="status" data-testid="composition-population">
        Counting: <strong>{populationName(employmentTypes)}</strong>
      </p>
    </div>
  );
}

type PrivacyChecks = components['schemas']['CompositionPrivacyChecks'];

const ATTACK_WORDS: Record<NonNullable<PrivacyChecks['checks']>['attacks'][number]['attack'], string> = {
  differencing: 'Differencing two cells that differ by one person',
  tracker: 'Tracker padding',
  releases: 'Averaging across releases',
  reconstruction: 'Reconstruction from the seven percentiles',
  key_search: 'Searching for the key',
  colluders: 'Four colluding participants who know everyone else',
  dominance: 'Reading a dominant company’s pay off its cell',
  counts: 'Differencing head counts to one person',
  count_averaging: 'Averaging head counts over many trackers',
  reimport: 'Averaging releases after re-imports under new employee ids',
};

/**
 * The served release's privacy checks in a few lines: when, what every gating attack recovered, and
 * what the protection costs. Nothing per cell (the full scorecard is for Paybench's own staff).
 */
function PrivacyChecksSummary() {
  const { data } = useQuery('/api/benchmarking/data-composition/privacy-checks');
  const summary = data?.data;
  if (!summary) return null;
  const { checks } = summary;
  return (
    <section className="card composition-privacy" aria-labelledby="composition-privacy-heading" data-testid="composition-privacy">
      <h3 id="composition-privacy-heading">Privacy checks</h3>
      {!checks ? (
        <p>Release {summary.releaseVersion} was published before privacy checks were run on every release.</p>
      ) : (
        <>
          <p>
            Release {summary.releaseVersion} was checked on {new Date(checks.checkedAt).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })} before it was
            published.{' '}
            {checks.passed ? 'Every attack the checks run recovered none of its targets within 5%:' : 'Not every check passed:'}
          </p>
          <ul>
            {checks.attacks.map((attack) => (
              <li key={attack.attack}>
                {ATTACK_WORDS[attack.attack]}: {attack.recovered} of {attack.targets} targets recovered within 5%
              </li>
            ))}
          </ul>
          <p>
            The cost: published figures move by {formatShare(checks.medianRelativeMove)} at the median and {formatShare(checks.p90RelativeMove)} at the 90th percentile, and{' '}
            {formatShare(checks.cellsWithheldShare)} of the cells measured are withheld.
          </p>
        </>
      )}
    </section>
  );
}

function Frame({ title, children, population = true }: { title: string; children: ReactNode; population?: boolean }) {
  return (
    <BenchmarkingFrame>
      <h1>Data composition</h1>
      <CompositionTabs />
      <h2>{title}</h2>
      {population && <PopulationSwitch />}
      {children}
      {population && <PrivacyChecksSummary />}
    </BenchmarkingFrame>
  );
}

/** What every composition page says about the numbers it leaves out. */
export const THRESHOLD_NOTE = 'Groups with fewer than 5 companies or 10 employees are below the threshold and shown without numbers; other counts are rounded down (to multiples of five under 100, to two significant figures above).';

/** A group as the tables show it: its buckets, and its (rounded) employees where the share is shown. */
type Row = Pick<MarketingEntry, 'id' | 'name' | 'companyBucket' | 'employeeBucket'> & { employees?: number | null };

/**
 * Composition is shown as ranges, like every sample, and (where the counts are published) as a share
 * bar of the largest entry; a group below the threshold has neither, since even a bar's length would
 * tell its size.
 */
function CompositionTable({ caption, entries, label, share = true, people = 'Employees' }: { caption: string; entries: Row[]; label: string; share?: boolean; people?: string }) {
  const largest = Math.max(1, ...entries.map((entry) => entry.employees ?? 0));
  return (
    // Wider than a phone: the scrolling region takes keyboard focus.
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{label}</th>
            <th scope="col">Companies</th>
            <th scope="col">{people}</th>
            {share && (
              <th scope="col" className="share-col">
                Share of records
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) =>
            entry.companyBucket.id === BELOW_THRESHOLD || (share && (entry.employees ?? null) === null) ? (
              <tr key={entry.id} data-below-threshold="true">
                <th scope="row">{entry.name}</th>
                <td colSpan={share ? 3 : 2} className="muted">
                  {entry.companyBucket.label}
                </td>
              </tr>
            ) : (
              <tr key={entry.id}>
                <th scope="row">{entry.name}</th>
                <td>{entry.companyBucket.label}</td>
                <td>{entry.employeeBucket.label}</td>
                {share && (
                  <td className="share-col">
                    <span className="share-bar" style={{ width: `${Math.max(2, ((entry.employees ?? 0) / largest) * 100)}%` }} aria-hidden="true" />
                  </td>
                )}
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}

const LOADING = 'Loading the composition';

export function CompositionCompaniesScreen() {
  const [employmentTypes] = usePopulation();
  const { data, error } = useQuery('/api/benchmarking/data-composition/companies', populationInit(employmentTypes));
  const people = populationName(employmentTypes);
  // Employees alone keep the words the screen always had; with contractors the records say whose they are.
  const records = employmentTypes.length > 0 ? 'employee and contractor records' : 'employee records';
  return (
    <Frame title="Companies">
      <Loaded data={data?.data} error={error} inline label={LOADING}>
        {(composition) => (
          <>
            <p className="lede">
              Release {composition.releaseVersion}
              {composition.companies !== null && composition.employees !== null
                ? `: at least ${composition.companies.toLocaleString('en-US')} participating companies, ${composition.employees.toLocaleString('en-US')} ${records}.`
                : '.'}
            </p>
            <p className="muted small-text">{THRESHOLD_NOTE}</p>
            <CompositionTable caption="By industry" label="Industry" entries={composition.industries} people={people} />
            <CompositionTable caption="By company stage" label="Stage" entries={composition.companyStages} people={people} />
            <CompositionTable caption="By ownership" label="Ownership" entries={composition.ownershipGroups} people={people} />
          </>
        )}
      </Loaded>
    </Frame>
  );
}

export function CompositionJobFamiliesScreen() {
  const [employmentTypes] = usePopulation();
  const { data, error } = useQuery('/api/benchmarking/data-composition/jobfamilies', populationInit(employmentTypes));
  const people = populationName(employmentTypes);
  return (
    <Frame title="Job families and levels">
      <Loaded data={data?.data} error={error} inline label={LOADING}>
        {(composition) => (
          <>
            <p className="lede">Release {composition.releaseVersion}.</p>
            <p className="muted small-text">{THRESHOLD_NOTE}</p>
            <CompositionTable caption="By job family" label="Job family" entries={composition.jobFamilies} people={people} />
            <CompositionTable caption="By level" label="Level" entries={composition.levels} people={people} />
          </>
        )}
      </Loaded>
    </Frame>
  );
}

export function CompositionLocationsScreen() {
  const [employmentTypes] = usePopulation();
  const { data, error } = useQuery('/api/benchmarking/data-composition/locations', populationInit(employmentTypes));
  return (
    <Frame title="Locations">
      <Loaded data={data?.data} error={error} inline label={LOADING}>
        {(composition) => (
          <>
            <p className="lede">Release {composition.releaseVersion}. Countries and tiers include the metros they roll up.</p>
            <p className="muted small-text">{THRESHOLD_NOTE}</p>
            <CompositionTable caption="By location" label="Location" entries={composition.locations} people={populationName(employmentTypes)} />
          </>
        )}
      </Loaded>
    </Frame>
  );
}

/** What anyone may read about the market's coverage: buckets and rounded totals, never exact counts. */
export function MarketingCompositionView({ sections = ['industries', 'companyStages', 'jobFamilies', 'locations'] }: { sections?: ('industries' | 'companyStages' | 'jobFamilies' | 'locations')[] }) {
  const { data, error } = useQuery('/api/benchmarking/data-composition/marketing');
  const titles = { industries: ['By industry', 'Industry'], companyStages: ['By company stage', 'Stage'], jobFamilies: ['By job family', 'Job family'], locations: ['By location', 'Location'] } as const;
  return (
    <Loaded data={data?.data} error={error} inline label={LOADING}>
      {(composition) => (
        <>
          <p className="lede">
            Release {composition.releaseVersion}: at least {composition.companiesAtLeast.toLocaleString('en-US')} companies and {composition.employeesAtLeast.toLocaleString('en-US')} employees.
          </p>
          {sections.map((section) => (
            <CompositionTable key={section} caption={titles[section][0]} label={titles[section][1]} entries={composition[section]} share={false} />
          ))}
        </>
      )}
    </Loaded>
  );
}

/** /datacomposition/marketingversion: the public summary, of employees alone (it has no population to choose). */
export function CompositionMarketingScreen() {
  return (
    <Frame title="Public summary" population={false}>
      <p className="muted small-text">The public summary counts employees only.</p>
      <MarketingCompositionView />
    </Frame>
  );
}
