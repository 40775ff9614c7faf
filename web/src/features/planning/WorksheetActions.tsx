import { useState } from 'react';
import { api } from '../../api/client';
import { useVersionedSave } from '../../api/queries';
import { Modal } from '../../ui/Modal';
import { useToasts } from '../../ui/Toasts';
import { Problem, type Worksheet, refreshPlanning, worksheetName } from './common';

type Move = 'submit' | 'approve' | 'sendBack' | 'reopen';

const MOVES: Record<Move, { button: string; title: (name: string) => string; body: string; done: (name: string) => string; tone: 'primary' | 'danger' | '' }> = {
  submit: {
    button: 'Submit for approval',
    title: () => 'Submit the worksheet?',
    body: 'It goes to its approval chain and its rows are read-only until a reviewer sends it back.',
    done: () => 'Submitted for approval.',
    tone: 'primary',
  },
  approve: {
    button: 'Approve',
    title: (name) => `Approve ${name}’s worksheet?`,
    body: 'It goes to the next reviewer of its chain, or is approved if you are the last.',
    done: (name) => `${name}’s worksheet is approved.`,
    tone: 'primary',
  },
  sendBack: {
    button: 'Send back',
    title: (name) => `Send ${name}’s worksheet back?`,
    body: 'Its planner can change it again and resubmit. Say what to change.',
    done: (name) => `${name}’s worksheet is sent back.`,
    tone: 'danger',
  },
  reopen: {
    button: 'Reopen',
    title: (name) => `Reopen ${name}’s worksheet?`,
    body: 'Its approval is withdrawn and its planner can change it again. Say why.',
    done: (name) => `${name}’s worksheet is reopened.`,
    tone: '',
  },
};

const PATHS = {
  submit: '/api/v2/meritCycles/{meritCycleId}/worksheets/{worksheetId}/submit',
  approve: '/api/v2/meritCycles/{meritCycleId}/worksheets/{worksheetId}/approve',
  sendBack: '/api/v2/meritCycles/{meritCycleId}/worksheets/{worksheetId}/sendBack',
  reopen: '/api/v2/meritCycles/{meritCycleId}/worksheets/{worksheetId}/reopen',
} as const;

/** A worksheet's workflow move, at the version read, with the comment the server asks for. */
function MoveDialog({ worksheet, move, needsComment, onClose, onDone }: { worksheet: Worksheet; move: Move; needsComment: boolean; onClose: () => void; onDone?: (worksheet: Worksheet) => void }) {
  const { add } = useToasts();
  const words = MOVES[move];
  const name = worksheetName(worksheet);
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { save, busy } = useVersionedSave((ifMatch, body: { comment?: string }) =>
    api.POST(PATHS[move], { params: { path: { meritCycleId: worksheet.meritCycleId, worksheetId: worksheet.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  async function confirm() {
    const result = await save(worksheet.version, comment.trim() ? { comment: comment.trim() } : {});
    if (!result.ok) {
      setProblem(result.message);
      if (result.conflict) await refreshPlanning();
      return;
    }
    await refreshPlanning();
    add('success', words.done(name));
    onDone?.(result.data.data);
    onClose();
  }
  return (
    <Modal
      title={words.title(name)}
      onClose={onClose}
      footer={
        <>
          <button type="button" className={words.tone || undefined} disabled={busy || (needsComment && !comment.trim())} onClick={() => void confirm()}>
            {words.button}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </>
      }
    >
      <p>{words.body}</p>
      <label>
        {needsComment ? 'Comment (required)' : 'Comment (optional)'}
        <textarea value={comment} rows={3} maxLength={4000} onChange={(event) => setComment(event.target.value)} />
      </label>
      <Problem message={problem} />
    </Modal>
  );
}

/** The moves the server offers the caller on this worksheet, as buttons (each with its dialog). */
export function WorksheetActions({ worksheet, only, onDone }: { worksheet: Worksheet; only?: Move[]; onDone?: (worksheet: Worksheet) => void }) {
  const [open, setOpen] = useState<{ move: Move; needsComment: boolean } | null>(null);
  const offered = worksheet.availableActions.filter((entry): entry is { action: Move; needsComment: boolean } => entry.action in MOVES && (!only || only.includes(entry.action as Move)));
  if (!offered.length) return null;
  const name = worksheetName(worksheet);
  return (
    <>
      {offered.map((entry) => (
        <button
          key={entry.action}
          type="button"
          className={MOVES[entry.action].tone || undefined}
          aria-label={entry.action === 'submit' ? undefined : `${MOVES[entry.action].button} ${name}’s worksheet`}
          onClick={() => setOpen({ move: entry.action, needsComment: entry.needsComment })}
        >
          {MOVES[entry.action].button}
        </button>
      ))}
      {open && <MoveDialog worksheet={worksheet} move={open.move} needsComment={open.needsComment} onClose={() => setOpen(null)} onDone={onDone} />}
    </>
  );
}
