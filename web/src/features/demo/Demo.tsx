import Fuse from 'fuse.js';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { errorMessage, useQuery } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { Tabs } from '../../ui/Panels';
import { FullSizeSpinner } from '../../ui/Spinner';
import { Choice } from '../benchmarking/Choices';
import { type JobCatalogEntry, formatValue, sampleText, useBenchmark } from '../benchmarking/data';
import { EquityPracticesView, useEquityPractices } from '../benchmarking/Modules';
import { MarketingCompositionView } from '../composition/DataComposition';
import { can } from '../settings/permissions';
import './demo.css';

const TABS = [
  { href: '/benchmarking-demo/job-catalog', label: 'Job catalog' },
  { href: '/benchmarking-demo/location-differentials', label: 'Location differentials' },
  { href: '/benchmarking-demo/equity-practices', label: 'Equity practices' },
  { href: '/benchmarking-demo/participants-list', label: 'Participants' },
];

function DemoFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="area">
      <p className="eyebrow">Benchmarking tour</p>
      <Tabs tabs={TABS} label="Benchmarking tour" />
      <h1>{title}</h1>
      {children}
    </div>
  );
}

/** Screens that read market data need the benchmarking permission; without it they say so plainly. */
function NeedsAccess({ what }: { what: string }) {
  return (
    <section className="panel" data-state="needs-access">
      <p>{what} comes from the market data itself, which your role does not include.</p>
      <p className="muted">Ask your company admin for the benchmarking permission to see it.</p>
    </section>
  );
}

function useCanBenchmark() {
  const person = usePerson().data?.data;
  return { person, allowed: can(person, 'benchmarking', 'view') };
}

/** The spec's fuzzy-search constants (§9): threshold 0.6, distance 100. */
export function catalogSearch(entries: JobCatalogEntry[]) {
  return new Fuse(entries, {
    threshold: 0.6,
    distance: 100,
    keys: [
      { name: 'displayString', weight: 3 },
      { name: 'oldFamilyName', weight: 2 },
      { name: 'jobFamilyMatchingTip', weight: 1 },
      { name: 'description', weight: 1 },
    ],
  });
}

