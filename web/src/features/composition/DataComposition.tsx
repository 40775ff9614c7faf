import type { ReactNode } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { useQuery } from '../../api/client';
import { Loaded } from '../../ui/States';
import { Tabs } from '../../ui/Panels';
import { BELOW_THRESHOLD } from '../benchmarking/data';
import { BenchmarkingFrame } from '../benchmarking/Frame';
import './composition.css';

type MarketingEntry = components['schemas']['MarketingCompositionEntry'];

const TABS = [
  { href: '/datacomposition/companies', label: 'Companies' },
  { href: '/datacomposition/jobfamilies', label: 'Job families' },
  { href: '/datacomposition/locations', label: 'Locations' },
  { href: '/datacomposition/marketingversion', label: 'Public summary' },
];

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <BenchmarkingFrame>
      <h1>Data composition</h1>
      <Tabs tabs={TABS} label="Data composition" />
      <h2>{title}</h2>
      {children}
    </BenchmarkingFrame>
  );
}

/** What every composition page says about the numbers it leaves out. */
export const THRESHOLD_NOTE = 'Groups with fewer than 5 companies or 10 employees are below the threshold and shown without numbers; other counts are rounded down to two significant figures.';

/** A group as the tables show it: its buckets, and its (rounded) employees where the share is shown. */
type Row = Pick<MarketingEntry, 'id' | 'name' | 'companyBucket' | 'employeeBucket'> & { employees?: number | null };

/**
 * Composition is shown as ranges, like every sample, and (where the counts are published) as a share
 * bar of the largest entry; a group below the threshold has neither, since even a bar's length would
 * tell its size.
 */
function CompositionTable({ caption, entries, label, share = true }: { caption: string; entries: Row[]; label: string; share?: boolean }) {
  const largest = Math.max(1, ...entries.map((entry) => entry.employees ?? 0));
  return (
    <div className="table-scroll">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{label}</th>
            <th scope="col">Companies</th>
            <th scope="col">Employees</th>
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
  const { data, error } = useQuery('/api/benchmarking/data-composition/companies');
  return (
    <Frame title="Companies">
      <Loaded data={data?.data} error={error} inline label={LOADING}>
        {(composition) => (
          <>
            <p className="lede">
              Release {composition.releaseVersion}
              {composition.companies !== null && composition.employees !== null
                ? `: at least ${composition.companies.toLocaleString('en-US')} participating companies, ${composition.employees.toLocaleString('en-US')} employee records.`
                : '.'}
            </p>
            <p className="muted small-text">{THRESHOLD_NOTE}</p>
            <CompositionTable caption="By industry" label="Industry" entries={composition.industries} />
            <CompositionTable caption="By company stage" label="Stage" entries={composition.companyStages} />
            <CompositionTable caption="By ownership" label="Ownership" entries={composition.ownershipGroups} />
          </>
        )}
      </Loaded>
    </Frame>
  );
}

export function CompositionJobFamiliesScreen() {
  const { data, error } = useQuery('/api/benchmarking/data-composition/jobfamilies');
  return (
    <Frame title="Job families and levels">
      <Loaded data={data?.data} error={error} inline label={LOADING}>
        {(composition) => (
          <>
            <p className="lede">Release {composition.releaseVersion}.</p>
            <p className="muted small-text">{THRESHOLD_NOTE}</p>
            <CompositionTable caption="By job family" label="Job family" entries={composition.jobFamilies} />
            <CompositionTable caption="By level" label="Level" entries={composition.levels} />
          </>
        )}
      </Loaded>
    </Frame>
  );
}

export function CompositionLocationsScreen() {
  const { data, error } = useQuery('/api/benchmarking/data-composition/locations');
  return (
    <Frame title="Locations">
      <Loaded data={data?.data} error={error} inline label={LOADING}>
        {(composition) => (
          <>
            <p className="lede">Release {composition.releaseVersion}. Countries and tiers include the metros they roll up.</p>
            <p className="muted small-text">{THRESHOLD_NOTE}</p>
            <CompositionTable caption="By location" label="Location" entries={composition.locations} />
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

/** /datacomposition/marketingversion: the public summary. */
export function CompositionMarketingScreen() {
  return (
    <Frame title="Public summary">
      <MarketingCompositionView />
    </Frame>
  );
}
