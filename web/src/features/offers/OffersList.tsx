import { Download, FileSignature, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { TRY_AGAIN, api, errorMessage, useQuery } from '../../api/client';
import { invalidate } from '../../api/queries';
import { useToasts } from '../../ui/Toasts';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { DataTable } from '../../ui/DataTable';
import { FilterBar } from '../../ui/FilterBar';
import { PageHeader } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, Loaded } from '../../ui/States';
import { formatDate, formatMoney } from '../../ui/format';
import { useDebounced } from '../../ui/hooks';
import { useQueryParam } from '../../ui/urlState';
import { can } from '../settings/permissions';
import { type OfferState, type OfferSummary, STATES, stateLabel, stateTone, useOfferUpdates } from './common';
import './offers.css';

const isState = (value: string | null): value is OfferState => STATES.some((entry) => entry.state === value);

function matches(offer: OfferSummary, text: string): boolean {
  if (!text) return true;
  const needle = text.toLowerCase();
  return [offer.candidate.firstName, offer.candidate.lastName, `${offer.candidate.firstName} ${offer.candidate.lastName}`, offer.candidate.email, offer.title, offer.department ?? ''].some((value) =>
    value.toLowerCase().includes(needle),
  );
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
            <DataTable
              caption="Offers, newest first"
              captionHidden
              cardsOnPhone
              rows={rows}
              rowKey={(offer) => offer.id}
              rowAttributes={(offer) => ({ 'data-offer-id': offer.id })}
              columns={[
                {
                  key: 'candidate',
                  header: 'Candidate',
                  rowHeader: true,
                  cell: (offer) => (
                    <Link href={`/offers/${offer.id}`}>
                      {offer.candidate.firstName} {offer.candidate.lastName}
                    </Link>
                  ),
                },
                { key: 'title', header: 'Job', cell: (offer) => offer.title },
                {
                  key: 'state',
                  header: 'State',
                  cell: (offer) => (
                    <>
                      <Badge tone={stateTone(offer.state)}>{stateLabel(offer.state)}</Badge>
                      {offer.outOfRange && <Badge tone="warning">Out of band</Badge>}
                    </>
                  ),
                },
                { key: 'base', header: 'Base', numeric: true, cell: (offer) => formatMoney(offer.base) },
                { key: 'start', header: 'Start date', cell: (offer) => formatDate(offer.startDate) },
                { key: 'expires', header: 'Expires', cell: (offer) => formatDate(offer.expiresOn) },
                { key: 'activity', header: 'Candidate activity', cell: activity },
              ]}
            />
          )
        }
      </Loaded>
    </div>
  );
}
