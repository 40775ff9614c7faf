import { type FormEvent, useState } from 'react';
import { api, useQuery } from '../../api/client';
import { useMutation, useVersionedSave } from '../../api/queries';
import { ConfirmDelete } from '../../ui/ConfirmDelete';
import { FormProblem } from '../../ui/FormProblem';
import { Empty, Loaded } from '../../ui/States';
import { formatDate, formatMoney, toMajorText, toMinor } from '../../ui/format';
import { useToasts } from '../../ui/Toasts';
import { type Employee, type Schemas, refreshPeople, today, words } from './common';
import { RowActions } from './RowActions';

type PayRecord = Schemas['CompensationRecord'];
type PayType = Schemas['PayComponentType'];
type Reason = NonNullable<Schemas['CompensationRecordInput']['reason']>;

const TYPES: PayType[] = ['base_salary', 'bonus_target', 'variable_pay', 'commission', 'benefits', 'one_off_bonus'];
const REASONS: Reason[] = ['hire', 'merit', 'promotion', 'adjustment'];
const FIELD_NAMES = { amount: 'Amount', effectiveDate: 'Effective', reason: 'Reason', type: 'Type' };

interface PayForm {
  type: PayType;
  amount: string;
  currency: string;
  effectiveDate: string;
  reason: string;
}

