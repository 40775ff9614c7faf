import { type FormEvent, useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { FormProblem } from '../../ui/FormProblem';
import { PageHeader } from '../../ui/Page';
import { FullSizeSpinner } from '../../ui/Spinner';
import { can } from '../settings/permissions';
import { BenchmarkingFrame } from './Frame';
import './benchmarking.css';

type PremiumPlan = components['schemas']['PremiumPlan'];

const PLANS: { plan: PremiumPlan; label: string; hint: string }[] = [
  { plan: 'premium_annual', label: 'Yearly', hint: 'One invoice a year.' },
  { plan: 'premium_monthly', label: 'Monthly', hint: 'One invoice a month.' },
];

const date = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

/** After a request: what happens next, in plain words. */
function InvoiceRequested({ reference, invoiceTo, requestedAt }: { reference: string; invoiceTo: string; requestedAt: string }) {
  return (
    <section className="card" role="status" aria-labelledby="premium-requested">
      <h2 id="premium-requested">Premium benchmarking requested</h2>
      <p>
        We have recorded your request; Paybench will send an invoice to <strong>{invoiceTo}</strong>. Premium views are switched on for your company once the invoice is paid. No card is charged
        here.
      </p>
      <p className="muted">
        Reference {reference}, asked on {date(requestedAt)}.
      </p>
    </section>
  );
}

/** /benchmarkingsurvey/premium: what the premium views add, and asking for them (a checkout session with this deployment's payment provider). */
export function PremiumScreen() {
  const person = usePerson().data?.data;
  const filters = useQuery('/api/benchmarking/filters');
  const state = useQuery('/api/benchmarking/premium');
  const [plan, setPlan] = useState<PremiumPlan>('premium_annual');
  const { run, busy, problem, setProblem } = useMutation({ failure: 'problem' });
  const views = filters.data?.data.equityViewOptions.filter((view) => view.isPremium) ?? [];

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    // Busy until the page leaves for the provider's checkout, or until the request shows here.
    const result = await run(async () => {
      const answer = await api.POST('/api/benchmarking/checkout-session', { body: { plan } });
      if (answer.data && answer.data.data.kind !== 'redirect') await state.mutate();
      return answer;
    }, { hold: (answer) => (answer.data.kind === 'redirect' ? 'leaving' : undefined) });
    if (result.ok && result.data.data.kind === 'redirect') window.location.assign(result.data.data.url);
  }

  if (state.error) {
    return (
      <BenchmarkingFrame>
        <PageHeader title="Premium market data" />
        <p role="alert">{errorMessage(state.error)}</p>
      </BenchmarkingFrame>
    );
  }
  if (!state.data) return <FullSizeSpinner loading />;
  const current = state.data.data;
  return (
    <BenchmarkingFrame>
      <PageHeader title="Premium market data" description="Premium views add equity as a percent of the company and other analyses for companies that benchmark equity closely." />
      {views.length > 0 && (
        <section className="card" aria-labelledby="premium-views">
          <h2 id="premium-views">What premium adds</h2>
          <ul>
            {views.map((view) => (
              <li key={view.value}>
                <strong>{view.label}</strong>: {view.description}
              </li>
            ))}
          </ul>
        </section>
      )}
      {current.premium ? (
        <section className="card" role="status">
          <h2>Your company has premium benchmarking</h2>
          <p>Premium views are on for everyone in your company with benchmarking access{current.since ? `, since ${date(current.since)}` : ''}.</p>
        </section>
      ) : current.openRequest ? (
        <InvoiceRequested reference={current.openRequest.reference} invoiceTo={current.openRequest.invoiceTo} requestedAt={current.openRequest.requestedAt} />
      ) : can(person, 'benchmarking', 'edit') ? (
        <form className="card" onSubmit={(event) => void submit(event)} aria-labelledby="premium-buy">
          <h2 id="premium-buy">Get premium benchmarking</h2>
          <fieldset>
            <legend>Billing</legend>
            {PLANS.map((option) => (
              <label key={option.plan}>
                <input type="radio" name="plan" value={option.plan} checked={plan === option.plan} onChange={() => setPlan(option.plan)} /> {option.label} <span className="muted">{option.hint}</span>
              </label>
            ))}
          </fieldset>
          <p className="muted">Paybench sends an invoice to {person?.email ?? 'your e-mail'}; premium is switched on once it is paid.</p>
          <FormProblem message={problem?.message ?? null} />
          <button type="submit" className="primary" disabled={busy} aria-busy={busy}>
            Request an invoice
          </button>
        </form>
      ) : (
        <section className="card">
          <p>Ask someone in your company who can change benchmarking settings to request premium benchmarking.</p>
        </section>
      )}
    </BenchmarkingFrame>
  );
}
