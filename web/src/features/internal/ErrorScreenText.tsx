import { type FormEvent } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { FormProblem } from '../../ui/FormProblem';
import { useToasts } from '../../ui/Toasts';

type Company = components['schemas']['AccountSummary'];

/**
 * The words a company's error screen shows instead of the error's own (the spec's remote override):
 * for an incident, so every member whose page fails reads what is going on. Clearing puts the
 * errors' own words back.
 */
export function ErrorScreenText({ company }: { company: Company }) {
  const path = { params: { path: { companyId: company.companyId } } };
  const current = useQuery('/api/internal/companies/{companyId}/error-screen', path);
  const { add } = useToasts();
  const { run, busy, problem } = useMutation({ failure: 'problem', fieldNames: { 'text.title': 'Error screen title', 'text.description': 'Error screen description' } });
  if (current.error) return <p role="alert">{errorMessage(current.error)}</p>;
  if (!current.data) return <p className="muted">Loading the error screen text…</p>;
  const text = current.data.data;
  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = { text: { title: String(form.get('title') ?? ''), description: String(form.get('description') ?? '') } };
    const result = await run(() => api.PUT('/api/internal/companies/{companyId}/error-screen', { ...path, body }));
    if (!result.ok) return;
    await current.mutate(result.data, { revalidate: false });
    add('success', `${company.companyName}'s error screen now says “${result.data.data?.title ?? ''}”.`);
  }
  async function clear() {
    const result = await run(() => api.PUT('/api/internal/companies/{companyId}/error-screen', { ...path, body: { text: null } }));
    if (!result.ok) return;
    await current.mutate(result.data, { revalidate: false });
    add('success', `${company.companyName}'s error screen shows each error's own words again.`);
  }
  return (
    <form className="stack-form" aria-labelledby="error-screen-heading" onSubmit={(event) => void save(event)} key={text ? `${text.title}\n${text.description}` : 'none'}>
      <h3 id="error-screen-heading">Error screen text</h3>
      <p className="muted small-text">Shown instead of the error’s own words when a page fails for any of the company’s members, e.g. during an incident.</p>
      <label>
        Error screen title
        <input name="title" required maxLength={120} defaultValue={text?.title ?? ''} />
      </label>
      <label>
        Error screen description
        <textarea name="description" required maxLength={1000} rows={3} defaultValue={text?.description ?? ''} />
      </label>
      <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          Set error screen text
        </button>
        {text && (
          <button type="button" onClick={() => void clear()} disabled={busy}>
            Clear error screen text
          </button>
        )}
      </div>
    </form>
  );
}
