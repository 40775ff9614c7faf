import { Trash2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { type EditorProps, type SettingsDraft, useSaveSettings } from './common';

// What every communicate settings form shares: the draft the live preview shows, the save bar and
// the card of a list item.

export const newItemId = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A form's value, the draft it makes (null while it is unchanged or cannot be sent) and its save.
 * The draft goes to the live preview as it changes, and away when the form closes.
 */
export function useDraft<T>(initial: T, toDraft: (value: T) => SettingsDraft | null, { settings, onDraft }: Pick<EditorProps, 'settings' | 'onDraft'>) {
  const [value, setValue] = useState(initial);
  const changed = !same(value, initial);
  const draft = changed ? toDraft(value) : null;
  const text = JSON.stringify(draft);
  const report = useRef(onDraft);
  report.current = onDraft;
  useEffect(() => report.current(text === 'null' ? null : (JSON.parse(text) as SettingsDraft)), [text]);
  useEffect(() => () => report.current(null), []);
  const { saveDraft, busy } = useSaveSettings();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (draft) await saveDraft(settings.version, draft);
  }
  return { value, setValue, changed, draft, submit, busy, reset: () => setValue(initial) };
}

export function SaveBar({ editable, changed, ready, busy, reset }: { editable: boolean; changed: boolean; ready: boolean; busy: boolean; reset: () => void }) {
  if (!editable) return null;
  return (
    <div className="tr-save-bar">
      <button type="submit" className="primary" disabled={!changed || !ready || busy}>
        {busy ? 'Saving…' : 'Save'}
      </button>
      <button type="button" disabled={!changed || busy} onClick={reset}>
        Discard changes
      </button>
      <span className="muted small-text" role="status">
        {changed ? (ready ? 'Not saved yet: the preview shows your changes.' : 'Fix the fields marked above to save.') : 'Saved.'}
      </span>
    </div>
  );
}

/** On/off, title and text of one statement section. */
export function ItemCard({ title, onRemove, removeLabel, disabled, children }: { title: string; onRemove: () => void; removeLabel: string; disabled: boolean; children: ReactNode }) {
  return (
    <li className="tr-item">
      <div className="tr-item-head">
        <h3>{title}</h3>
        {!disabled && (
          <button type="button" className="small" onClick={onRemove} aria-label={removeLabel}>
            <Trash2 size={16} aria-hidden="true" /> Remove
          </button>
        )}
      </div>
      {children}
    </li>
  );
}

/** Money as a person types it: major units with the currency's decimals. */