import { MapPin, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { useVersionedSave } from '../../api/queries';
import { Badge } from '../../ui/Badge';
import { DataTable } from '../../ui/DataTable';
import { ConfirmDelete } from '../../ui/ConfirmDelete';
import { Modal } from '../../ui/Modal';
import { SkeletonTable } from '../../ui/Skeleton';
import { Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { BandsFrame, type PayZone, Problem, type Schemas, fieldProblems, formatDifferential, refreshBands, useBandsAccess } from './common';
import { CurrencyOptions } from '../../ui/CurrencyOptions';

type Rule = Schemas['PayZoneRule'];

/** A rule as typed: the country code and its metros or cities, comma-separated. */
interface RuleDraft {
  key: number;
  country: string;
  metros: string;
}

let ruleKeys = 0;
const draftOf = (rule?: Rule): RuleDraft => ({ key: (ruleKeys += 1), country: rule?.country ?? '', metros: (rule?.metros ?? []).join(', ') });

function rulesOf(drafts: RuleDraft[]): Rule[] {
  return drafts
    .filter((draft) => draft.country.trim() || draft.metros.trim())
    .map((draft) => {
      const metros = draft.metros
        .split(',')
        .map((metro) => metro.trim())
        .filter(Boolean);
      return { country: draft.country.trim().toUpperCase(), ...(metros.length ? { metros } : {}) };
    });
}

export const rulesText = (zone: PayZone): string =>
  zone.catchAll ? 'Everyone no other zone matches' : zone.rules.map((rule) => (rule.metros?.length ? `${rule.country}: ${rule.metros.join(', ')}` : `${rule.country} (whole country)`)).join('; ');

/**
 * A zone's form, for a new zone or one read at its version. The anchor's differential is 0 and the
 * catch-all keeps no rules; the server checks both and says which country or metro another zone has.
 */
function ZoneForm({ zone, onClose }: { zone: PayZone | null; onClose: () => void }) {
  const { add } = useToasts();
  const [name, setName] = useState(zone?.name ?? '');
  const [differential, setDifferential] = useState(zone ? String(zone.differentialBp / 100) : '0');
  const [anchor, setAnchor] = useState(zone?.anchor ?? false);
  // '' : the zone's bands are in each band set's currency.
  const [currency, setCurrency] = useState(zone?.currency ?? '');
  const [rules, setRules] = useState<RuleDraft[]>(zone && !zone.catchAll ? zone.rules.map(draftOf) : [draftOf()]);
  const [problem, setProblem] = useState<{ message: string; fields: string[] } | null>(null);
  const [creating, setCreating] = useState(false);
  // "Who can see this zone": people whose bands grant is scoped to zones see only the zones that name them.
  const [viewers, setViewers] = useState<string[]>(zone?.viewerUserIds ?? []);
  const users = useQuery('/api/users', { params: { query: { limit: 500 } } });
  const people = (users.data?.data ?? []).filter((user) => user.status === 'active' && !user.isCandidate);
  const update = useVersionedSave((ifMatch, payZoneId: string, body: Schemas['PayZonePatch']) =>
    api.PATCH('/api/bands/pay-zones/{payZoneId}', { params: { path: { payZoneId }, header: { 'If-Match': ifMatch } }, body }),
  );
  const catchAll = zone?.catchAll ?? false;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const percent = Number(differential);
    if (!anchor && (differential.trim() === '' || !Number.isFinite(percent))) {
      setProblem({ message: 'The differential is a percent, e.g. −10 for 10% below the anchor.', fields: [] });
      return;
    }
    const differentialBp = anchor ? 0 : Math.round(percent * 100);
    if (zone) {
      const body: Schemas['PayZonePatch'] = {
        name,
        ...(zone.anchor ? {} : { differentialBp }),
        ...((zone.currency ?? '') !== currency ? { currency: currency || null } : {}),
        ...(anchor && !zone.anchor ? { anchor: true } : {}),
        ...(catchAll ? {} : { rules: rulesOf(rules) }),
        ...(users.data ? { viewerUserIds: viewers } : {}),
      };
      const result = await update.save(zone.version, zone.id, body);
      // A conflict or a refusal keeps the form as the person left it.
      if (!result.ok) return setProblem({ message: result.message, fields: [] });
      add('success', `Saved the pay zone “${result.data.data.name}”.`);
    } else {
      setCreating(true);
      const { data, error } = await api.POST('/api/bands/pay-zones', { body: { name, differentialBp, ...(currency ? { currency } : {}), ...(anchor ? { anchor: true } : {}), rules: rulesOf(rules), ...(users.data ? { viewerUserIds: viewers } : {}) } });
      setCreating(false);
      if (error || !data) return setProblem({ message: errorMessage(error), fields: fieldProblems(error) });
      add('success', `Added the pay zone “${data.data.name}”.`);
    }
    await refreshBands();
    onClose();
  }

  const setRule = (key: number, change: Partial<RuleDraft>) => setRules((list) => list.map((rule) => (rule.key === key ? { ...rule, ...change } : rule)));
  return (
    <Modal title={zone ? `Edit “${zone.name}”` : 'Add a pay zone'} onClose={onClose}>
      <form className="settings-form" onSubmit={(event) => void submit(event)}>
        <label>
          Name
          <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={200} autoComplete="off" />
        </label>
        <label>
          Differential to the anchor (%)
          <input
            type="number"
            inputMode="decimal"
            step="0.01"
            min={-90}
            max={100}
            value={anchor ? '0' : differential}
            onChange={(event) => setDifferential(event.target.value)}
            disabled={anchor || zone?.anchor}
            aria-describedby="differential-hint"
          />
        </label>
        <p id="differential-hint" className="bands-muted">
          Pay in this zone relative to the anchor zone: −10 is 10% below it. The anchor’s is 0.
        </p>
        <label>
          Pay currency
          <select value={currency} onChange={(event) => setCurrency(event.target.value)} aria-describedby="zone-currency-hint">
            <option value="">Each band set’s currency</option>
            <CurrencyOptions />
          </select>
        </label>
        <p id="zone-currency-hint" className="bands-muted">
          A build converts the anchor’s figure into this currency at the reference rate of the set’s effective date, then applies the differential and rounds. Bands already built keep their currency until rebuilt.
        </p>
        {!zone?.anchor && (
          <label className="inline-check">
            <input type="checkbox" checked={anchor} onChange={(event) => setAnchor(event.target.checked)} />
            Make this the anchor zone (the zone the market is priced in; the current anchor gives the role up)
          </label>
        )}
        {catchAll ? (
          <p className="bands-muted">This is the catch-all zone: it has no rules and takes everyone no other zone matches.</p>
        ) : (
          <fieldset>
            <legend>Who is in this zone</legend>
            {rules.map((rule, index) => (
              <div key={rule.key} className="bands-rule">
                <label>
                  Country (2 letters)
                  <input value={rule.country} onChange={(event) => setRule(rule.key, { country: event.target.value.toUpperCase() })} maxLength={2} placeholder="US" autoComplete="off" />
                </label>
                <label>
                  Metros or cities (optional, comma-separated)
                  <input value={rule.metros} onChange={(event) => setRule(rule.key, { metros: event.target.value })} placeholder="Austin, Denver" autoComplete="off" />
                </label>
                {rules.length > 1 && (
                  <button type="button" className="ghost icon-button" aria-label={`Remove rule ${index + 1}`} onClick={() => setRules((list) => list.filter((entry) => entry.key !== rule.key))}>
                    <Trash2 size={18} aria-hidden="true" />
                  </button>
                )}
              </div>
            ))}
            <div>
              <button type="button" className="small" onClick={() => setRules((list) => [...list, draftOf()])}>
                Add a rule
              </button>
            </div>
            <p className="bands-muted">A rule with metros matches only there; one without matches the whole country. Each country or metro belongs to one zone.</p>
          </fieldset>
        )}
        {people.length > 0 && (
          <fieldset className="bands-viewers">
            <legend>Who can see this zone</legend>
            <p className="bands-muted">People whose salary-bands access is limited to pay zones (such as recruiters) see the bands and employees of the zones that name them. Everyone with access to all zones sees every zone.</p>
            <div className="bands-viewer-list">
              {people.map((user) => (
                <label key={user.id} className="inline-check">
                  <input
                    type="checkbox"
                    checked={viewers.includes(user.id)}
                    onChange={(event) => setViewers((list) => (event.target.checked ? [...list, user.id] : list.filter((id) => id !== user.id)))}
                  />
                  {[user.firstName, user.lastName].filter(Boolean).join(' ') || user.email}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        <Problem message={problem?.message ?? null} fields={problem?.fields} />
        <div className="actions">
          <button type="submit" className="primary" disabled={creating || update.busy}>
            {zone ? 'Save zone' : 'Add zone'}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** Deleting a zone: the server refuses the anchor, the catch-all and a zone bands use, and says why. */
function DeleteZone({ zone, onClose }: { zone: PayZone; onClose: () => void }) {
  const { add } = useToasts();
  return (
    <ConfirmDelete
      title={`Delete “${zone.name}”?`}
      confirmLabel="Delete zone"
      problemClassName="bands-problem"
      onClose={onClose}
      call={() => api.DELETE('/api/bands/pay-zones/{payZoneId}', { params: { path: { payZoneId: zone.id } } })}
      onDeleted={async () => {
        await refreshBands();
        add('success', `Deleted the pay zone “${zone.name}”.`);
        onClose();
      }}
    >
      <p>Its employees fall to the next zone that matches them, else the catch-all.</p>
    </ConfirmDelete>
  );
}

/** /bands/pay-zones: where pay differs — each zone's differential to the anchor and who it takes. */
export function PayZonesScreen() {
  const access = useBandsAccess();
  const zones = useQuery('/api/bands/pay-zones');
  const [editing, setEditing] = useState<PayZone | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PayZone | null>(null);
  return (
    <BandsFrame
      title="Pay zones"
      icon={MapPin}
      description="Every employee is in exactly one zone: the first whose metro rule matches them, else the first whose country does, else the catch-all. Each zone’s bands are the anchor’s × (1 + differential)."
      actions={
        access.edit ? (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            <Plus size={18} aria-hidden="true" /> Add a pay zone
          </button>
        ) : undefined
      }
    >
      <Loaded data={zones.data?.data} error={zones.error} retry={() => void zones.mutate()} skeleton={<SkeletonTable rows={3} columns={5} label="Loading the pay zones" />}>
        {(list) => (
          <>
            <DataTable
              caption="Pay zones, in matching order"
              captionHidden
              cardsOnPhone
              rows={list}
              rowKey={(zone) => zone.id}
              rowAttributes={(zone) => ({ 'data-pay-zone-id': zone.id })}
              columns={[
                {
                  key: 'name',
                  header: 'Zone',
                  rowHeader: true,
                  cell: (zone) => (
                    <>
                      {zone.name}
                      {zone.anchor && <Badge tone="info">Anchor</Badge>}
                      {zone.catchAll && <Badge tone="neutral">Catch-all</Badge>}
                    </>
                  ),
                },
                { key: 'differential', header: 'Differential', numeric: true, cell: (zone) => formatDifferential(zone.differentialBp) },
                { key: 'currency', header: 'Pay currency', cell: (zone) => zone.currency ?? 'The set’s' },
                { key: 'rules', header: 'Matches', cell: (zone) => rulesText(zone) },
                { key: 'position', header: 'Order', numeric: true, cell: (zone) => zone.position },
                ...(access.edit
                  ? [
                      {
                        key: 'actions',
                        header: <span className="visually-hidden">Actions</span>,
                        label: 'Actions',
                        cell: (zone: PayZone) => (
                          <span className="bands-row-actions">
                            <button type="button" className="small" onClick={() => setEditing(zone)} aria-label={`Edit ${zone.name}`}>
                              Edit
                            </button>
                            {!zone.catchAll && (
                              <button type="button" className="small ghost" onClick={() => setDeleting(zone)} aria-label={`Delete ${zone.name}`}>
                                Delete
                              </button>
                            )}
                          </span>
                        ),
                      },
                    ]
                  : []),
              ]}
            />
            {list.length === 1 && (
              <p className="bands-muted">
                Everyone is in “{list[0]?.name}” for now. Add a zone for a country or metros that pay differently, e.g. −10% for a lower-cost metro.
              </p>
            )}
          </>
        )}
      </Loaded>
      {editing && <ZoneForm zone={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteZone zone={deleting} onClose={() => setDeleting(null)} />}
    </BandsFrame>
  );
}
