import { type FormEvent, useState } from 'react';
import { api, useQuery } from '../../api/client';
import { useMutation, useVersionedSave } from '../../api/queries';
import { ConfirmDelete } from '../../ui/ConfirmDelete';
import { FormProblem } from '../../ui/FormProblem';
import { Empty, Loaded } from '../../ui/States';
import { formatDate, formatMoney, formatNumber, toMajorText, toMinor } from '../../ui/format';
import { useToasts } from '../../ui/Toasts';
import { type Employee, type Schemas, refreshPeople, today, words } from './common';
import { RowActions } from './RowActions';

type Grant = Schemas['EquityGrant'];
type GrantType = Schemas['EquityGrantType'];
type Frequency = Schemas['VestingFrequency'];
type GrantReason = NonNullable<Schemas['EquityGrantInput']['reason']>;

const GRANT_TYPES: GrantType[] = ['option', 'rsu', 'rsa', 'common_stock'];
const GRANT_NAMES: Record<GrantType, string> = { option: 'Stock options', rsu: 'RSUs', rsa: 'Restricted stock', common_stock: 'Common stock' };
const FREQUENCIES: Frequency[] = ['monthly', 'quarterly', 'annually'];
const REASONS: GrantReason[] = ['new_hire', 'refresher', 'promotion', 'performance', 'other'];
const FIELD_NAMES = { shares: 'Shares', exercisePrice: 'Exercise price', grantDate: 'Grant date', vestingStartDate: 'Vesting from', vestingMonths: 'Vesting months', cliffMonths: 'Cliff months', grantNumber: 'Grant number' };

interface GrantForm {
  grantNumber: string;
  grantType: GrantType;
  reason: GrantReason;
  shares: string;
  exercisePrice: string;
  grantDate: string;
  vestingStartDate: string;
  vestingMonths: string;
  cliffMonths: string;
  vestingFrequency: Frequency;
}

const formOf = (grant: Grant | undefined): GrantForm => ({
  grantNumber: grant?.grantNumber ?? '',
  grantType: grant?.grantType ?? 'option',
  reason: grant?.reason ?? 'new_hire',
  shares: grant ? String(grant.shares) : '',
  exercisePrice: grant?.exercisePrice ? toMajorText(grant.exercisePrice) : '',
  grantDate: grant?.grantDate ?? today(),
  vestingStartDate: grant?.vestingStartDate ?? '',
  vestingMonths: String(grant?.vestingMonths ?? 48),
  cliffMonths: String(grant?.cliffMonths ?? 12),
  vestingFrequency: grant?.vestingFrequency ?? 'monthly',
});