/** A dated pay record: type, amount in the employee's currency (typed in major units), date and reason. */
function PayRecordForm({ employee, record: opened, onDone }: { employee: Employee; record?: PayRecord; onDone: () => void }) {
  // The record as the person opened it: its version goes with the correction, whatever arrived since.
  const [record] = useState(opened);
  const [form, setForm] = useState<PayForm>(() => ({
    type: record?.type ?? 'base_salary',
    amount: record ? toMajorText(record.amount) : '',
    currency: record?.amount.currency ?? employee.currency,
    effectiveDate: record?.effectiveDate ?? today(),
    reason: record?.reason ?? 'adjustment',
  }));
  const [problem, setProblem] = useState<{ message: string; fields?: string[] } | null>(null);
  const { add } = useToasts();
  const adding = useMutation({ failure: 'problem', fieldNames: FIELD_NAMES });
  const correcting = useVersionedSave((ifMatch, body: Schemas['CompensationRecordCorrection']) =>
    api.PATCH('/api/employees/{employeeId}/compensation/{recordId}', { params: { path: { employeeId: employee.id, recordId: record?.id ?? '' }, header: { 'If-Match': ifMatch } }, body }),
  );
  const busy = adding.busy || correcting.busy;
  const set = <K extends keyof PayForm>(key: K, value: PayForm[K]) => setForm((current) => ({ ...current, [key]: value }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const minor = toMinor(form.amount, form.currency);
    if (minor === null || minor < 0) return setProblem({ message: `Enter the amount in ${form.currency}, e.g. 125,500.00.` });
    const amount = { amount: minor, currency: form.currency };
    const reason = (form.reason || null) as Reason | null;
    setProblem(null);
    if (record) {
      const result = await correcting.save(record.version, { amount, effectiveDate: form.effectiveDate, reason });
      if (!result.ok) return setProblem({ message: result.message });
      add('success', `The ${words(record.type).toLowerCase()} record is corrected: ${formatMoney(amount, { cents: true })}.`);
    } else {
      const result = await adding.run(() => api.POST('/api/employees/{employeeId}/compensation', { params: { path: { employeeId: employee.id } }, body: { type: form.type, amount, effectiveDate: form.effectiveDate, ...(reason ? { reason } : {}) } }));
      if (!result.ok) return setProblem(result.problem);
      add('success', `A ${words(form.type).toLowerCase()} record of ${formatMoney(amount, { cents: true })} from ${formatDate(form.effectiveDate)} is added.`);
    }
    await refreshPeople();
    onDone();
  }

  return (
    <form className="people-form people-inline" aria-label={record ? `Correct the ${words(record.type).toLowerCase()} record of ${formatDate(record.effectiveDate)}` : 'Add a pay record'} onSubmit={(event) => void submit(event)}>
      <div className="people-grid">
        <label>
          Type
          <select value={form.type} disabled={Boolean(record)} onChange={(event) => set('type', event.target.value as PayType)}>
            {TYPES.map((type) => (
              <option key={type} value={type}>
                {words(type)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Amount ({form.currency}, a year)
          <input inputMode="decimal" required value={form.amount} placeholder="125,500.00" onChange={(event) => set('amount', event.target.value)} />
        </label>
        <label>
          Effective
          <input type="date" required value={form.effectiveDate} onChange={(event) => set('effectiveDate', event.target.value)} />
        </label>
        <label>
          Reason
          <select value={form.reason} onChange={(event) => set('reason', event.target.value)}>
            <option value="">None</option>
            {[...REASONS, ...(record?.reason && !REASONS.includes(record.reason) ? [record.reason] : [])].map((reason) => (
              <option key={reason} value={reason}>
                {words(reason)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {problem && <FormProblem message={problem.message} fields={problem.fields} />}
      {correcting.conflict && <p className="small-text">Close this form to see the record as it is now, then correct it again.</p>}
      <div className="people-actions">
        <button type="submit" className="primary" disabled={busy}>
          {record ? 'Save the correction' : 'Add the record'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The employee's pay records, newest first: add one, correct one, delete one. */
export function PayRecords({ employee, editable }: { employee: Employee; editable: boolean }) {
  const records = useQuery('/api/employees/{employeeId}/compensation', { params: { path: { employeeId: employee.id } } });
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<PayRecord | null>(null);
  const { add } = useToasts();
  return (
    <section className="people-section" aria-labelledby="pay-records">
      <header className="people-head">
        <h3 id="pay-records">Pay records</h3>
        {editable && editing !== 'new' && (
          <button type="button" className="small" onClick={() => setEditing('new')}>
            Add a pay record
          </button>
        )}
      </header>
      {editing === 'new' && <PayRecordForm employee={employee} onDone={() => setEditing(null)} />}
      <Loaded data={records.data?.data} error={records.error} retry={() => void records.mutate()}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No pay records yet" headingLevel={3} compact />
          ) : (
            <ol className="people-list" aria-label="Pay history">
              {list.map((record) => (
                <li key={record.id}>
                  {editing === record.id ? (
                    <PayRecordForm employee={employee} record={record} onDone={() => setEditing(null)} />
                  ) : (
                    <>
                      <span className="people-date">{formatDate(record.effectiveDate)}</span>
                      <span>
                        <strong>{words(record.type)}</strong> {formatMoney(record.amount, { cents: true })}
                        {record.percentOfBase !== null && ` (${record.percentOfBase}% of base)`}
                        {record.reason && ` · ${words(record.reason)}`}
                        {record.effectiveDate > today() && ' · scheduled'}
                      </span>
                      {editable && (
                        <RowActions what={`the ${words(record.type).toLowerCase()} of ${formatDate(record.effectiveDate)}`} onCorrect={() => setEditing(record.id)} onDelete={() => setDeleting(record)} />
                      )}
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
          title={`Delete the ${words(deleting.type).toLowerCase()} of ${formatDate(deleting.effectiveDate)}?`}
          confirmLabel="Delete the record"
          call={() => api.DELETE('/api/employees/{employeeId}/compensation/{recordId}', { params: { path: { employeeId: employee.id, recordId: deleting.id } } })}
          onDeleted={async () => {
            add('success', 'The pay record is deleted; the history keeps what it said.');
            setDeleting(null);
            await refreshPeople();
          }}
          onClose={() => setDeleting(null)}
        >
          <p>
            {formatMoney(deleting.amount, { cents: true })} from {formatDate(deleting.effectiveDate)} leaves the pay history. Use this for a record entered by mistake; a pay change is a new record.
          </p>
        </ConfirmDelete>
      )}
    </section>
  );
}
