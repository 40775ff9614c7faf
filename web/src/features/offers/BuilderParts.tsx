import { Trash2 } from 'lucide-react';
import { type FormEvent } from 'react';
import { api } from '../../api/client';
import { invalidate, useMutation } from '../../api/queries';
import { FormProblem } from '../../ui/FormProblem';
import { Modal } from '../../ui/Modal';
import { useCompTypes } from '../../api/compTypes';
import { type GrantChoice, type Frequency, type PackageForm } from './builderForm';

// Parts of the offer builder: one package's fields and adding a candidate on the spot.

export function PackageFields({ form, onChange, legend, removable, onRemove }: { form: PackageForm; onChange: (next: PackageForm) => void; legend: string; removable?: boolean; onRemove?: () => void }) {
  const compTypes = useCompTypes();
  const set = <K extends keyof PackageForm>(key: K, value: PackageForm[K]) => onChange({ ...form, [key]: value });
  return (
    <fieldset className={removable ? 'offer-alternative' : undefined}>
      <legend>{legend}</legend>
      {removable && (
        <label>
          Name of this package
          <input value={form.label} required maxLength={120} onChange={(event) => set('label', event.target.value)} />
        </label>
      )}
      <div className="offer-form-grid">
        <label>
          Base salary (a year)
          <input inputMode="decimal" required value={form.base} onChange={(event) => set('base', event.target.value)} />
        </label>
        <label>
          {compTypes.label('bonus_target', 'Bonus target')} (% of base)
          <input inputMode="decimal" value={form.bonusTargetPercent} onChange={(event) => set('bonusTargetPercent', event.target.value)} />
        </label>
        <label>
          Variable pay (a year)
          <input inputMode="decimal" value={form.variable} onChange={(event) => set('variable', event.target.value)} />
        </label>
        <label>
          Sign-on bonus
          <input inputMode="decimal" value={form.signOn} onChange={(event) => set('signOn', event.target.value)} />
        </label>
        <label>
          Equity
          <select value={form.grantType} onChange={(event) => set('grantType', event.target.value as GrantChoice)}>
            <option value="">None</option>
            <option value="option">Stock options</option>
            <option value="rsu">RSUs</option>
          </select>
        </label>
        {form.grantType && (
          <>
            <label>
              Shares
              <input inputMode="numeric" value={form.shares} onChange={(event) => set('shares', event.target.value)} />
            </label>
            {form.grantType === 'option' && (
              <label>
                Strike price per share
                <input inputMode="decimal" value={form.strikePrice} placeholder="Latest fair market value" onChange={(event) => set('strikePrice', event.target.value)} />
              </label>
            )}
            <label>
              Vesting (months)
              <input inputMode="numeric" value={form.vestingMonths} onChange={(event) => set('vestingMonths', event.target.value)} />
            </label>
            <label>
              Cliff (months)
              <input inputMode="numeric" value={form.cliffMonths} onChange={(event) => set('cliffMonths', event.target.value)} />
            </label>
            <label>
              Vests
              <select value={form.frequency} onChange={(event) => set('frequency', event.target.value as Frequency)}>
                <option value="monthly">Monthly</option>
                <option value="quarterly">Quarterly</option>
                <option value="annually">Annually</option>
              </select>
            </label>
          </>
        )}
      </div>
      {removable && onRemove && (
        <button type="button" className="ghost small" onClick={onRemove}>
          <Trash2 size={16} aria-hidden="true" /> Remove {form.label || 'this package'}
        </button>
      )}
    </fieldset>
  );
}

/** A new candidate, added from the builder. */
export function AddCandidate({ onClose, onAdded }: { onClose: () => void; onAdded: (id: string) => void }) {
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const answer = await run(() =>
      api.POST('/api/candidates', {
        body: { email: String(form.get('email') ?? ''), firstName: String(form.get('firstName') ?? ''), lastName: String(form.get('lastName') ?? ''), title: String(form.get('title') ?? '') },
      }),
    );
    if (!answer.ok) return;
    await invalidate('/api/candidates');
    onAdded(answer.data.data.id);
  }
  return (
    <Modal title="Add a candidate" onClose={onClose}>
      <form className="settings-form" onSubmit={(event) => void submit(event)}>
        <label>
          First name
          <input name="firstName" required maxLength={200} autoComplete="off" />
        </label>
        <label>
          Last name
          <input name="lastName" required maxLength={200} autoComplete="off" />
        </label>
        <label>
          E-mail
          <input name="email" type="email" required maxLength={320} autoComplete="off" />
        </label>
        <label>
          Role considered for
          <input name="title" maxLength={200} autoComplete="off" />
        </label>
        <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Add the candidate
          </button>
          <button type="button" className="ghost" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
