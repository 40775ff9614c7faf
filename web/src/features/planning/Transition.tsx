import { useState } from 'react';
import { api } from '../../api/client';
import { useVersionedSave } from '../../api/queries';
import { Modal } from '../../ui/Modal';
import { useToasts } from '../../ui/Toasts';
import { Problem } from './common';
import { type SectionProps } from './sections';

export const TRANSITION_WORDS: Record<string, { button: string; title: string; body: string; done: string }> = {
  launch: {
    button: 'Start planning',
    title: 'Start planning?',
    body: 'Eligibility, recommendations and budgets are computed from today’s people data, and every manager’s worksheet opens. The setup is fixed from then on (windows and approval chains can still change).',
    done: 'Planning has started.',
  },
  cancel: {
    button: 'Cancel the cycle',
    title: 'Cancel the cycle?',
    body: 'Nobody can plan in it any more and no pay is written. Say why; the reason is kept in its history.',
    done: 'The cycle is cancelled.',
  },
  close: {
    button: 'Close the cycle',
    title: 'Close the cycle?',
    body: 'Every approved change to base salary is written into people data, effective on the cycle’s effective date. This cannot be undone.',
    done: 'The cycle is closed.',
  },
};

/** Moves the cycle (launch, close, cancel) at the version read, asking for a comment where the server needs one. */
export function TransitionDialog({ cycle, action, onSaved, onClose }: SectionProps & { action: string; onClose: () => void }) {
  const { add } = useToasts();
  const words = TRANSITION_WORDS[action] ?? { button: action, title: action, body: '', done: 'Done.' };
  const needsComment = cycle.availableActions.find((entry) => entry.action === action)?.needsComment ?? false;
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { save, busy } = useVersionedSave((ifMatch, body: { action: 'launch' | 'close' | 'cancel'; comment?: string }) =>
    api.POST('/api/v2/meritCycles/{meritCycleId}/transitions', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  async function confirm() {
    const result = await save(cycle.version, { action: action as 'launch' | 'close' | 'cancel', ...(comment.trim() ? { comment: comment.trim() } : {}) });
    if (!result.ok) return setProblem(result.message);
    await onSaved(result.data.data);
    add('success', words.done);
    onClose();
  }
  return (
    <Modal
      title={words.title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className={action === 'cancel' ? 'danger' : 'primary'} disabled={busy || (needsComment && !comment.trim())} onClick={() => void confirm()}>
            {words.button}
          </button>
          <button type="button" onClick={onClose}>
            Not now
          </button>
        </>
      }
    >
      <p>{words.body}</p>
      <label>
        {needsComment ? 'Reason (required)' : 'Comment (optional)'}
        <textarea value={comment} rows={3} maxLength={4000} onChange={(event) => setComment(event.target.value)} />
      </label>
      <Problem message={problem} />
    </Modal>
  );
}
