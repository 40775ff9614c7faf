import type { FormEvent } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { useVersionedSave } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { formatMajor, formatPrice } from '../../ui/format';
import { FullSizeSpinner } from '../../ui/Spinner';
import { useToasts } from '../../ui/Toasts';
import { CompanyStanding } from './CompanyStanding';
import { can } from './permissions';
import { StockExchangePicker } from './StockExchangePicker';

type CompanySettingsInput = components['schemas']['CompanySettingsInput'];

/** A valuation in whole units; a price per share with the digits it has. */
const money = (value: number | null, currency: string, digits: 0 | 6) => (value === null ? 'Not set' : digits === 0 ? formatMajor(value, currency) : formatPrice(value, currency));

/**
 * /settings/company-info: the company's currency, share price, valuation and strike price, and the
 * stock exchange it is listed on; and, read-only, its market participation, customer segments and
 * release flags.
 * Saving sends the version read (If-Match); if someone saved in between, nothing is overwritten and
 * what the person typed stays, with the server's word to reload.
 */
export function CompanyInfoScreen() {
  const person = usePerson().data?.data;
  const company = useQuery('/api/company');
  const settings = useQuery('/api/company/settings');
  const currencies = useQuery('/api/currencies');
  const { add } = useToasts();
  const { save, busy } = useVersionedSave((ifMatch, body: CompanySettingsInput) => api.PATCH('/api/company/settings', { params: { header: { 'If-Match': ifMatch } }, body }));
  const editable = can(person, 'companySettings', 'edit') && !person?.viewAs;
  const current = settings.data?.data;
  if (settings.error) return <p role="alert">{errorMessage(settings.error)}</p>;
  if (!current || !company.data) return <FullSizeSpinner loading label="Loading company settings" />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!current) return;
    const form = new FormData(event.currentTarget);
    const number = (name: string) => {
      const raw = String(form.get(name) ?? '').trim();
      return raw === '' ? null : Number(raw);
    };
    const result = await save(current.version, {
      currency: String(form.get('currency') ?? current.currency),
      sharePrice: number('sharePrice') ?? 0,
      valuation: number('valuation'),
      exercisePrice: number('exercisePrice'),
      stockExchange: String(form.get('stockExchange') ?? '') || null,
    });
    // A conflict keeps the form as the person left it; the server's message says to reload.
    if (!result.ok) return;
    await settings.mutate({ data: result.data.data }, { revalidate: false });
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
      <form className="card settings-form" onSubmit={(event) => void submit(event)} key={current.version}>
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
        <StockExchangePicker value={current.stockExchange} disabled={!editable} />
        {editable && (
          <button type="submit" className="primary" disabled={busy}>
            Save
          </button>
        )}
      </form>
      <CompanyStanding />
    </>
  );
}
