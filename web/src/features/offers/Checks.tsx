import { AlertTriangle, CheckCircle2 } from 'lucide-react';
import type { components } from '../../../../openapi.d.ts';
import { errorMessage } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { formatDate, formatMoney, formatNumber } from '../../ui/format';
import { formatValue, sampleText } from '../benchmarking/data';
import type { OfferChecks } from './common';

type BandCheck = components['schemas']['OfferBandCheck'];
type BenchmarkCell = components['schemas']['BenchmarkCell'];
type Route = components['schemas']['OfferApprovalRoute'];

const POSITION: Record<'below' | 'inside' | 'above', { text: string; tone: 'success' | 'warning' }> = {
  below: { text: 'Below the band', tone: 'warning' },
  inside: { text: 'In the band', tone: 'success' },
  above: { text: 'Above the band', tone: 'warning' },
};

const percent = (value: number | null) => (value === null ? '—' : `${formatNumber(value * 100, 1)}%`);

/** The base's place in its band: the band, compa-ratio, range penetration, in or out. */
export function BandPosition({ band, title = 'Band position' }: { band: BandCheck; title?: string }) {
  // Where the band comes from; without a set, the check's own label already says why.
  const source = [band.bandSetName && `Band set ${band.bandSetName}`, band.payZoneName && `pay zone ${band.payZoneName}`].filter(Boolean).join(' · ') || (band.label ? '' : 'No live band set');
  return (
    <article className="card inset" data-check="band">
      <h3>
        {title}
        {band.position && <Badge tone={POSITION[band.position].tone}>{POSITION[band.position].text}</Badge>}
      </h3>
      {band.band ? (
        <dl>
          <dt>Band</dt>
          <dd>
            {formatMoney(band.band.min)} – {formatMoney(band.band.max)}
            {band.gradeKey && ` (grade ${band.gradeKey})`}
          </dd>
          <dt>Midpoint</dt>
          <dd>{formatMoney(band.band.mid)}</dd>
          <dt>Compa-ratio</dt>
          <dd data-testid="compa-ratio">{band.compaRatio === null ? '—' : formatNumber(band.compaRatio, 2)}</dd>
          <dt>Range penetration</dt>
          <dd data-testid="penetration">{percent(band.rangePenetration)}</dd>
        </dl>
      ) : (
        <p className="muted">{band.label ?? 'No band for this job or its grade in this pay zone.'}</p>
      )}
      {source && <p className="muted small-text">{source}</p>}
    </article>
  );
}

function MarketCell({ title, cell }: { title: string; cell: BenchmarkCell | null }) {
  if (!cell) return null;
  const money = (value: number) => formatValue(value, cell.unit, cell.currency);
  const pick = (percentile: number) => cell.percentiles?.find((entry) => entry.percentile === percentile)?.value;
  return (
    <div className="offer-market-cell" data-part={title}>
      <h4>{title}</h4>
      {cell.status !== 'published' || !cell.percentiles ? (
        <p className="muted">{cell.label ?? 'Insufficient data'}</p>
      ) : (
        <dl>
          {[25, 50, 75].map((percentile) => {
            const value = pick(percentile);
            return value === undefined ? null : (
              <div key={percentile} className="offer-market-row">
                <dt>P{percentile}</dt>
                <dd>{money(value)}</dd>
              </div>
            );
          })}
        </dl>
      )}
      <p className="muted small-text">Sample: {sampleText(cell.sample)}</p>
    </div>
  );
}

/** The market for the same cell, through the benchmarking engine's disclosure control. */
export function MarketPosition({ market }: { market: OfferChecks['market'] }) {
  return (
    <article className="card inset" data-check="market">
      <h3>
        Market
        {market.basePercentileBand && <Badge tone="info">Base {market.basePercentileBand}</Badge>}
      </h3>
      {market.base || market.totalCash ? (
        <>
          <MarketCell title="Base salary" cell={market.base} />
          <MarketCell title="Total cash" cell={market.totalCash} />
        </>
      ) : (
        <p className="muted">{market.label ?? 'No market figure for this job and location.'}</p>
      )}
      {market.releaseVersion && <p className="muted small-text">Market release {market.releaseVersion}</p>}
    </article>
  );
}

