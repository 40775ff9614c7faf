import { type ReactNode, useRef, useState } from 'react';
import { useQuery } from '../../api/client';
import { type SaveResult, useVersionedSave } from '../../api/queries';
import { type MeritCycle, Problem, fieldProblems, refreshPlanning } from './common';

// ── saving a part of the cycle at the version read ───────────────────────────────────────────

type Reply<Data> = Promise<{ data?: Data; error?: unknown; response: Response }>;

/**
 * One part of the cycle's setup saved with If-Match: a stale version is refused with the server's
 * message and the form keeps what the person typed; a 400 lists the fields it names.
 */
export function useCycleSave<Body, Data>(write: (ifMatch: string, body: Body) => Reply<Data>) {
  const lastError = useRef<unknown>(undefined);
  const [problem, setProblem] = useState<{ message: string; fields: string[]; conflict: boolean } | null>(null);
  const { save, busy } = useVersionedSave(async (ifMatch: string, body: Body) => {
    const reply = await write(ifMatch, body);
    lastError.current = reply.error;
    return reply;
  });
  async function submit(version: number, body: Body): Promise<SaveResult<Data>> {
    const result = await save(version, body);
    setProblem(result.ok ? null : { message: result.message, fields: fieldProblems(lastError.current), conflict: result.conflict });
    return result;
  }
  const shown: ReactNode = problem ? (
    <>
      <Problem message={problem.message} fields={problem.fields} />
      {problem.conflict && (
        <button type="button" className="small" onClick={() => void refreshPlanning().then(() => setProblem(null))}>
          Load their version (your entries stay in the form)
        </button>
      )}
    </>
  ) : null;
  return { submit, busy, problem: shown, setProblem };
}

export const draftOnly = (cycle: MeritCycle) => cycle.state === 'draft';
export const changeable = (cycle: MeritCycle) => cycle.state === 'draft' || cycle.state === 'active';

export function ReadOnlyNote({ cycle, what }: { cycle: MeritCycle; what: string }) {
  if (draftOnly(cycle)) return null;
  return <p className="planning-note">{`${what} were fixed when planning started.`}</p>;
}

// ── picking people ───────────────────────────────────────────────────────────────────────────

/** The company's users (reviewers are users): the first 500 by e-mail. */
export const useUsers = () => useQuery('/api/users', { params: { query: { limit: 500 } } });