/** /benchmarking-demo/job-catalog: every family and family blend, searched as you type. */
export function DemoJobCatalogScreen() {
  const { person, allowed } = useCanBenchmark();
  const catalog = useQuery('/api/benchmarking/job-catalog', allowed ? {} : null);
  const [text, setText] = useState('');
  const fuse = useMemo(() => (catalog.data ? catalogSearch(catalog.data.data) : null), [catalog.data]);
  if (!person) return <FullSizeSpinner loading />;
  if (!allowed) {
    return (
      <DemoFrame title="Job catalog">
        <NeedsAccess what="The job catalog, with each family’s coverage," />
      </DemoFrame>
    );
  }
  const entries = catalog.data?.data ?? [];
  const query = text.trim();
  const shown = query && fuse ? fuse.search(query).map((hit) => hit.item) : entries;
  return (
    <DemoFrame title="Job catalog">
      <label className="search">
        Search the catalog
        <input type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder="e.g. enginer, recruiting, ops" />
      </label>
      {catalog.error && <p role="alert">{errorMessage(catalog.error)}</p>}
      {!catalog.data && !catalog.error && <FullSizeSpinner loading />}
      <p className="muted" aria-live="polite">
        {catalog.data ? `${shown.length} of ${entries.length} entries` : ''}
      </p>
      <ul className="catalog" aria-label="Job catalog">
        {shown.map((entry) => (
          <li key={entry.upstreamId} className="card" data-family={entry.upstreamId}>
            <h2>
              {entry.displayString} {entry.entityType !== 'family' && <span className="badge">{entry.entityType === 'family_blend_group' ? 'Family blend' : 'Function'}</span>}
            </h2>
            <p>{entry.description}</p>
            {entry.jobFamilyMatchingTip && <p className="muted small-text">{entry.jobFamilyMatchingTip}</p>}
            <p className="small-text">
              {sampleText(entry.coverage.sampleSize)} · {entry.coverage.broadCompensationTypes.join(' and ')}
            </p>
            {entry.trackSupport.length > 0 && (
              <ul className="track-support" aria-label={`Tracks of ${entry.displayString}`}>
                {entry.trackSupport.map((track) => (
                  <li key={track.trackUpstreamId} className={`track ${track.status}`}>
                    {track.displayString}: {track.status === 'in_catalog_searchable' ? 'yes' : track.status === 'in_catalog_not_searchable' ? 'in catalog, not searchable' : 'no'}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </DemoFrame>
  );
}

const DIFFERENTIAL_LOCATIONS = ['840', '840_1', '840_2', '840_3', '124', '826', '276'];

/**
 * /benchmarking-demo/location-differentials: the median base salary of one role in each location,
 * as a differential against the whole United States — computed from the served market release.
 */
export function DemoLocationDifferentialsScreen() {
  const { person, allowed } = useCanBenchmark();
  const filters = useQuery('/api/benchmarking/filters', allowed ? {} : null);
  const locations = useQuery('/api/benchmarking/data-composition/locations', allowed ? {} : null);
  const families = useQuery('/api/benchmarking/data-composition/jobfamilies', allowed ? {} : null);
  const [family, setFamily] = useState('software_engineering');
  const [level, setLevel] = useState('p3');
  const f = filters.data?.data;
  const request = f
    ? {
        compensationTypes: ['base'],
        jobFamilies: [family],
        levels: [{ type: 'level', id: level }],
        percentiles: [50],
        currency: 'USD',
        marketFilters: DIFFERENTIAL_LOCATIONS.map((location) => ({
          locations: [location],
          industries: f.industriesAndSubIndustriesWithIds.map((industry) => industry.upstreamId),
          companyStages: f.companyStagesWithIds.map((stage) => stage.id),
          companyOwnershipGroups: f.companyOwnershipGroupsWithIds.map((group) => group.id),
        })),
      }
    : null;
  const result = useBenchmark(allowed ? request : null);
  if (!person) return <FullSizeSpinner loading />;
  if (!allowed) {
    return (
      <DemoFrame title="Location differentials">
        <NeedsAccess what="How pay differs between locations" />
      </DemoFrame>
    );
  }
  const name = (id: string) => locations.data?.data.locations.find((entry) => entry.id === id)?.name ?? id;
  const medians = (result.data?.data.cells ?? []).map((cell) => ({ cell, value: cell.percentiles?.find((p) => p.percentile === 50)?.value }));
  const national = medians[0]?.value;
  const levels = f?.levelsWithIds.levelTracks.flatMap((track) => track.levels) ?? [];
  return (
    <DemoFrame title="Location differentials">
      <p className="lede">Median base salary in US dollars, and how far each location is from the United States as a whole.</p>
      <div className="inline-form">
        <Choice
          label="Job family"
          value={family}
          onChange={setFamily}
          options={(families.data?.data.jobFamilies ?? [{ id: family, name: family }]).map((entry) => ({ id: entry.id, label: entry.name }))}
        />
        <Choice label="Level" value={level} onChange={setLevel} options={levels.map((entry) => ({ id: entry.id, label: entry.displayString }))} />
      </div>
      {result.error && <p role="alert">{errorMessage(result.error)}</p>}
      {!result.data && !result.error && <FullSizeSpinner loading />}
      {result.data && (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Location differentials</caption>
            <thead>
              <tr>
                <th scope="col">Location</th>
                <th scope="col" className="number">
                  Median base
                </th>
                <th scope="col" className="number">
                  Differential
                </th>
                <th scope="col">Sample</th>
              </tr>
            </thead>
            <tbody>
              {medians.map(({ cell, value }) => (
                <tr key={cell.marketFilterIndex}>
                  <th scope="row">{name(DIFFERENTIAL_LOCATIONS[cell.marketFilterIndex] ?? '')}</th>
                  {value === undefined ? (
                    <td colSpan={2} className="insufficient">
                      <strong>{cell.label ?? 'Insufficient data'}</strong>
                    </td>
                  ) : (
                    <>
                      <td className="number">{formatValue(value, cell.unit, cell.currency)}</td>
                      <td className="number">{national ? `${value >= national ? '+' : ''}${(((value - national) / national) * 100).toFixed(1)}%` : '—'}</td>
                    </>
                  )}
                  <td>
                    {sampleText(cell.sample)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </DemoFrame>
  );
}

/** /benchmarking-demo/equity-practices: how every participant grants equity, across the whole market. */
export function DemoEquityPracticesScreen() {
  const { person, allowed } = useCanBenchmark();
  const practices = useEquityPractices(allowed ? {} : null);
  if (!person) return <FullSizeSpinner loading />;
  return (
    <DemoFrame title="Equity practices">
      {!allowed ? (
        <NeedsAccess what="How companies grant equity" />
      ) : practices.error ? (
        <p role="alert">{errorMessage(practices.error)}</p>
      ) : !practices.data ? (
        <FullSizeSpinner loading />
      ) : (
        <EquityPracticesView practices={practices.data} />
      )}
      <p>
        <Link href="/benchmarkingsurvey/equity-practices">Narrow it down</Link> by stage, ownership and industry.
      </p>
    </DemoFrame>
  );
}

/** /benchmarking-demo/participants-list: who is in the market, from the public coverage summary. */
export function DemoParticipantsScreen() {
  return (
    <DemoFrame title="Participants">
      <p>The companies whose anonymised records make up the market. Counts are ranges.</p>
      <MarketingCompositionView sections={['industries', 'companyStages', 'locations']} />
      <p>
        <Link href="/datacomposition/companies">Data composition</Link> shows the full breakdown to people with benchmarking access.
      </p>
    </DemoFrame>
  );
}
