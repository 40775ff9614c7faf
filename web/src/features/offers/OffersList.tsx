import { Download, FileSignature, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { TRY_AGAIN, api, errorMessage, useQuery } from '../../api/client';
import { invalidate, useMutation } from '../../api/queries';
import type { components } from '../../../../openapi.d.ts';
import { Modal } from '../../ui/Modal';
import { useToasts } from '../../ui/Toasts';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { DataGrid } from '../../ui/DataGrid';
import { saveBlob } from '../../ui/files';
import { toCsv } from '../../ui/gridModel';
import { FilterBar } from '../../ui/FilterBar';
import { PageHeader } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, Loaded } from '../../ui/States';
import { formatDate, formatMoney, majorOf } from '../../ui/format';
import { useDebounced } from '../../ui/hooks';
import { useQueryParam } from '../../ui/urlState';
import { can } from '../settings/permissions';
import { type OfferState, type OfferSummary, STATES, stateLabel, stateTone, useOfferUpdates } from './common';
import './offers.css';

const isState = (value: string | null): value is OfferState => STATES.some((entry) => entry.state === value);

type BulkAction = components['schemas']['OfferBulkActionRequest']['action'];
type BulkResult = components['schemas']['OfferBulkActionResult'];

/** What each bulk action takes from, and how it is said. */
const BULK: Record<BulkAction, { from: readonly OfferState[]; verb: string; done: string; edit: boolean }> = {
  submit: { from: ['draft'], verb: 'Submit', done: 'submitted', edit: true },
  approve: { from: ['pendingApproval'], verb: 'Approve', done: 'approved', edit: false },
  send: { from: ['approved'], verb: 'Send', done: 'sent', edit: true },
  rescind: { from: ['approved', 'sent', 'opened'], verb: 'Rescind', done: 'rescinded', edit: true },
};

const offersWord = (count: number) => `${count} ${count === 1 ? 'offer' : 'offers'}`;

