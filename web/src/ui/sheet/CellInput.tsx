import { useRef, useState } from 'react';

/** Where the active cell goes after an edit is saved: Enter down, Shift+Enter up, Tab right, Shift+Tab left. */
export type EditMove = 'down' | 'up' | 'right' | 'left' | null;

/** The input of a cell being edited: Enter/Tab (and ↑/↓) save and move, Escape drops the change, leaving the cell saves. */
export function CellInput({ label, initial, onCommit, onCancel }: { label: string; initial: string; onCommit: (text: string, move: EditMove) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const done = useRef(false);
  const finish = (move: EditMove) => {
    if (done.current) return;
    done.current = true;
    onCommit(text, move);
  };
  return (
    <input
      className="sheet-cell-input"
      aria-label={label}
      value={text}
      autoFocus
      onFocus={(event) => {
        // Typing started the edit: the caret goes after the typed character, not before it.
        const end = event.currentTarget.value.length;
        event.currentTarget.setSelectionRange(end, end);
      }}
      onChange={(event) => setText(event.target.value)}
      onBlur={() => finish(null)}
      onPointerDown={(event) => event.stopPropagation()}
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === 'Enter') {
          event.preventDefault();
          finish(event.shiftKey ? 'up' : 'down');
        } else if (event.key === 'Tab') {
          event.preventDefault();
          finish(event.shiftKey ? 'left' : 'right');
        } else if (event.key === 'Escape') {
          event.preventDefault();
          done.current = true;
          onCancel();
        } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          event.preventDefault();
          finish(event.key === 'ArrowDown' ? 'down' : 'up');
        }
      }}
    />
  );
}
