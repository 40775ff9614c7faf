import { useState } from 'react';
import { api } from '../../api/client';
import { useMutation } from '../../api/queries';
import { Modal } from '../../ui/Modal';
import { useToasts } from '../../ui/Toasts';
import { type MeritCycle, Problem, type Worksheet, allows, formatNumber, refreshPlanning } from './common';
import type { components } from '../../../../openapi.d.ts';

type Move = components['schemas']['WorksheetMovesInput']['action'];
type Result = components['schemas']['WorksheetMoveResult'];

const WORDS: Record<Move, { verb: string; done: string; tone: string }> = {
  submit: { verb: 'Submit', done: 'submitted', tone: 'primary' },
  approve: { verb: 'Approve', done: 'approved', tone: 'primary' },
  sendBack: { verb: 'Send back', done: 'sent back', tone: 'danger' },
};
const MOVES: Move[] = ['submit', 'approve', 'sendBack'];

const sheets = (count: number) => `${formatNumber(count)} ${count === 1 ? 'worksheet' : 'worksheets'}`;

/** Confirms a move of many worksheets (one comment for all), then says what happened to each refused one. */
function BulkDialog({ cycle, move, targets, onClose, onDone }: { cycle: MeritCycle; move: Move; targets: Worksheet[] | 'all'; onClose: () => void; onDone: () => void }) {
  const { add } = useToasts();
  const [comment, setComment] = useState('');
  const { run, busy, problem } = useMutation({ failure: 'problem', fallback: () => 'The worksheets could not be moved.' });
  const [refused, setRefused] = useState<Result[] | null>(null);
  const words = WORDS[move];
  const needsComment = move === 'sendBack';
  async function confirm() {
    const body = { action: move, ...(targets === 'all' ? {} : { worksheetIds: targets.map((worksheet) => worksheet.id) }), ...(comment.trim() ? { comment: comment.trim() } : {}) };
    const answer = await run(() => api.POST('/api/v2/meritCycles/{meritCycleId}/worksheetMoves', { params: { path: { meritCycleId: cycle.id } }, body }));
    if (!answer.ok) return;
    const data = answer.data;
    await refreshPlanning();
    onDone();
    if (data.data.moved) add('success', `${sheets(data.data.moved)} ${words.done}.`);
    if (!data.data.refused) return onClose();
    setRefused(data.data.results.filter((result) => !result.moved));
  }
  const what = targets === 'all' ? `every worksheet you may ${words.verb.toLowerCase()} now` : `the ${sheets(targets.length)} selected`;
  return (
    <Modal
      title={refused ? 'Some worksheets did not move' : `${words.verb} ${what}?`}
      onClose={onClose}
      footer={
        refused ? (
          <button type="button" onClick={onClose}>
            Close
          </button>
        ) : (
          <>
            <button type="button" className={words.tone} disabled={busy || (needsComment && !comment.trim())} onClick={() => void confirm()}>
              {words.verb}
            </button>
            <button type="button" onClick={onClose}>
              Cancel
            </button>
          </>
        )
      }
    >
      {refused ? (
        <ul aria-label="Not moved">
          {refused.map((result) => (
            <li key={result.worksheetId}>
              <strong>{result.name || 'A worksheet'}</strong>: {result.message}
            </li>
          ))}
        </ul>
      ) : (
        <>
          <p>Each worksheet moves on its own: one that cannot (someone else’s turn, rows outside the guideline) is listed afterwards and the others still move.</p>
          <label>
            {needsComment ? 'Comment for every worksheet (required)' : 'Comment for every worksheet (optional)'}
            <textarea value={comment} rows={3} maxLength={4000} onChange={(event) => setComment(event.target.value)} />
          </label>
          <Problem message={problem?.message ?? null} />
        </>
      )}
    </Modal>
  );
}

/**
 * The bulk bar over the worksheets list: with worksheets selected, their moves (counted over those
 * that offer each); with none, the same moves on every worksheet in reach that offers them to the caller.
 */
export function BulkMoves({ cycle, list, selected, onClear }: { cycle: MeritCycle; list: Worksheet[]; selected: ReadonlySet<string>; onClear: () => void }) {
  const [open, setOpen] = useState<{ move: Move; targets: Worksheet[] | 'all' } | null>(null);
  const chosen = list.filter((worksheet) => selected.has(worksheet.id));
  const pool = chosen.length ? chosen : list;
  const offered = MOVES.map((move) => ({ move, targets: pool.filter((worksheet) => allows(worksheet, move)) })).filter((entry) => entry.targets.length > 0);
  if (!chosen.length && !offered.length) return null;
  return (
    <div className="bulk-bar planning-bulk-bar" role="region" aria-label={chosen.length ? 'Selected worksheets' : 'Every worksheet'}>
      <span>{chosen.length ? `${sheets(chosen.length)} selected` : 'All in your reach'}</span>
      {offered.map(({ move, targets }) => (
        <button key={move} type="button" className={WORDS[move].tone} onClick={() => setOpen({ move, targets: chosen.length ? targets : 'all' })}>
          {WORDS[move].verb} {chosen.length ? `${formatNumber(targets.length)} selected` : `all ${formatNumber(targets.length)}`}
        </button>
      ))}
      {chosen.length > 0 && (
        <button type="button" onClick={onClear}>
          Clear the selection
        </button>
      )}
      {open && <BulkDialog cycle={cycle} move={open.move} targets={open.targets} onClose={() => setOpen(null)} onDone={onClear} />}
    </div>
  );
}
