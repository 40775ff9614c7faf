import { useState } from 'react';
import { useQuery } from '../../api/client';
import { DataTable } from '../../ui/DataTable';
import { formatMoney } from '../../ui/format';
import { Section } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Loaded } from '../../ui/States';
import { type CompanyJob, type Money, type Schemas, formatDate, formatDifferential, formatShare, useMarketNames } from './common';

type Contribution = Schemas['CompositeContribution'];

/** Money to the currency's minor unit (a composite is exact to the cent: $96,666.67). */
export const formatExactMoney = (money: Money | null | undefined): string => formatMoney(money, { cents: true });

/** A market cell in words: family · level · location (industry and stages when narrowed). */
export function useMarketCellLabel() {
  const names = useMarketNames();
  return (cell: Schemas['MarketCell']): string => {
    const parts = [names.name(cell.jobFamilyId), names.name(cell.levelId), names.name(cell.locationId)];
    if (cell.industryId !== 'ind_all') parts.push(cell.industryId);
    return `Market: ${parts.join(' · ')}`;
  };
}

const PERCENTILE_CHOICES: readonly Schemas['MarketPercentile'][] = [10, 25, 40, 50, 60, 75, 90];

const today = (): string => new Date().toISOString().slice(0, 10);

/** A rate in basis points as a percent a year: 300 → "3%". */
const formatRate = (bp: number): string => `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(bp / 100)}%`;

/**
 * A company job's composite benchmark: every source's figure at the percentile, converted, aged to
 * one date at the stated rate, its weight and share of the blend — a withheld market cell shown as
 * "Insufficient data" and not counted — then the blend and each pay zone's benchmark.
 */
export function CompositePanel({ job }: { job: CompanyJob }) {
  const settings = useQuery('/api/bands/settings');
  const cellLabel = useMarketCellLabel();
  const [date, setDate] = useState(today());
  const [rateText, setRateText] = useState<string | null>(null);
  const [percentile, setPercentile] = useState<Schemas['MarketPercentile']>(50);
  const settingRate = settings.data?.data.agingRateBp;
  const rateValue = rateText === null ? undefined : Number(rateText);
  const agingRateBp = rateValue !== undefined && rateText !== '' && Number.isFinite(rateValue) ? Math.round(rateValue * 100) : undefined;
  const composite = useQuery('/api/bands/jobs/{companyJobId}/composite', {
    params: { path: { companyJobId: job.id }, query: { ...(date ? { date } : {}), percentile, ...(agingRateBp !== undefined ? { agingRateBp } : {}) } },
  });

  const source = (part: Contribution): string => {
    if (part.kind === 'market' && part.market) return `${cellLabel(part.market)}${part.releaseVersion ? ` (release ${part.releaseVersion})` : ''}`;
    return `${part.surveyName ?? 'Survey'}: ${part.surveyJobCode ?? ''}`;
  };

  return (
    <Section title="Composite benchmark" id="composite-heading" className="bands-composite">
      <div className="bands-fields">
        <label>
          Aged to
          <input type="date" value={date} onChange={(event) => setDate(event.target.value)} required />
        </label>
        <label>
          Aging rate (% a year)
          <input
            type="number"
            step="0.01"
            min={-50}
            max={50}
            value={rateText ?? (settingRate === undefined ? '' : String(settingRate / 100))}
            onChange={(event) => setRateText(event.target.value)}
          />
        </label>
        <label>
          Percentile
          <select value={percentile} onChange={(event) => setPercentile(Number(event.target.value) as Schemas['MarketPercentile'])}>
            {PERCENTILE_CHOICES.map((value) => (
              <option key={value} value={value}>
                p{value}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Loaded data={composite.data?.data} error={composite.error} inline retry={() => void composite.mutate()} skeleton={<SkeletonTable rows={3} columns={6} label="Loading the composite" />}>
        {(data) => (
          <>
            <p className="bands-outcome" data-testid="composite-anchor">
              {data.anchor ? (
                <>
                  Composite at p{data.percentile}: <strong>{formatExactMoney(data.anchor)}</strong>, blended from {data.benchmarkCount} {data.benchmarkCount === 1 ? 'source' : 'sources'}, aged to{' '}
                  {formatDate(data.date)} at {formatRate(data.agingRateBp)} a year.
                </>
              ) : (
                <>No source prices this job at p{data.percentile} on {formatDate(data.date)}{data.contributions.length ? '; each source says why below.' : ': associate it with a survey job or a market cell.'}</>
              )}
            </p>
            {data.contributions.length > 0 && (
              <DataTable
                caption={`Each source of ${job.title}’s composite`}
                captionHidden
                regionLabel={`Each source of ${job.title}’s composite`}
                cardsOnPhone
                rows={data.contributions}
                rowKey={(part) => part.associationId}
                rowAttributes={(part) => ({ 'data-association-id': part.associationId, 'data-included': String(part.included) })}
                columns={[
                  { key: 'source', header: 'Source', rowHeader: true, cell: source },
                  { key: 'effective', header: 'Effective', cell: (part) => (part.effectiveDate ? formatDate(part.effectiveDate) : '—') },
                  { key: 'months', header: 'Months aged', numeric: true, cell: (part) => (part.months === null ? '—' : part.months.toFixed(2)) },
                  { key: 'value', header: 'Value', numeric: true, cell: (part) => formatExactMoney(part.value) },
                  { key: 'aged', header: 'Aged value', numeric: true, cell: (part) => (part.included ? formatExactMoney(part.aged) : <span className="bands-not-counted">{part.reason ?? 'Not counted'}</span>) },
                  { key: 'weight', header: 'Weight', numeric: true, cell: (part) => String(part.weight) },
                  { key: 'share', header: 'Contribution', numeric: true, cell: (part) => (part.included ? formatShare(part.share) : 'Not counted') },
                ]}
              />
            )}
            {data.anchor && (
              <DataTable
                caption={`${job.title}’s benchmark in each pay zone`}
                regionLabel={`${job.title}’s benchmark in each pay zone, scrollable`}
                cardsOnPhone
                rows={data.zones}
                rowKey={(zone) => zone.payZoneId}
                columns={[
                  { key: 'zone', header: 'Pay zone', rowHeader: true, cell: (zone) => zone.name },
                  { key: 'differential', header: 'Differential', numeric: true, cell: (zone) => formatDifferential(zone.differentialBp) },
                  { key: 'benchmark', header: 'Benchmark', numeric: true, cell: (zone) => formatExactMoney(zone.benchmark) },
                ]}
              />
            )}
            {(data.exchangeRates ?? []).length > 0 && (
              <p className="bands-muted">
                Converted at the reference rates{' '}
                {(data.exchangeRates ?? []).map((rate) => `1 ${rate.base} = ${rate.rate} ${rate.currency} (${rate.source}, ${formatDate(rate.date)})`).join(', ')}.
              </p>
            )}
          </>
        )}
      </Loaded>
    </Section>
  );
}
