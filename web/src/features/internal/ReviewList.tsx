import { type ReactNode, useState } from 'react';
import { errorMessage } from '../../api/client';
import { useToasts } from '../../ui/Toasts';

/**
 * What every internal review list shows before its rows: the error, "Loading …", or the sentence for
 * an empty queue; the rows otherwise.
 */
export function ReviewList<Row>({ answer, loading, empty, children }: { answer: { data?: { data: Row[] }; error?: unknown }; loading: string; empty: string; children: (rows: Row[]) => ReactNode }) {
  if (answer.error) return <p role="alert">{errorMessage(answer.error)}</p>;
  if (!answer.data) return <p className="muted">{loading}</p>;
  if (answer.data.data.length === 0) return <p className="muted">{empty}</p>;
  return <>{children(answer.data.data)}</>;
}

/**
 * One decision at a time on a review list: which row is being decided (its buttons wait), the
 * server's refusal as a toast, the success sentence, and the list read again.
 */
export function useDecision(reload: () => Promise<unknown>): { busy: string | null; decide: (key: string, send: () => Promise<{ error?: unknown }>, success: string) => Promise<boolean> } {
  const { add } = useToasts();
  const [busy, setBusy] = useState<string | null>(null);
  async function decide(key: string, send: () => Promise<{ error?: unknown }>, success: string): Promise<boolean> {
    setBusy(key);
    const { error } = await send();
    setBusy(null);
    if (error) {
      add('error', errorMessage(error));
      return false;
    }
    add('success', success);
    await reload();
    return true;
  }
  return { busy, decide };
}

/** The buttons of one row's decision, side by side and wrapping on a phone. */
export function DecisionActions({ children }: { children: ReactNode }) {
  return <span className="internal-actions">{children}</span>;
}
