import { useState } from 'react';
import { useQuery } from '../../api/client';
import { type Column, DataTable } from '../../ui/DataTable';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, Loaded } from '../../ui/States';
import { type BandSet, type BandSetDetail, type CompanyJob, type PayZone, type Schemas, formatDate, formatMoney, formatNumber } from './common';

type BandChange = Schemas['BandChange'];
type GradeBandChange = Schemas['GradeBandChange'];
type Range = Schemas['BandRange'];

const CHANGE_LABELS: Record<BandChange['change'], string> = { added: 'Added', removed: 'Removed', changed: 'Changed' };

const rangeText = (range: Range | null): string => (range ? `${formatMoney(range.min)} – ${formatMoney(range.mid)} – ${formatMoney(range.max)}` : '—');

const midChangeText = (bp: number | null): string =>
  bp === null ? '—' : new Intl.NumberFormat(undefined, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 2, signDisplay: 'exceptZero' }).format(bp / 10_000);

/** What a change of either kind shows after naming its job or grade. */
function changeColumns<C extends BandChange | GradeBandChange>(zoneName: Map<string, string>): Column<C>[] {
  return [
    { key: 'zone', header: 'Pay zone', cell: (band) => zoneName.get(band.payZoneId) ?? '—' },
    { key: 'change', header: 'Change', cell: (band) => CHANGE_LABELS[band.change] },
    { key: 'before', header: 'Before (min – mid – max)', cell: (band) => rangeText(band.before) },
    { key: 'after', header: 'Now (min – mid – max)', cell: (band) => rangeText(band.after) },
    { key: 'mid', header: 'Midpoint', numeric: true, cell: (band) => midChangeText(band.midChangeBp) },
  ];
}

/** The set to compare with first: the live set for a draft or an archived set, else the newest other set. */
function defaultSince(bandSet: BandSetDetail, sets: BandSet[]): string {
  const others = sets.filter((set) => set.id !== bandSet.id);
  const live = others.find((set) => set.status === 'live');
  return (live ?? [...others].sort((a, b) => (a.effectiveDate < b.effectiveDate ? 1 : -1))[0])?.id ?? '';
}

interface ChangesProps {
  bandSet: BandSetDetail;
  jobs: CompanyJob[];
  zones: PayZone[];
}

/** A band set's "Changes" tab: what moved since another of the company's sets, band by band. */
export function Changes({ bandSet, jobs, zones }: ChangesProps) {
  const sets = useQuery('/api/bands/band-sets');
  const [chosen, setChosen] = useState<string | null>(null);
  const others = (sets.data?.data ?? []).filter((set) => set.id !== bandSet.id);
  const since = chosen ?? (sets.data ? defaultSince(bandSet, sets.data.data) : '');
  const changes = useQuery('/api/bands/band-sets/{bandSetId}/changes', since ? { params: { path: { bandSetId: bandSet.id }, query: { since } } } : null);
  const jobName = new Map(jobs.map((job) => [job.id, `${job.title} (${job.levelDisplay})`]));
  const zoneName = new Map(zones.map((zone) => [zone.id, zone.name]));
  if (sets.data && others.length === 0) {
    return (
      <Empty title="Nothing to compare with" compact>
        This is the company’s only band set. Duplicate it, or publish another, to see what changes between them.
      </Empty>
    );
  }
  return (
    <>
      <div className="bands-fields">
        <label>
          Compared with
          <select value={since} onChange={(event) => setChosen(event.target.value)}>
            {others.map((set) => (
              <option key={set.id} value={set.id}>
                {set.name} ({set.status}, effective {formatDate(set.effectiveDate)})
              </option>
            ))}
          </select>
        </label>
      </div>
      <Loaded data={changes.data?.data} error={changes.error ?? sets.error} retry={() => void changes.mutate()} skeleton={<SkeletonTable rows={3} columns={5} label="Comparing the band sets" />}>
        {(result) => (
          <>
            <p className="bands-muted" data-testid="band-changes-summary">
              {formatNumber(result.counts.changed)} changed · {formatNumber(result.counts.added)} added · {formatNumber(result.counts.removed)} removed · {formatNumber(result.counts.unchanged)} unchanged
            </p>
            {result.bands.length === 0 && result.gradeBands.length === 0 ? (
              <Empty title="No band changed" compact>
                Every band of this set has the same minimum, midpoint and maximum as in the set compared with.
              </Empty>
            ) : (
              <>
                {result.bands.length > 0 && (
                  <DataTable
                    caption="Bands that changed"
                    captionHidden
                    cardsOnPhone
                    regionLabel="Bands that changed"
                    rows={result.bands}
                    rowKey={(band) => `${band.companyJobId}|${band.payZoneId}`}
                    columns={[
                      { key: 'job', header: 'Job', rowHeader: true, cell: (band) => jobName.get(band.companyJobId) ?? `${band.jobFamilyId} ${band.levelId.toUpperCase()}` },
                      ...changeColumns<BandChange>(zoneName),
                    ]}
                  />
                )}
                {result.gradeBands.length > 0 && (
                  <DataTable
                    caption="Grade bands that changed"
                    cardsOnPhone
                    regionLabel="Grade bands that changed"
                    rows={result.gradeBands}
                    rowKey={(band) => `${band.gradeId}|${band.payZoneId}`}
                    columns={[{ key: 'grade', header: 'Grade', rowHeader: true, cell: (band) => band.gradeKey }, ...changeColumns<GradeBandChange>(zoneName)]}
                  />
                )}
              </>
            )}
          </>
        )}
      </Loaded>
    </>
  );
}
