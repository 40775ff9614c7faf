import { type FormEvent, useState } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { FullSizeSpinner } from '../../ui/Spinner';
import { useToasts } from '../../ui/Toasts';
import { can } from './permissions';

const money = (value: number | null, currency: string, digits = 2) =>
  value === null ? 'Not set' : new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: digits }).format(value);

/**
 * /settings/company-info: the company's currency, share price, valuation and strike price.
 * Saving sends the version read (If-Match); if someone saved in between, nothing is overwritten.
 */
export function CompanyInfoScreen() {
  const person = usePerson().data?.data;
  const company = useQuery('/api/company');
  const settings = useQuery('/api/company/settings');
  const currencies = useQuery('/api/currencies');
  const { add } = useToasts();
  const [busy, setBusy] = useState(false);
  const editable = can(person, 'companySettings', 'edit') && !person?.viewAs;
  const current = settings.data?.data;
  if (settings.error) return <p role="alert">{errorMessage(settings.error)}</p>;
  if (!current || !company.data) return <FullSizeSpinner loading label="Loading company settings" />;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!current) return;
    const form = new FormData(event.currentTarget);
    const number = (name: string) => {
      const raw = String(form.get(name) ?? '').trim();
      return raw === '' ? null : Number(raw);
    };
    setBusy(true);
    const { data, error } = await api.PATCH('/api/company/settings', {
      params: { header: { 'If-Match': `"${current.version}"` } },
      body: {
        currency: String(form.get('currency') ?? current.currency),
        sharePrice: number('sharePrice') ?? 0,
        valuation: number('valuation'),
        exercisePrice: number('exercisePrice'),
      },
    });
    setBusy(false);
    if (error) {
      if (error.status === 409 || error.status === 412) {
        add('warning', 'Someone else changed these settings since you opened them. Their values are shown now; please make your change again.');
        await settings.mutate();
        return;
      }
      return add('error', errorMessage(error));
    }
    await settings.mutate({ data: data.data }, { revalidate: false });
    add('success', 'Company settings saved.');
  }

  const info = company.data.data;
  return (
    <>
      <h1>Company info</h1>
      <section className="card" aria-labelledby="company-heading">
        <h2 id="company-heading">{info.name}</h2>
        <dl>
          <dt>Company key</dt>
          <dd>{info.key}</dd>
          <dt>Domains</dt>
          <dd>{info.domains.join(', ') || 'None'}</dd>
        </dl>
      </section>
      <form className="card settings-form" onSubmit={(event) => void save(event)} key={current.version}>
        <h2>Currency, share price and valuation</h2>
        {!editable && <p className="muted">You can read these settings; changing them needs the company settings edit permission.</p>}
        <label>
          Currency
          <select name="currency" defaultValue={current.currency} disabled={!editable}>
            {(currencies.data?.data ?? [{ code: current.currency, name: current.currency }]).map((currency) => (
              <option key={currency.code} value={currency.code}>
                {currency.code} — {currency.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Share price ({current.currency} per share)
          <input name="sharePrice" type="number" inputMode="decimal" min={0} max={1000000} step="0.000001" defaultValue={current.sharePrice} disabled={!editable} />
        </label>
        <label>
          Valuation ({current.currency})
          <input name="valuation" type="number" inputMode="decimal" min={0} step="any" defaultValue={current.valuation ?? ''} disabled={!editable} placeholder="Not set" />
        </label>
        <label>
          Strike price for new options ({current.currency} per share)
          <input name="exercisePrice" type="number" inputMode="decimal" min={0} max={1000000} step="0.000001" defaultValue={current.exercisePrice ?? ''} disabled={!editable} placeholder="Not set" />
        </label>
        <p className="muted small-text">
          Now: {money(current.sharePrice, current.currency, 6)} a share · valuation {money(current.valuation, current.currency, 0)} · strike {money(current.exercisePrice, current.currency, 6)} · version{' '}
          {current.version}
        </p>
        {editable && (
          <button type="submit" className="primary" disabled={busy}>
            Save
          </button>
        )}
      </form>
    </>
  );
}
