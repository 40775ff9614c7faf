import { type FormEvent, useId, useState } from 'react';
import { type MutationCall, useMutation } from '../../api/queries';
import { FormProblem } from '../../ui/FormProblem';

/** A response's call: the contract's answer, or its refusal (shown in the form in the server's words). */
export type Respond = (text: string) => ReturnType<MutationCall<unknown>>;

const CHANGED = 'The offer changed since you opened it. Reload the page to read the new version.';

/**
 * Accepting: the candidate types their full name as their signature; the time and the exact
 * version of the letter are recorded with it by the server.
 */
export function AcceptForm({ packageLabel, onAccept }: { packageLabel: string; onAccept: Respond }) {
  const id = useId();
  const [name, setName] = useState('');
  const { run, busy, problem } = useMutation({ failure: 'problem', fallback: (status) => (status === 409 ? CHANGED : undefined) });
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await run(() => onAccept(name.trim()));
  }
  return (
    <form className="offer-respond settings-form" aria-labelledby={`${id}-heading`} onSubmit={(event) => void submit(event)}>
      <h3 id={`${id}-heading`}>Accept this offer</h3>
      <p>
        You are accepting <strong>{packageLabel}</strong>. Type your full name to sign; the date and time and this version of the letter are recorded with your signature.
      </p>
      <label>
        Your full name
        <input name="typedName" required maxLength={200} autoComplete="name" value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || !name.trim()}>
          {busy ? 'Accepting…' : 'Accept and sign'}
        </button>
      </div>
    </form>
  );
}

/** Declining, with a reason the recruiter reads. */
export function DeclineForm({ onDecline, onCancel }: { onDecline: Respond; onCancel?: () => void }) {
  const id = useId();
  const [reason, setReason] = useState('');
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await run(() => onDecline(reason.trim()));
  }
  return (
    <form className="offer-respond settings-form" aria-labelledby={`${id}-heading`} onSubmit={(event) => void submit(event)}>
      <h3 id={`${id}-heading`}>Decline this offer</h3>
      <label>
        Why are you declining?
        <textarea name="reason" required maxLength={2000} rows={3} value={reason} onChange={(event) => setReason(event.target.value)} />
      </label>
      <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
      <div className="actions">
        <button type="submit" className="danger" disabled={busy || !reason.trim()}>
          {busy ? 'Declining…' : 'Decline the offer'}
        </button>
        {onCancel && (
          <button type="button" className="ghost" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