/** Peers at the same job family and level: how many, and their base where the person may see it. */
export function InternalEquity({ equity }: { equity: OfferChecks['internalEquity'] }) {
  return (
    <article className="card inset" data-check="internal-equity">
      <h3>Internal equity</h3>
      <p>
        {equity.peerCount === 0 ? 'No employee is at this job family and level yet.' : `${formatNumber(equity.peerCount)} ${equity.peerCount === 1 ? 'employee is' : 'employees are'} at this job family and level.`}
      </p>
      {equity.median && equity.min && equity.max ? (
        <dl>
          <dt>Lowest base</dt>
          <dd>{formatMoney(equity.min)}</dd>
          <dt>Median base</dt>
          <dd>{formatMoney(equity.median)}</dd>
          <dt>Highest base</dt>
          <dd>{formatMoney(equity.max)}</dd>
        </dl>
      ) : (
        equity.peerCount > 0 && <p className="muted small-text">Their pay shows only to people who may see every employee’s pay.</p>
      )}
      {equity.otherCurrencyCount ? <p className="muted small-text">{formatNumber(equity.otherCurrencyCount)} paid in another currency are left out.</p> : null}
    </article>
  );
}

export function ApprovalRoute({ route }: { route: Route }) {
  return (
    <div className="offer-route">
      <p>
        {route.mode === 'ordered'
          ? `Every approver in turn: ${route.approvers.map((approver) => approver.name ?? 'An approver').join(', then ')}.`
          : `${route.requiredApprovals} of ${route.approvers.length}: ${route.approvers.map((approver) => approver.name ?? 'An approver').join(', ')}.`}
      </p>
      <ul className="offer-history">
        {route.approvers.map((approver) => (
          <li key={approver.userId}>
            <span>{approver.name ?? 'An approver'}</span>
            <span className="muted small-text" data-testid="approver-decision">
              {approver.decision === 'approved' ? 'Approved' : approver.decision === 'rejected' ? 'Sent back' : routeApproved(route) ? 'Not needed' : 'Waiting'}
              {approver.decidedAt && ` · ${formatDate(approver.decidedAt.slice(0, 10))}`}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Whether the approvals the route needs are all recorded. */
const routeApproved = (route: Route | null): boolean => route !== null && route.approvers.filter((approver) => approver.decision === 'approved').length >= route.requiredApprovals;

/** Every check of a package, as the builder and the offer show them beside the package. */
export function OfferChecksPanel({ checks, error, loading }: { checks: OfferChecks | undefined; error?: unknown; loading?: boolean }) {
  return (
    <aside className="offer-checks" aria-labelledby="offer-checks-heading" aria-busy={loading ? 'true' : undefined}>
      <h2 id="offer-checks-heading">Checks</h2>
      {error ? <p role="alert">{errorMessage(error)}</p> : null}
      {!checks && !error && <p className="muted">Choose a job, a location and a base to see the checks.</p>}
      {checks && (
        <>
          <div className={checks.approvalRequired ? 'card offer-approval' : 'card'} role="status" data-testid="approval-status">
            {checks.approvalRequired && routeApproved(checks.approvalRoute) ? (
              <p>
                <CheckCircle2 size={18} aria-hidden="true" /> <strong>Approved</strong>: the package is out of band and its approvers approved it.
              </p>
            ) : checks.approvalRequired ? (
              <p>
                <AlertTriangle size={18} aria-hidden="true" /> <strong>Approval required</strong>: the package is out of band.
              </p>
            ) : checks.outOfRange ? (
              <p>
                <AlertTriangle size={18} aria-hidden="true" /> <strong>Out of band</strong>, and no approval rule applies to this department or location.
              </p>
            ) : checks.band.band ? (
              <p>
                <CheckCircle2 size={18} aria-hidden="true" /> Within the band: no approval needed.
              </p>
            ) : (
              <p>
                <CheckCircle2 size={18} aria-hidden="true" /> No band to check against, so no approval is needed.
              </p>
            )}
            {checks.reasons.length > 0 && (
              <ul>
                {checks.reasons.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            )}
            {checks.approvalRoute && <ApprovalRoute route={checks.approvalRoute} />}
          </div>
          <BandPosition band={checks.band} />
          {checks.alternatives.map((alternative) => (
            <BandPosition key={alternative.id} band={alternative.band} title={`Band position: ${alternative.label}`} />
          ))}
          <MarketPosition market={checks.market} />
          <InternalEquity equity={checks.internalEquity} />
        </>
      )}
    </aside>
  );
}
