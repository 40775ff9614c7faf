import { type ReactNode, useId } from 'react';
import { type MutationCall, useMutation } from '../api/queries';
import { FormProblem } from './FormProblem';
import { Modal } from './Modal';

interface ConfirmDeleteProps<Data> {
  /** The question, which names the dialog: `Delete “2027 bands”?`. */
  title: string;
  /** What deleting takes with it, or why the server may refuse. */
  children: ReactNode;
  /** The button that deletes: "Delete job". */
  confirmLabel: string;
  /** The button that keeps it (and closes the dialog). */
  keepLabel?: string;
  /** The delete call of the contract. */
  call: MutationCall<Data>;
  /** After the delete succeeded: ask the answers again, say so, and close. */
  onDeleted: (data: Data) => Promise<void> | void;
  onClose: () => void;
  /** The area's look for the refusal (e.g. `bands-problem`). */
  problemClassName?: string;
}

/**
 * The one way to ask before deleting: an alert dialog (focus inside, Escape keeps) whose question
 * is its name, the danger button first and "Keep it" second. A refusal (an item still in use)
 * stays in the dialog in the server's words, so the person reads why and can keep it.
 */
export function ConfirmDelete<Data>({ title, children, confirmLabel, keepLabel = 'Keep it', call, onDeleted, onClose, problemClassName }: ConfirmDeleteProps<Data>) {
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  const bodyId = useId();
  async function confirm() {
    const result = await run(call);
    if (result.ok) await onDeleted(result.data);
  }
  return (
    <Modal
      title={title}
      role="alertdialog"
      describedBy={bodyId}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="danger" onClick={() => void confirm()} disabled={busy}>
            {confirmLabel}
          </button>
          <button type="button" onClick={onClose}>
            {keepLabel}
          </button>
        </>
      }
    >
      <div id={bodyId}>{children}</div>
      <FormProblem message={problem?.message ?? null} className={problemClassName} />
    </Modal>
  );
}
