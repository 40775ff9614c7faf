import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { api, errorMessage } from '../../api/client';
import { invalidate } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { useToasts } from '../../ui/Toasts';
import { can } from '../settings/permissions';
import type { BenchmarkRequest } from './selection';

/** The saved reports and shared slices, with everything read from them. */
const refreshLists = () => invalidate((path) => path.startsWith('/api/benchmarking/saved-queries') || path.startsWith('/api/benchmarking/shares'));

/**
 * Keep the current request as a named report, or share what it answers now as a read-only slice.
 * Both need the benchmarking edit permission; people who may only view see nothing here.
 */
export function SaveAndShare({ request }: { request: BenchmarkRequest }) {
  const person = usePerson().data?.data;
  const { add } = useToasts();
  const [, navigate] = useLocation();
  const [mode, setMode] = useState<'save' | 'share' | null>(null);
  const [busy, setBusy] = useState(false);
  if (!can(person, 'benchmarking', 'edit') || person?.viewAs) return null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    setBusy(true);
    if (mode === 'save') {
      const { error } = await api.POST('/api/benchmarking/saved-queries', { body: { name, request } });
      setBusy(false);
      if (error) return add('error', errorMessage(error));
      add('success', `Saved as “${name}”. It is listed under Reports.`);
    } else {
      const { data, error } = await api.POST('/api/benchmarking/shares', { body: { title: name, request } });
      setBusy(false);
      if (error) return add('error', errorMessage(error));
      add('success', 'Shared. People in your company with market data access can open this link.');
      navigate(data.data.path);
    }
    setMode(null);
    await refreshLists();
  }

  return (
    <div className="save-share">
      {mode === null ? (
        <>
          <button type="button" onClick={() => setMode('save')}>
            Save as report
          </button>
          <button type="button" onClick={() => setMode('share')}>
            Share
          </button>
        </>
      ) : (
        <form className="inline-form" onSubmit={(event) => void submit(event)}>
          <label>
            {mode === 'save' ? 'Report name' : 'Title of the shared slice'}
            <input name="name" required maxLength={mode === 'save' ? 120 : 200} autoFocus />
          </label>
          <button type="submit" className="primary" disabled={busy}>
            {mode === 'save' ? 'Save report' : 'Share slice'}
          </button>
          <button type="button" onClick={() => setMode(null)}>
            Cancel
          </button>
        </form>
      )}
    </div>
  );
}
