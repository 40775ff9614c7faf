import { type FormEvent, useEffect, useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { invalidate, useVersionedSave } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { FullSizeSpinner } from '../../ui/Spinner';
import { useToasts } from '../../ui/Toasts';
import { can } from './permissions';
import './settings.css';

type CompType = components['schemas']['CompType'];
type Draft = Record<string, { title: string; isDisabled: boolean }>;

const draftOf = (types: CompType[]): Draft => Object.fromEntries(types.map((type) => [type.id, { title: type.title, isDisabled: type.isDisabled }]));

/**
 * /settings/comp-types: which compensation types the company uses and what it calls them. The team
 * view, total rewards, offers and planning show the titles and leave switched-off types out.
 * Saving sends the version read (If-Match); someone else's newer save is refused, never overwritten.
 */
export function CompTypesScreen() {
  const person = usePerson().data?.data;
  const settings = useQuery('/api/company/comp-types');
  const { add } = useToasts();
  const { save, busy } = useVersionedSave((ifMatch, body: { types: components['schemas']['CompTypeInput'][] }) => api.PUT('/api/company/comp-types', { params: { header: { 'If-Match': ifMatch } }, body }));
  const editable = can(person, 'companySettings', 'edit') && !person?.viewAs;
  const current = settings.data?.data;
  const [draft, setDraft] = useState<Draft>({});
  useEffect(() => {
    if (current) setDraft(draftOf(current.types));
  }, [current]);
  if (settings.error) return <p role="alert">{errorMessage(settings.error)}</p>;
  if (!current) return <FullSizeSpinner loading label="Loading the compensation types" />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!current) return;
    const types = current.types.flatMap((type) => {
      const next = draft[type.id];
      if (!next || (next.title.trim() === type.title && next.isDisabled === type.isDisabled)) return [];
      return [{ id: type.id, title: next.title, isDisabled: next.isDisabled }];
    });
    if (!types.length) return add('info', 'Nothing has changed.');
    const result = await save(current.version, { types });
    if (!result.ok) return;
    await invalidate((path) => path.startsWith('/api/company/comp-types') || path.startsWith('/api/team') || path.startsWith('/api/total-rewards'));
    add('success', 'Compensation types saved.');
  }

  const section = (category: 'cash' | 'equity', heading: string) => (
    <fieldset className="comp-types">
      <legend>{heading}</legend>
      {current.types
        .filter((type) => type.category === category)
        .map((type) => {
          const value = draft[type.id] ?? { title: type.title, isDisabled: type.isDisabled };
          const set = (next: Partial<typeof value>) => setDraft({ ...draft, [type.id]: { ...value, ...next } });
          return (
            <div key={type.id} className="comp-type" data-comp-type={type.id}>
              <label>
                {`Title of ${type.defaultTitle}`}
                <input value={value.title} maxLength={60} required disabled={!editable} onChange={(event) => set({ title: event.target.value })} />
              </label>
              <label className="check">
                <input type="checkbox" checked={!value.isDisabled} disabled={!editable || type.id === 'base_salary'} onChange={(event) => set({ isDisabled: !event.target.checked })} />
                {`Use ${type.defaultTitle}`}
              </label>
              <p className="muted small-text">{type.description}</p>
            </div>
          );
        })}
    </fieldset>
  );

  return (
    <>
      <h1>Compensation types</h1>
      <form className="card settings-form" onSubmit={(event) => void submit(event)}>
        <p className="muted">The kinds of pay your company uses and what you call them. The team view, total rewards statements, offers and planning show these titles; a type you do not use is left out.</p>
        {!editable && <p className="muted">You can read these settings; changing them needs the company settings edit permission.</p>}
        {section('cash', 'Cash')}
        {section('equity', 'Equity')}
        {editable && (
          <button type="submit" className="primary" disabled={busy}>
            Save compensation types
          </button>
        )}
      </form>
    </>
  );
}
