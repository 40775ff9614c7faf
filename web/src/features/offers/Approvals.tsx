import { Plus, ShieldCheck, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, useQuery } from '../../api/client';
import { invalidate, useVersionedSave } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { FormProblem } from '../../ui/FormProblem';
import { PageHeader } from '../../ui/Page';
import { Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { useBenchmarkingCatalog } from '../benchmarking/data';
import { can } from '../settings/permissions';
import './offers.css';

type Settings = components['schemas']['OfferApprovalSettings'];
type RuleInput = components['schemas']['OfferApprovalRuleInput'];

const toInput = (settings: Settings): RuleInput[] =>
  settings.rules.map((rule) => ({ id: rule.id, department: rule.department, locationId: rule.locationId, mode: rule.mode, approverUserIds: rule.approvers.map((approver) => approver.userId), requiredApprovals: rule.requiredApprovals }));

/** The locations a rule may name, by their names: the market's, and the rule's own if it is not among them. */
const locationChoices = (locations: readonly { id: string }[], current: string | null | undefined): string[] => {
  const ids = locations.map((location) => location.id);
  return current && !ids.includes(current) ? [current, ...ids] : ids;
};

/** The offer approval rules' editor; also shown on /settings/workflows beside the other approval settings. */
export function RulesEditor({ settings, editable }: { settings: Settings; editable: boolean }) {
  const { add } = useToasts();
  const users = useQuery('/api/users', { params: { query: { limit: 500 } } });
  const locations = useQuery('/api/benchmarking/data-composition/locations');
  const { name: locationName } = useBenchmarkingCatalog();
  const [rules, setRules] = useState<RuleInput[]>(() => toInput(settings));
  const [problem, setProblem] = useState<string | null>(null);
  const { save, busy } = useVersionedSave((ifMatch: string, body: { rules: RuleInput[] }) => api.PUT('/api/offers/approval-settings', { params: { header: { 'If-Match': ifMatch } }, body }));
  const people = (users.data?.data ?? []).filter((user) => user.status === 'active' && !user.isCandidate);
  const update = (index: number, change: Partial<RuleInput>) => setRules((current) => current.map((rule, position) => (position === index ? { ...rule, ...change } : rule)));

  async function submit() {
    const body = { rules: rules.map((rule) => ({ ...rule, department: rule.department || null, locationId: rule.locationId || null })) };
    const result = await save(settings.version, body);
    if (!result.ok) return setProblem(result.message);
    setProblem(null);
    await invalidate('/api/offers/approval-settings');
    add('success', 'The approval rules were saved.');
  }

  return (
    <form
      className="settings-form offer-builder-form"
      aria-label="Approval rules"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {rules.length === 0 && <p className="muted">No rule yet: offers out of band need no approval.</p>}
      {rules.map((rule, index) => (
        <fieldset key={rule.id ?? `new-${index}`} className="offer-alternative" disabled={!editable}>
          <legend>Rule {index + 1}</legend>
          <div className="offer-form-grid">
            <label>
              Department (empty: any)
              <input value={rule.department ?? ''} maxLength={200} onChange={(event) => update(index, { department: event.target.value })} />
            </label>
            <label>
              Location
              <select value={rule.locationId ?? ''} onChange={(event) => update(index, { locationId: event.target.value })}>
                <option value="">Any location</option>
                {locationChoices(locations.data?.data.locations ?? [], rule.locationId).map((id) => (
                  <option key={id} value={id}>
                    {locationName(id)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Approvals
              <select value={rule.mode} onChange={(event) => update(index, { mode: event.target.value === 'quorum' ? 'quorum' : 'ordered' })}>
                <option value="ordered">Every approver, in order</option>
                <option value="quorum">Any N of them</option>
              </select>
            </label>
            {rule.mode === 'quorum' && (
              <label>
                How many must approve
                <input type="number" min={1} max={rule.approverUserIds.length || 1} value={rule.requiredApprovals ?? rule.approverUserIds.length} onChange={(event) => update(index, { requiredApprovals: Number(event.target.value) })} />
              </label>
            )}
          </div>
          <label>
            Approvers (in order)
            <select
              multiple
              size={Math.min(6, Math.max(3, people.length))}
              value={rule.approverUserIds}
              onChange={(event) => update(index, { approverUserIds: Array.from(event.target.selectedOptions, (option) => option.value) })}
            >
              {people.map((user) => (
                <option key={user.id} value={user.id}>
                  {[user.firstName, user.lastName].filter(Boolean).join(' ') || user.email} ({user.email})
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="ghost small" onClick={() => setRules((current) => current.filter((_, position) => position !== index))}>
            <Trash2 size={16} aria-hidden="true" /> Remove rule {index + 1}
          </button>
        </fieldset>
      ))}
      <FormProblem message={problem} />
      {editable && (
        <div className="actions">
          <button type="button" onClick={() => setRules((current) => [...current, { department: null, locationId: null, mode: 'ordered', approverUserIds: [] }])}>
            <Plus size={16} aria-hidden="true" /> Add a rule
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Save the rules
          </button>
        </div>
      )}
    </form>
  );
}

/** /offers/approvals: who approves an offer that is out of band, per department or location (else the default rule). */
export function ApprovalsScreen() {
  const person = usePerson().data?.data;
  const settings = useQuery('/api/offers/approval-settings');
  return (
    <div className="offers">
      <PageHeader
        title="Offer approvals"
        icon={ShieldCheck}
        eyebrow={<Link href="/offers">Offers</Link>}
        description="An offer out of band goes to approvers: a rule for its department first, then one for its location, then the default rule (neither). With no matching rule, no approval is needed."
      />
      <Loaded data={settings.data?.data} error={settings.error} retry={() => void settings.mutate()}>
        {(data) => <RulesEditor key={data.version} settings={data} editable={can(person, 'offers', 'edit')} />}
      </Loaded>
    </div>
  );
}
