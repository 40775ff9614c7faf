import type { FormEvent } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../api/client';
import { forgetAllAnswers, useMutation } from '../../api/queries';
import './entry.css';

/** The person changed (company, terms): drop every cached answer so screens load fresh ones. */
const forgetCachedAnswers = () => forgetAllAnswers({ refetch: true });

export function CreateCompanyScreen() {
  const [, navigate] = useLocation();
  const { run, busy } = useMutation();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = { name: String(form.get('name') ?? ''), currency: String(form.get('currency') ?? 'USD') };
    const result = await run(() => api.POST('/api/companies', { body }));
    if (!result.ok) return;
    await forgetCachedAnswers();
    navigate('/home');
  }
  return (
    <main className="entry">
      <form className="card entry-card" onSubmit={(event) => void submit(event)}>
        <h1>Create your company</h1>
        <label>
          Company name
          <input name="name" required maxLength={200} autoComplete="organization" />
        </label>
        <label>
          Currency
          <input name="currency" required pattern="[A-Z]{3}" defaultValue="USD" maxLength={3} />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          Create company
        </button>
      </form>
    </main>
  );
}

export function TermsScreen() {
  const [, navigate] = useLocation();
  async function accept() {
    await api.POST('/api/me/terms-of-use');
    await forgetCachedAnswers();
    navigate('/home');
  }
  return (
    <main className="entry">
      <div className="card entry-card">
        <h1>Terms of use</h1>
        <p>
          Paybench handles your company’s pay data. Please read the <a href="/legal/terms.html">terms and conditions</a> before you
          continue.
        </p>
        <button type="button" className="primary" onClick={() => void accept()}>
          I accept the terms of use
        </button>
      </div>
    </main>
  );
}
