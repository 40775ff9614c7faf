import { useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { useToasts } from '../../ui/Toasts';

type Features = components['schemas']['DataLabFeatures'];
type Feature = keyof Features;

export const FEATURE_TEXT: Record<Feature, string> = {
  insights: 'Insights and bookmarks',
  agent: 'The insights agent',
  pulseSurveys: 'Pulse surveys',
};

const FEATURES: Feature[] = ['insights', 'agent', 'pulseSurveys'];

/** The internal tools' switches for what a company's data-lab subscription includes. */
export function DataLabSubscriptionControl({ companyId, companyName }: { companyId: string; companyName: string }) {
  const subscription = useQuery('/api/internal/companies/{companyId}/data-lab-subscription', { params: { path: { companyId } } });
  const { add } = useToasts();
  const [busy, setBusy] = useState<Feature | null>(null);
  const [pending, setPending] = useState<Partial<Features>>({});
  const current = subscription.data?.data.features;
  async function set(feature: Feature, enabled: boolean) {
    if (!current) return;
    setBusy(feature);
    setPending((was) => ({ ...was, [feature]: enabled }));
    const { error } = await api.PUT('/api/internal/companies/{companyId}/data-lab-subscription', {
      params: { path: { companyId } },
      body: { ...current, [feature]: enabled },
    });
    setBusy(null);
    if (error) {
      setPending((was) => ({ ...was, [feature]: undefined }));
      return add('error', errorMessage(error));
    }
    add('success', `${FEATURE_TEXT[feature]} ${enabled ? 'now part' : 'no longer part'} of ${companyName}’s data-lab subscription.`);
    await subscription.mutate();
    setPending((was) => ({ ...was, [feature]: undefined }));
  }
  if (subscription.error) return <p role="alert">{errorMessage(subscription.error)}</p>;
  if (!current) return <p className="muted">Loading the data-lab subscription…</p>;
  return (
    <fieldset className="flags">
      <legend>Data-lab subscription</legend>
      <ul>
        {FEATURES.map((feature) => (
          <li key={feature}>
            <label className="switch">
              <input type="checkbox" role="switch" checked={pending[feature] ?? current[feature]} aria-busy={busy === feature} onChange={(event) => void set(feature, event.target.checked)} />
              <span>{FEATURE_TEXT[feature]}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
