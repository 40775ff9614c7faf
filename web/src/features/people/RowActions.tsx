/** A record's Correct and Delete buttons, each named for the record (`what`: "grant G-1", "the base salary of 1 Jan 2026"). */
export function RowActions({ what, onCorrect, onDelete }: { what: string; onCorrect: () => void; onDelete: () => void }) {
  return (
    <span className="people-row-actions">
      <button type="button" className="small" onClick={onCorrect} aria-label={`Correct ${what}`}>
        Correct
      </button>
      <button type="button" className="small" onClick={onDelete} aria-label={`Delete ${what}`}>
        Delete
      </button>
    </span>
  );
}
