import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api } from '../../api/client';
import { type PathMatch, useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { useToasts } from '../../ui/Toasts';
import { can } from '../settings/permissions';
import type { BenchmarkRequest } from './selection';

/** The saved reports and shared slices, with everything read from them. */
const LISTS: PathMatch = (path) => path.startsWith('/api/benchmarking/saved-queries') || path.startsWith('/api/benchmarking/shares');

/**
 * Keep the current request as a named report, or share what it answers now as a read-only slice.
 * Both need the benchmarking edit permission; people who may only view see nothing here.
 */
export function SaveAndShare({ request }: { request: BenchmarkRequest }) {
  const person = usePerson().data?.data;
  const { add } = useToasts();
  const [, navigate] = useLocation();
  const [mode, setMode] = useState<'save' | 'share' | null>(null);
  const { run, busy } = useMutation();
  if (!can(person, 'benchmarking', 'edit') || person?.viewAs) return null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    if (mode === 'save') {
      const result = await run(() => api.POST('/api/benchmarking/saved-queries', { body: { name, request } }), { invalidates: LISTS });
      if (!result.ok) return;
      add('success', `Saved as “${name}”. It is listed under Reports.`);
    } else {
      const result = await run(() => api.POST('/api/benchmarking/shares', { body: { title: name, request } }), { invalidates: LISTS });
      if (!result.ok) return;
      add('success', 'Shared. People in your company with market data access can open this link.');
      navigate(result.data.data.path);
    }
    setMode(null);
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

/**
 * Share what an executive-compensation request answers now as a read-only slice
 * (`/shares/executive/:sliceId`), listed with the other shared slices. Needs benchmarking edit.
 */
export function ShareExecutive({ request }: { request: components['schemas']['ExecutiveCompRequest'] }) {
  const person = usePerson().data?.data;
  const { add } = useToasts();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const { run, busy } = useMutation();
  if (!can(person, 'benchmarking', 'edit') || person?.viewAs) return null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const title = String(new FormData(event.currentTarget).get('title') ?? '').trim();
    const result = await run(() => api.POST('/api/benchmarking/shares/executive', { body: { title, request } }), { invalidates: LISTS });
    if (!result.ok) return;
    add('success', 'Shared. People in your company with market data access can open this link.');
    setOpen(false);
    navigate(result.data.data.path);
  }

  return (
    <div className="save-share">
      {open ? (
        <form className="inline-form" onSubmit={(event) => void submit(event)}>
          <label>
            Title of the shared slice
            <input name="title" required maxLength={200} autoFocus />
          </label>
          <button type="submit" className="primary" disabled={busy}>
            Share slice
          </button>
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" onClick={() => setOpen(true)}>
          Share these results
        </button>
      )}
    </div>
  );
}
