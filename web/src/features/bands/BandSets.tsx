import { Layers, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api, errorMessage, useQuery } from '../../api/client';
import { DataGrid } from '../../ui/DataGrid';
import { ConfirmDelete } from '../../ui/ConfirmDelete';
import { Modal } from '../../ui/Modal';
import { SkeletonTable } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { type BandSet, BandsFrame, Problem, StatusBadge, formatDate, formatNumber, refreshBands, useBandsAccess, useBandsMutation } from './common';
import { CurrencyOptions } from '../../ui/CurrencyOptions';
import { ZoneCheck } from './ZoneCheck';

const today = () => new Date().toISOString().slice(0, 10);

/** A new, empty draft: its name, effective date and currency (the company's unless chosen). */
function CreateDraft({ onClose }: { onClose: () => void }) {
  const [, navigate] = useLocation();
  const { run, busy, problem } = useBandsMutation();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const currency = String(form.get('currency') ?? '');
    const effectiveDate = String(form.get('effectiveDate') ?? '');
    const answer = await run(() =>
      api.POST('/api/bands/band-sets', {
        body: { name: String(form.get('name') ?? ''), ...(currency ? { currency } : {}), ...(effectiveDate ? { effectiveDate } : {}) },
      }),
    );
    if (!answer.ok) return;
    await refreshBands();
    navigate(`/bands/sets/${answer.data.data.id}`);
  }

  return (
    <Modal title="Create a draft band set" onClose={onClose}>
      <form className="settings-form" onSubmit={(event) => void submit(event)}>
        <label>
          Name
          <input name="name" required maxLength={200} placeholder="2027 salary bands" autoComplete="off" />
        </label>
        <label>
          Effective date
          <input name="effectiveDate" type="date" defaultValue={today()} />
        </label>
        <label>
          Currency
          <select name="currency" defaultValue="">
            <option value="">The company’s currency</option>
            <CurrencyOptions />
          </select>
        </label>
        <Problem message={problem?.message ?? null} fields={problem?.fields} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Create draft
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** Deleting a draft: live and archived sets are kept, and the server says so if one is asked. */
export function DeleteDraft({ bandSet, onClose, onDeleted }: { bandSet: BandSet; onClose: () => void; onDeleted?: () => void }) {
  const { add } = useToasts();
  return (
    <ConfirmDelete
      title={`Delete “${bandSet.name}”?`}
      confirmLabel="Delete draft"
      problemClassName="bands-problem"
      onClose={onClose}
      call={() => api.DELETE('/api/bands/band-sets/{bandSetId}', { params: { path: { bandSetId: bandSet.id } } })}
      onDeleted={async () => {
        await refreshBands();
        add('success', `The draft “${bandSet.name}” is deleted.`);
        onClose();
        onDeleted?.();
      }}
    >
      <p>The draft and its {formatNumber(bandSet.bandCount)} bands are removed. Live and archived band sets are never deleted.</p>
    </ConfirmDelete>
  );
}

/** Copies any set (its bands and their sources) into a new draft, and opens it. */
export function useDuplicate() {
  const [, navigate] = useLocation();
  const { add } = useToasts();
  return async (bandSet: BandSet) => {
    const { data, error } = await api.POST('/api/bands/band-sets/{bandSetId}/duplicate', { params: { path: { bandSetId: bandSet.id } }, body: {} });
    if (error || !data) return add('error', errorMessage(error));
    await refreshBands();
    add('success', `Copied into the draft “${data.data.name}”.`);
    navigate(`/bands/sets/${data.data.id}`);
  };
}

/** /bands: every band set — the live one, drafts and archived ones — with what to do with each. */
export function BandSetsScreen() {
  const access = useBandsAccess();
  const sets = useQuery('/api/bands/band-sets');
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<BandSet | null>(null);
  const duplicate = useDuplicate();
  const create = access.edit ? (
    <button type="button" className="primary" onClick={() => setCreating(true)}>
      <Plus size={18} aria-hidden="true" /> Create a draft
    </button>
  ) : undefined;

  return (
    <BandsFrame
      title="Salary bands"
      icon={Layers}
      description="Band sets give each company job a minimum, midpoint and maximum in every pay zone, built from market data. One set is live at a time."
      actions={sets.data?.data.length ? create : undefined}
    >
      <ZoneCheck after="Build a draft again to price its people in them." />
      <Loaded data={sets.data?.data} error={sets.error} retry={() => void sets.mutate()} skeleton={<SkeletonTable rows={4} columns={6} label="Loading the band sets" />}>
        {(list) => {
          if (list.length === 0) {
            return (
              <Empty title="No band sets yet" icon={Layers} action={create}>
                Start with a draft, then build it from market data for your company jobs and pay zones.
                {!access.edit && ' Creating one needs the bands edit permission.'}
              </Empty>
            );
          }
          const live = list.find((set) => set.status === 'live');
          return (
            <>
              <StatGrid label="Band sets">
                <StatCard label="Live band set" value={live ? live.name : 'None'} hint={live ? `${formatNumber(live.bandCount)} bands · effective ${formatDate(live.effectiveDate)}` : 'Publish a draft to make it live'} />
                <StatCard label="Drafts" value={formatNumber(list.filter((set) => set.status === 'draft').length)} />
                <StatCard label="Archived" value={formatNumber(list.filter((set) => set.status === 'archived').length)} />
              </StatGrid>
              <DataGrid
                id="band-sets"
                label="Band sets, newest first"
                rows={list}
                rowKey={(set) => set.id}
                rowAttributes={(set) => ({ 'data-band-set-id': set.id })}
                columns={[
                  { key: 'name', header: 'Name', rowHeader: true, size: 240, value: (set) => set.name, title: (set) => set.name, cell: (set) => <Link href={`/bands/sets/${set.id}`}>{set.name}</Link> },
                  { key: 'status', header: 'Status', size: 150, value: (set) => set.status, cell: (set) => <StatusBadge status={set.status} /> },
                  { key: 'bands', header: 'Bands', numeric: true, size: 90, value: (set) => set.bandCount, cell: (set) => formatNumber(set.bandCount) },
                  { key: 'currency', header: 'Currency', size: 100, value: (set) => set.currency, cell: (set) => set.currency },
                  { key: 'effective', header: 'Effective', size: 130, value: (set) => set.effectiveDate, cell: (set) => formatDate(set.effectiveDate) },
                  { key: 'published', header: 'Published', size: 130, value: (set) => set.publishedAt, cell: (set) => (set.publishedAt ? formatDate(set.publishedAt.slice(0, 10)) : '—') },
                  {
                    key: 'actions',
                    header: <span className="visually-hidden">Actions</span>,
                    label: 'Actions',
                    size: 200,
                    cell: (set) =>
                      access.edit ? (
                        <span className="bands-row-actions">
                          <button type="button" className="small" onClick={() => void duplicate(set)} aria-label={`Duplicate ${set.name}`}>
                            Duplicate
                          </button>
                          {set.status === 'draft' && (
                            <button type="button" className="small ghost" onClick={() => setDeleting(set)} aria-label={`Delete ${set.name}`}>
                              Delete
                            </button>
                          )}
                        </span>
                      ) : (
                        <Link href={`/bands/sets/${set.id}`} aria-label={`Open ${set.name}`}>
                          Open
                        </Link>
                      ),
                  },
                ]}
              />
            </>
          );
        }}
      </Loaded>
      {creating && <CreateDraft onClose={() => setCreating(false)} />}
      {deleting && <DeleteDraft bandSet={deleting} onClose={() => setDeleting(null)} />}
    </BandsFrame>
  );
}
