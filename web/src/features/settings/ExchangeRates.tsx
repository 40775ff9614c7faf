import { ArrowLeftRight } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { ConfirmDelete } from '../../ui/ConfirmDelete';
import { CurrencyOptions } from '../../ui/CurrencyOptions';
import { DataGrid } from '../../ui/DataGrid';
import { FormProblem } from '../../ui/FormProblem';
import { formatDate } from '../../ui/format';
import { PageHeader } from '../../ui/Page';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { can } from './permissions';
import './settings.css';

type Rate = components['schemas']['CompanyExchangeRate'];

const pair = (rate: Rate) => `${rate.base} → ${rate.quote}`;
const today = () => new Date().toISOString().slice(0, 10);

/** Setting a rate: a pair, how many of the quote currency one of the base buys, and from when. */
function AddRate({ companyCurrency, onAdded }: { companyCurrency: string; onAdded: () => Promise<unknown> }) {
  const { add } = useToasts();
  const { run, busy, problem } = useMutation({ failure: 'problem', fieldNames: { base: 'From currency', quote: 'To currency', rate: 'Rate', effectiveDate: 'From date', note: 'Note' } });
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const body = { base: text('base'), quote: text('quote'), rate: text('rate'), effectiveDate: text('effectiveDate'), note: text('note') };
    const result = await run(() => api.POST('/api/company/exchange-rates', { body }));
    if (!result.ok) return;
    const saved = result.data.data;
    add('success', `From ${formatDate(saved.effectiveDate)}, 1 ${saved.base} converts at ${saved.rate} ${saved.quote}.`);
    formElement.reset();
    await onAdded();
  }
  return (
    <form className="card settings-form exchange-rate-form" aria-labelledby="add-rate-heading" onSubmit={(event) => void submit(event)}>
      <h2 id="add-rate-heading">Set a rate</h2>
      <label>
        From currency
        <select name="base" defaultValue="EUR" required>
          <CurrencyOptions />
        </select>
      </label>
      <label>
        To currency
        <select name="quote" defaultValue={companyCurrency} required>
          <CurrencyOptions />
        </select>
      </label>
      <label>
        Rate (1 of the first in the second)
        <input name="rate" required inputMode="decimal" pattern="(0|[1-9][0-9]{0,11})(\.[0-9]{1,12})?" title="A positive number, e.g. 1.085" placeholder="1.085" autoComplete="off" />
      </label>
      <label>
        From date
        <input name="effectiveDate" type="date" required defaultValue={today()} />
      </label>
      <label>
        Note
        <input name="note" maxLength={1000} placeholder="e.g. our 2027 budget rate" autoComplete="off" />
      </label>
      <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
      <button type="submit" className="primary" disabled={busy}>
        Set rate
      </button>
    </form>
  );
}

/**
 * /settings/exchange-rates: the company's own exchange rates. From its date on, a rate the company
 * set is used for that pair wherever Paybench converts the company's money (the team view, bands,
 * planning, pay equity), in place of the ECB reference rate; removing it falls back to the reference.
 */
export function ExchangeRatesScreen() {
  const person = usePerson().data?.data;
  const rates = useQuery('/api/company/exchange-rates');
  const company = useQuery('/api/company');
  const { add } = useToasts();
  const [removing, setRemoving] = useState<Rate | null>(null);
  const editable = can(person, 'companySettings', 'edit') && !person?.viewAs;
  return (
    <>
      <PageHeader
        title="Exchange rates"
        icon={ArrowLeftRight}
        description="Your company's own rates. From its date on, a rate you set is used for that pair wherever Paybench converts your money, in place of the European Central Bank's reference rate."
      />
      {!editable && <p className="muted">You can read these rates; setting them needs the company settings edit permission.</p>}
      {editable && company.data && <AddRate companyCurrency={company.data.data.settings.currency} onAdded={() => rates.mutate()} />}
      <Loaded data={rates.data?.data} error={rates.error} retry={() => void rates.mutate()} label="Loading your exchange rates" inline>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No rates of your own" icon={ArrowLeftRight} compact>
              Every conversion uses the European Central Bank's reference rate of its day.
            </Empty>
          ) : (
            <DataGrid
              id="company-exchange-rates"
              label="Your exchange rates"
              rows={list}
              rowKey={(rate) => rate.id}
              rowName={pair}
              rowAttributes={(rate) => ({ 'data-rate': `${rate.base}-${rate.quote}-${rate.effectiveDate}` })}
              columns={[
                { key: 'pair', header: 'Pair', rowHeader: true, size: 140, value: pair, cell: pair },
                { key: 'rate', header: 'Rate', numeric: true, size: 140, value: (rate: Rate) => Number(rate.rate), cell: (rate: Rate) => rate.rate },
                { key: 'from', header: 'From', size: 150, value: (rate: Rate) => rate.effectiveDate, cell: (rate: Rate) => formatDate(rate.effectiveDate) },
                { key: 'note', header: 'Note', size: 260, value: (rate: Rate) => rate.note, title: (rate: Rate) => rate.note || undefined, cell: (rate: Rate) => rate.note || '—' },
                {
                  key: 'actions',
                  header: <span className="visually-hidden">Actions</span>,
                  label: 'Actions',
                  size: 180,
                  cell: (rate: Rate) =>
                    editable && (
                      <button type="button" className="small" onClick={() => setRemoving(rate)}>
                        Remove {pair(rate)} from {rate.effectiveDate}
                      </button>
                    ),
                },
              ]}
            />
          )
        }
      </Loaded>
      {removing && (
        <ConfirmDelete
          title={`Remove the ${pair(removing)} rate from ${formatDate(removing.effectiveDate)}?`}
          confirmLabel="Remove rate"
          call={() => api.DELETE('/api/company/exchange-rates/{exchangeRateId}', { params: { path: { exchangeRateId: removing.id } } })}
          onDeleted={async () => {
            add('success', `Removed the ${pair(removing)} rate; conversions from ${formatDate(removing.effectiveDate)} use your earlier rate or the reference rate.`);
            setRemoving(null);
            await rates.mutate();
          }}
          onClose={() => setRemoving(null)}
        >
          <p>Conversions of that pair from that date on go back to your earlier rate, if any, or else to the European Central Bank's reference rate.</p>
        </ConfirmDelete>
      )}
    </>
  );
}
