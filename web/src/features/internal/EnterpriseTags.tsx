import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { useToasts } from '../../ui/Toasts';

type Company = components['schemas']['AccountSummary'];
type Tag = components['schemas']['EnterpriseTag'];
type FlagName = components['schemas']['ReleaseFlagName'];

export const TAG_TEXT: Record<Tag, { label: string; description: string }> = {
  admin_saas_customers: { label: 'Admin SaaS customer', description: 'The compensation-management suite' },
  pricing_packaging_customer: { label: 'Pricing and packaging customer', description: 'Salary bands and market pricing' },
};

/** A release flag in words (lower case, to sit inside a sentence). */
export const FLAG_WORDS: Record<FlagName, string> = {
  benchmarking: 'benchmarking',
  compensation_planning: 'compensation planning',
  total_rewards: 'total rewards',
  offer_letters: 'offer letters',
  team_view: 'team view',
  bands: 'salary bands',
  market_pricing: 'market pricing',
  budgets: 'budgets',
  release_job_manager_page: 'background jobs page',
  multiplayer: 'live updates',
  help_desk: 'help-desk chat',
  pay_equity: 'pay equity',
};

/**
 * A company's customer segments. Ticking one switches on the release flags it ties (named beside
 * it); unticking switches them off unless another ticked segment ties them too.
 */
export function EnterpriseTags({ company }: { company: Company }) {
  const path = { params: { path: { companyId: company.companyId } } };
  const tags = useQuery('/api/internal/companies/{companyId}/enterprise-tags', path);
  const { add } = useToasts();
  const { run, busy } = useMutation();
  if (tags.error) return <p role="alert">{errorMessage(tags.error)}</p>;
  if (!tags.data) return <p className="muted">Loading customer segments…</p>;
  const current = tags.data.data;
  async function toggle(tag: Tag, on: boolean) {
    const next = on ? [...current.tags, tag] : current.tags.filter((t) => t !== tag);
    const result = await run(() => api.PUT('/api/internal/companies/{companyId}/enterprise-tags', { ...path, body: { tags: next } }), {
      invalidates: (p) => p === '/api/internal/companies/{companyId}/enterprise-tags' || p === '/api/internal/companies/{companyId}/release-flags',
    });
    if (result.ok) add('success', `${company.companyName} is ${on ? 'now' : 'no longer'} tagged ${TAG_TEXT[tag].label}; its release flags follow.`);
  }
  return (
    <fieldset className="flags" aria-busy={busy}>
      <legend>Customer segments</legend>
      <ul>
        {current.segmentFlags.map(({ tag, flags }) => (
          <li key={tag}>
            <label className="switch">
              <input type="checkbox" checked={current.tags.includes(tag)} disabled={busy} onChange={(event) => void toggle(tag, event.target.checked)} />
              <span>
                {TAG_TEXT[tag].label}
                <span className="muted small-text"> — {TAG_TEXT[tag].description}: switches on {flags.map((f) => FLAG_WORDS[f]).join(', ')}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