/** The outcome of a bulk action in words: how many were changed, and each refused offer with why. */
function BulkReport({ report, names, onClose }: { report: BulkResult; names: ReadonlyMap<string, string>; onClose: () => void }) {
  const refused = report.results.filter((result) => result.outcome === 'refused');
  return (
    <div className={refused.length ? 'offers-bulk-report refused' : 'offers-bulk-report'} role="status">
      <p>
        {offersWord(report.done)} {BULK[report.action].done}.{refused.length > 0 && ` ${offersWord(refused.length)} refused, unchanged:`}
      </p>
      {refused.length > 0 && (
        <ul>
          {refused.map((result) => (
            <li key={result.offerId} data-refused-offer={result.offerId}>
              <strong>{names.get(result.offerId) ?? 'An offer'}</strong>: {result.message}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="small ghost" onClick={onClose}>
        Dismiss
      </button>
    </div>
  );
}

function matches(offer: OfferSummary, text: string): boolean {
  if (!text) return true;
  const needle = text.toLowerCase();
  return [offer.candidate.firstName, offer.candidate.lastName, `${offer.candidate.firstName} ${offer.candidate.lastName}`, offer.candidate.email, offer.title, offer.department ?? ''].some((value) =>
    value.toLowerCase().includes(needle),
  );
}

const candidateName = (offer: OfferSummary): string => `${offer.candidate.firstName} ${offer.candidate.lastName}`;

/** The selected offers as a CSV file (what the list shows, one line each). */
function exportSelection(offers: readonly OfferSummary[]) {
  const header = ['Candidate', 'E-mail', 'Job', 'Department', 'State', 'Out of band', 'Base', 'Currency', 'Start date', 'Expires', 'Candidate activity'];
  const lines = offers.map((offer) => [
    candidateName(offer),
    offer.candidate.email,
    offer.title,
    offer.department ?? '',
    stateLabel(offer.state),
    offer.outOfRange ? 'yes' : 'no',
    offer.base ? String(majorOf(offer.base)) : '',
    offer.base?.currency ?? '',
    offer.startDate ?? '',
    offer.expiresOn ?? '',
    activity(offer),
  ]);
  saveBlob(new Blob([toCsv(header, lines)], { type: 'text/csv' }), `offers-${new Date().toISOString().slice(0, 10)}.csv`);
}

/** What the candidate has done with a sent letter, in a few words. */
function activity(offer: OfferSummary): string {
  if (offer.acceptedAt) return `Accepted ${formatDate(offer.acceptedAt.slice(0, 10))}`;
  if (offer.declinedAt) return `Declined ${formatDate(offer.declinedAt.slice(0, 10))}`;
  if (offer.openedAt) return `Viewed ${offer.viewCount} ${offer.viewCount === 1 ? 'time' : 'times'}`;
  if (offer.sentAt) return 'Not opened yet';
  return '—';
}

/** /offers: every offer of the company, by state and searchable, with live updates as candidates open and answer. */
export function OffersScreen() {
  const person = usePerson().data?.data;
  const [stateParam, setState] = useQueryParam('state');
  const [search, setSearch] = useState('');
  const text = useDebounced(search, 200);
  const state = isState(stateParam) ? stateParam : undefined;
  const offers = useQuery('/api/offers', { params: { query: state ? { state } : {} } });
  useOfferUpdates();
  const mayEdit = can(person, 'offers', 'edit');
  const { add } = useToasts();
  const [exporting, setExporting] = useState(false);
  async function startExport() {
    setExporting(true);
    const { data, error } = await api.POST('/api/offers/exports', { body: { format: 'csv', ...(state ? { state } : {}) } });
    setExporting(false);
    if (error || !data) return add('error', errorMessage(error, TRY_AGAIN));
    await invalidate('/api/me/background-jobs');
    add('info', 'The export has started. It appears under background jobs when it is ready to download.');
  }
  const rows = (offers.data?.data ?? []).filter((offer) => matches(offer, text.trim()));
  const { run, busy } = useMutation();
  const [report, setReport] = useState<{ result: BulkResult; names: Map<string, string> } | null>(null);
  const [rescinding, setRescinding] = useState<{ offers: OfferSummary[]; clear: () => void } | null>(null);
  const [reason, setReason] = useState('');

  /** One action over the chosen offers it applies to, each at the version the list shows; refusals are reported beside their names. */
  async function bulk(action: BulkAction, chosen: readonly OfferSummary[], clear: () => void, comment?: string) {
    const targets = chosen.filter((offer) => BULK[action].from.includes(offer.state));
    if (!targets.length) return;
    const answer = await run(
      () => api.POST('/api/offers/bulk-actions', { body: { action, ...(comment ? { comment } : {}), offers: targets.map((offer) => ({ id: offer.id, version: offer.version })) } }),
      { invalidates: '/api/offers' },
    );
    if (!answer.ok) return;
    setReport({ result: answer.data.data, names: new Map(targets.map((offer) => [offer.id, candidateName(offer)])) });
    clear();
  }

  /** The actions the selection allows: each names how many of the chosen offers it takes. */
  const bulkBar = (chosen: OfferSummary[], clear: () => void) => (
    <>
      {(Object.keys(BULK) as BulkAction[])
        .filter((action) => mayEdit || !BULK[action].edit)
        .map((action) => {
          const count = chosen.filter((offer) => BULK[action].from.includes(offer.state)).length;
          if (!count) return null;
          return (
            <button
              key={action}
              type="button"
              className={action === 'rescind' ? 'small danger' : 'small'}
              disabled={busy}
              onClick={() => (action === 'rescind' ? setRescinding({ offers: chosen, clear }) : void bulk(action, chosen, clear))}
            >
              {BULK[action].verb} {offersWord(count)}
              {action === 'rescind' ? '…' : ''}
            </button>
          );
        })}
      <button type="button" className="small" onClick={() => exportSelection(chosen)}>
        Export selection (CSV)
      </button>
    </>
  );
  return (
    <div className="offers">
      <PageHeader
        title="Offers"
        icon={FileSignature}
        description="Packages for candidates, checked against the band and the market, approved when out of range, and sent as a visual offer letter."
        actions={
          <>
            <Link href="/offers/approvals" className="button">
              Approvals
            </Link>
            <button type="button" disabled={exporting} onClick={() => void startExport()}>
              <Download size={18} aria-hidden="true" />
              Export CSV
            </button>
            {mayEdit && (
              <Link href="/offers/new" className="button primary">
                <Plus size={18} aria-hidden="true" />
                New offer
              </Link>
            )}
          </>
        }
      />
      <FilterBar
        label="Filter offers"
        search={
          <label>
            Search
            <input type="search" value={search} placeholder="Candidate, e-mail or title" onChange={(event) => setSearch(event.target.value)} />
          </label>
        }
        active={state ? [{ key: 'state', label: `State: ${stateLabel(state)}`, onRemove: () => setState(null) }] : []}
        showLabel={`Show ${rows.length} ${rows.length === 1 ? 'offer' : 'offers'}`}
      >
        <label>
          State
          <select value={state ?? ''} onChange={(event) => setState(event.target.value || null)}>
            <option value="">Every state</option>
            {STATES.map((entry) => (
              <option key={entry.state} value={entry.state}>
                {entry.label}
              </option>
            ))}
          </select>
        </label>
      </FilterBar>
      {report && <BulkReport report={report.result} names={report.names} onClose={() => setReport(null)} />}
      {rescinding && (
        <Modal
          title={`Rescind ${offersWord(rescinding.offers.filter((offer) => BULK.rescind.from.includes(offer.state)).length)}?`}
          onClose={() => setRescinding(null)}
          footer={
            <>
              <button type="button" onClick={() => setRescinding(null)}>
                Keep them
              </button>
              <button
                type="button"
                className="danger"
                disabled={busy || !reason.trim()}
                onClick={() => {
                  const chosen = rescinding;
                  setRescinding(null);
                  void bulk('rescind', chosen.offers, chosen.clear, reason.trim()).then(() => setReason(''));
                }}
              >
                Rescind
              </button>
            </>
          }
        >
          <p>Their letters stop opening. Offers changed since the list was read are left as they are and named.</p>
          <label>
            Why (kept in each offer’s history)
            <textarea value={reason} onChange={(event) => setReason(event.target.value)} rows={3} maxLength={4000} />
          </label>
        </Modal>
      )}
      <Loaded data={offers.data?.data} error={offers.error} retry={() => void offers.mutate()} skeleton={<SkeletonTable rows={5} columns={6} />}>
        {(list) =>
          list.length === 0 ? (
            <Empty
              title={state ? `No offers are ${stateLabel(state).toLowerCase()}` : 'No offers yet'}
              action={mayEdit && !state ? <Link href="/offers/new">Build the first offer</Link> : undefined}
              icon={FileSignature}
            >
              {state ? 'Choose another state to see more.' : 'An offer is a candidate’s package, checked against the band and the market before it goes out.'}
            </Empty>
          ) : rows.length === 0 ? (
            <Empty title="No offer matches" icon={FileSignature}>
              Nothing matches “{text}”.
            </Empty>
          ) : (
            <DataGrid
              id="offers"
              label="Offers, newest first"
              rows={rows}
              rowName={candidateName}
              filters
              bulkActions={bulkBar}
              rowKey={(offer) => offer.id}
              rowAttributes={(offer) => ({ 'data-offer-id': offer.id })}
              columns={[
                {
                  key: 'candidate',
                  header: 'Candidate',
                  rowHeader: true,
                  size: 200,
                  value: candidateName,
                  title: candidateName,
                  cell: (offer) => (
                    <Link href={`/offers/${offer.id}`}>
                      {offer.candidate.firstName} {offer.candidate.lastName}
                    </Link>
                  ),
                },
                { key: 'title', header: 'Job', size: 200, value: (offer) => offer.title, title: (offer) => offer.title, cell: (offer) => offer.title },
                {
                  key: 'state',
                  header: 'State',
                  size: 190,
                  value: (offer) => stateLabel(offer.state),
                  cell: (offer) => (
                    <>
                      <Badge tone={stateTone(offer.state)}>{stateLabel(offer.state)}</Badge>
                      {offer.outOfRange && <Badge tone="warning">Out of band</Badge>}
                    </>
                  ),
                },
                { key: 'base', header: 'Base', numeric: true, size: 110, value: (offer) => (offer.base ? majorOf(offer.base) : null), cell: (offer) => formatMoney(offer.base) },
                { key: 'start', header: 'Start date', size: 120, value: (offer) => offer.startDate, cell: (offer) => formatDate(offer.startDate) },
                { key: 'expires', header: 'Expires', size: 120, value: (offer) => offer.expiresOn, cell: (offer) => formatDate(offer.expiresOn) },
                { key: 'activity', header: 'Candidate activity', size: 170, value: activity, cell: activity },
              ]}
            />
          )
        }
      </Loaded>
    </div>
  );
}