/** A grant: type, shares or units, exercise price (options), grant date and the vesting schedule with its cliff. */
function GrantEditor({ employee, grant: opened, shareCurrency, onDone }: { employee: Employee; grant?: Grant; shareCurrency: string; onDone: () => void }) {
  // The grant as the person opened it: its version goes with the correction.
  const [grant] = useState(opened);
  const [form, setForm] = useState<GrantForm>(() => formOf(grant));
  const [problem, setProblem] = useState<{ message: string; fields?: string[] } | null>(null);
  const { add } = useToasts();
  const creating = useMutation({ failure: 'problem', fieldNames: FIELD_NAMES });
  const changing = useVersionedSave((ifMatch, body: Schemas['EquityGrantUpdate']) =>
    api.PATCH('/api/employees/{employeeId}/equity-grants/{grantId}', { params: { path: { employeeId: employee.id, grantId: grant?.id ?? '' }, header: { 'If-Match': ifMatch } }, body }),
  );
  const currency = grant?.currency ?? shareCurrency;
  const set = <K extends keyof GrantForm>(key: K, value: GrantForm[K]) => setForm((current) => ({ ...current, [key]: value }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const shares = Number(form.shares.replace(/[,\s]/g, ''));
    if (!Number.isInteger(shares) || shares <= 0) return setProblem({ message: 'Enter the number of shares or units, a whole number.' });
    const price = form.grantType === 'option' && form.exercisePrice.trim() ? toMinor(form.exercisePrice, currency) : null;
    if (form.grantType === 'option' && form.exercisePrice.trim() && price === null) return setProblem({ message: `Enter the exercise price in ${currency}.` });
    const body = {
      ...(form.grantNumber.trim() ? { grantNumber: form.grantNumber.trim() } : {}),
      grantType: form.grantType,
      reason: form.reason,
      shares,
      // An option without a price takes the company's current strike.
      ...(form.grantType !== 'option' ? { exercisePrice: null } : price !== null ? { exercisePrice: { amount: price, currency } } : {}),
      grantDate: form.grantDate,
      ...(form.vestingStartDate ? { vestingStartDate: form.vestingStartDate } : {}),
      vestingMonths: Number(form.vestingMonths),
      cliffMonths: Number(form.cliffMonths),
      vestingFrequency: form.vestingFrequency,
    };
    setProblem(null);
    if (grant) {
      const result = await changing.save(grant.version, body);
      if (!result.ok) return setProblem({ message: result.message });
      add('success', `Grant ${grant.grantNumber} is corrected.`);
    } else {
      const result = await creating.run(() => api.POST('/api/employees/{employeeId}/equity-grants', { params: { path: { employeeId: employee.id } }, body }));
      if (!result.ok) return setProblem(result.problem);
      add('success', `Grant ${result.data.data.grantNumber} of ${formatNumber(shares)} ${GRANT_NAMES[form.grantType].toLowerCase()} is added.`);
    }
    await refreshPeople();
    onDone();
  }

  return (
    <form className="people-form people-inline" aria-label={grant ? `Correct grant ${grant.grantNumber}` : 'Add an equity grant'} onSubmit={(event) => void submit(event)}>
      <div className="people-grid">
        <label>
          Type
          <select value={form.grantType} onChange={(event) => set('grantType', event.target.value as GrantType)}>
            {GRANT_TYPES.map((type) => (
              <option key={type} value={type}>
                {GRANT_NAMES[type]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Shares or units
          <input inputMode="numeric" required value={form.shares} onChange={(event) => set('shares', event.target.value)} />
        </label>
        {form.grantType === 'option' && (
          <label>
            Exercise price ({currency} a share)
            <input inputMode="decimal" value={form.exercisePrice} placeholder="The company's current strike" onChange={(event) => set('exercisePrice', event.target.value)} />
          </label>
        )}
        <label>
          Grant date
          <input type="date" required value={form.grantDate} onChange={(event) => set('grantDate', event.target.value)} />
        </label>
        <label>
          Vesting from
          <input type="date" value={form.vestingStartDate} onChange={(event) => set('vestingStartDate', event.target.value)} />
          <span className="muted small-text">Empty: the grant date.</span>
        </label>
        <label>
          Vesting months
          <input type="number" min={0} max={240} required value={form.vestingMonths} onChange={(event) => set('vestingMonths', event.target.value)} />
        </label>
        <label>
          Cliff months
          <input type="number" min={0} max={240} required value={form.cliffMonths} onChange={(event) => set('cliffMonths', event.target.value)} />
        </label>
        <label>
          Vests
          <select value={form.vestingFrequency} onChange={(event) => set('vestingFrequency', event.target.value as Frequency)}>
            {FREQUENCIES.map((frequency) => (
              <option key={frequency} value={frequency}>
                {words(frequency)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Reason
          <select value={form.reason} onChange={(event) => set('reason', event.target.value as GrantReason)}>
            {REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {words(reason)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Grant number
          <input value={form.grantNumber} maxLength={64} placeholder="Generated when empty" onChange={(event) => set('grantNumber', event.target.value)} />
        </label>
      </div>
      {problem && <FormProblem message={problem.message} fields={problem.fields} />}
      <div className="people-actions">
        <button type="submit" className="primary" disabled={creating.busy || changing.busy}>
          {grant ? 'Save the correction' : 'Add the grant'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The employee's equity grants with their vesting today: add one, correct one, delete one. */
export function Grants({ employee, editable }: { employee: Employee; editable: boolean }) {
  const grants = useQuery('/api/employees/{employeeId}/equity-grants', { params: { path: { employeeId: employee.id } } });
  const company = useQuery('/api/company/settings');
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Grant | null>(null);
  const { add } = useToasts();
  const shareCurrency = company.data?.data.currency ?? employee.currency;
  return (
    <section className="people-section" aria-labelledby="equity-grants">
      <header className="people-head">
        <h3 id="equity-grants">Equity grants</h3>
        {editable && editing !== 'new' && (
          <button type="button" className="small" onClick={() => setEditing('new')}>
            Add a grant
          </button>
        )}
      </header>
      {editing === 'new' && <GrantEditor employee={employee} shareCurrency={shareCurrency} onDone={() => setEditing(null)} />}
      <Loaded data={grants.data?.data} error={grants.error} retry={() => void grants.mutate()}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No equity grants" headingLevel={3} compact />
          ) : (
            <ol className="people-list" aria-label="Grants">
              {list.map((grant) => (
                <li key={grant.id}>
                  {editing === grant.id ? (
                    <GrantEditor employee={employee} grant={grant} shareCurrency={shareCurrency} onDone={() => setEditing(null)} />
                  ) : (
                    <>
                      <span className="people-date">{formatDate(grant.grantDate)}</span>
                      <span>
                        <strong>
                          {GRANT_NAMES[grant.grantType]} {grant.grantNumber}
                        </strong>{' '}
                        {formatNumber(grant.shares)}
                        {grant.exercisePrice && ` at ${formatMoney(grant.exercisePrice, { cents: true })}`} · {grant.vestingMonths} months, {grant.cliffMonths}-month cliff, {grant.vestingFrequency} ·{' '}
                        {formatNumber(grant.vesting.vestedShares)} vested today
                      </span>
                      {editable && <RowActions what={`grant ${grant.grantNumber}`} onCorrect={() => setEditing(grant.id)} onDelete={() => setDeleting(grant)} />}
                    </>
                  )}
                </li>
              ))}
            </ol>
          )
        }
      </Loaded>
      {deleting && (
        <ConfirmDelete
          title={`Delete grant ${deleting.grantNumber}?`}
          confirmLabel="Delete the grant"
          call={() => api.DELETE('/api/employees/{employeeId}/equity-grants/{grantId}', { params: { path: { employeeId: employee.id, grantId: deleting.id } } })}
          onDeleted={async () => {
            add('success', `Grant ${deleting.grantNumber} is deleted; the history keeps what it said.`);
            setDeleting(null);
            await refreshPeople();
          }}
          onClose={() => setDeleting(null)}
        >
          <p>
            {formatNumber(deleting.shares)} {GRANT_NAMES[deleting.grantType].toLowerCase()} granted {formatDate(deleting.grantDate)} leave the record and its vesting. Use this for a grant entered by mistake.
          </p>
        </ConfirmDelete>
      )}
    </section>
  );
}
