import { type FormEvent, useState } from 'react';
import { api, useQuery } from '../../api/client';
import { useMutation, type MutationCall } from '../../api/queries';
import { Sheet } from '../../ui/Modal';
import { SkeletonText } from '../../ui/Skeleton';
import { Loaded } from '../../ui/States';
import { SectionTabs } from '../../ui/Tabs';
import { useToasts } from '../../ui/Toasts';
import { HistoryList, type MeritCycle, type Schemas, type Worksheet, type WorksheetEmployee, actorName, formatBp, formatMoney, formatNumber, formatRatio, formatTimestamp, refreshPlanning, worksheetName } from './common';

const FIELD_WORDS: Record<string, string> = { merit: 'Merit', promotion: 'Promotion', lumpSum: 'Lump sum', equityRefresh: 'Equity refresh', equityAdjustment: 'Pay equity adjustment', equityAdjustmentReason: 'Pay equity reason', comment: 'Comment', reviewed: 'Reviewed' };

/** Comments, oldest first, and a box to add one. */
function Comments({ comments, onAdd, label }: { comments: Schemas['MeritCycleComment'][]; onAdd: (body: string) => ReturnType<MutationCall<unknown>>; label: string }) {
  const [text, setText] = useState('');
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    const result = await run(() => onAdd(text.trim()));
    if (result.ok) setText('');
  }
  return (
    <>
      {comments.length === 0 ? (
        <p className="planning-muted">No comments yet.</p>
      ) : (
        <ol className="planning-comments" aria-label={label}>
          {comments.map((comment) => (
            <li key={comment.id}>
              <p className="who">
                {actorName(comment.author)} · <time dateTime={comment.createdAt}>{formatTimestamp(comment.createdAt)}</time>
              </p>
              <p>{comment.body}</p>
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={(event) => void submit(event)} aria-label="Add a comment">
        <label>
          Add a comment
          <textarea value={text} rows={3} maxLength={4000} onChange={(event) => setText(event.target.value)} />
        </label>
        {problem && <p role="alert">{problem.message}</p>}
        <div className="actions">
          <button type="submit" disabled={busy || !text.trim()}>
            Comment
          </button>
        </div>
      </form>
    </>
  );
}

/** One person in the cycle: their row, peers of the same job and level, every change and the comments. */
export function EmployeeSheet({ cycle, row, onClose }: { cycle: MeritCycle; row: WorksheetEmployee; onClose: () => void }) {
  const [tab, setTab] = useState('peers');
  const path = { meritCycleId: cycle.id, employeeId: row.employeeId };
  const peers = useQuery('/api/v2/meritCycles/{meritCycleId}/employees/{employeeId}/peers', { params: { path } });
  const history = useQuery('/api/v2/meritCycles/{meritCycleId}/employees/{employeeId}/history', { params: { path } });
  const comments = useQuery('/api/v2/meritCycles/{meritCycleId}/employees/{employeeId}/comments', { params: { path } });

  /** Adds the comment; the list is read again before the box empties. */
  async function addComment(body: string) {
    const reply = await api.POST('/api/v2/meritCycles/{meritCycleId}/employees/{employeeId}/comments', { params: { path }, body: { body } });
    if (reply.data) await comments.mutate();
    return reply;
  }

  return (
    <Sheet title={row.name} onClose={onClose} className="planning-sheet">
      <dl className="planning-facts">
        <dt>Title</dt>
        <dd>{row.title}</dd>
        <dt>Department</dt>
        <dd>{row.department ?? '—'}</dd>
        <dt>Current pay</dt>
        <dd>{formatMoney(row.currentPay)}</dd>
        <dt>Merit</dt>
        <dd>{row.merit ? `${formatBp(row.merit.percentBp)} · ${formatMoney(row.merit.amount)}` : '—'}</dd>
        {row.equityAdjustment && (
          <>
            <dt>Pay equity adjustment</dt>
            <dd>
              {formatMoney(row.equityAdjustment.amount)} · {row.equityAdjustment.reason}
            </dd>
          </>
        )}
        <dt>New pay</dt>
        <dd>{formatMoney(row.newPay)}</dd>
        {row.recommendation && (
          <>
            <dt>Guideline</dt>
            <dd>
              {formatBp(row.recommendation.targetBp)} ({formatBp(row.recommendation.minBp)}–{formatBp(row.recommendation.maxBp)}), {formatMoney(row.recommendation.targetAmount)}
            </dd>
          </>
        )}
        {row.proration.factor < 1 && (
          <>
            <dt>Proration</dt>
            <dd>
              {formatNumber(row.proration.daysEmployed)} of {formatNumber(row.proration.daysInPeriod)} days
            </dd>
          </>
        )}
        {row.flags.map((flag) => (
          <div key={flag.code} className="planning-fact-flag">
            <dt>{flag.severity === 'error' ? 'Error' : 'Warning'}</dt>
            <dd>{flag.message}</dd>
          </div>
        ))}
      </dl>
      <SectionTabs
        label={`About ${row.name}`}
        selected={tab}
        onSelect={setTab}
        tabs={[
          {
            id: 'peers',
            label: 'Peers',
            panel: (
              <Loaded data={peers.data?.data} error={peers.error} inline skeleton={<SkeletonText lines={3} label="Loading the peers" />}>
                {(data) => (
                  <>
                    <p>
                      {formatNumber(data.count)} {data.count === 1 ? 'peer' : 'peers'} of the same job and level in the cycle
                      {data.medianCurrentPay ? `: median pay ${formatMoney(data.medianCurrentPay)}` : ''}
                      {data.medianMeritBp !== null ? `, median merit ${formatBp(data.medianMeritBp)}` : ''}.
                    </p>
                    {data.peers.length > 0 && (
                      <div className="table-scroll">
                        <table>
                          <caption className="visually-hidden">Peers within your reach, in {data.currency}</caption>
                          <thead>
                            <tr>
                              <th scope="col">Peer</th>
                              <th scope="col" className="number">
                                Pay
                              </th>
                              <th scope="col" className="number">
                                Compa-ratio
                              </th>
                              <th scope="col" className="number">
                                Merit
                              </th>
                            </tr>
                          </thead>
                          <tbody>
                            {data.peers.map((peer) => (
                              <tr key={peer.employeeId}>
                                <th scope="row">{peer.name}</th>
                                <td className="number">{formatMoney(peer.currentPayInCycleCurrency)}</td>
                                <td className="number">{formatRatio(peer.compaRatio)}</td>
                                <td className="number">{formatBp(peer.meritBp)}</td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      </div>
                    )}
                  </>
                )}
              </Loaded>
            ),
          },
          {
            id: 'history',
            label: 'History',
            panel: (
              <Loaded data={history.data?.data} error={history.error} inline skeleton={<SkeletonText lines={3} label="Loading the history" />}>
                {(changes) =>
                  changes.length === 0 ? (
                    <p className="planning-muted">No changes since the cycle started.</p>
                  ) : (
                    <ol className="planning-history" aria-label={`Changes to ${row.name}’s row`}>
                      {changes.map((change) => (
                        <li key={change.id}>
                          <span className="what">{change.changes.map((item) => `${FIELD_WORDS[item.field] ?? item.field}: ${item.from ?? '—'} → ${item.to ?? '—'}`).join('; ')}</span>
                          <span className="who">
                            {actorName(change.actor)} · <time dateTime={change.at}>{formatTimestamp(change.at)}</time>
                          </span>
                        </li>
                      ))}
                    </ol>
                  )
                }
              </Loaded>
            ),
          },
          {
            id: 'comments',
            label: 'Comments',
            panel: (
              <Loaded data={comments.data?.data} error={comments.error} inline skeleton={<SkeletonText lines={2} label="Loading the comments" />}>
                {(list) => <Comments comments={list} onAdd={addComment} label={`Comments on ${row.name}`} />}
              </Loaded>
            ),
          },
        ]}
      />
    </Sheet>
  );
}

/** A worksheet's moves (who, when, from, to, why) and its comments. */
export function WorksheetHistorySheet({ worksheet, onClose }: { worksheet: Worksheet; onClose: () => void }) {
  const { add } = useToasts();
  const path = { meritCycleId: worksheet.meritCycleId, worksheetId: worksheet.id };
  const history = useQuery('/api/v2/meritCycles/{meritCycleId}/worksheets/{worksheetId}/history', { params: { path } });
  const comments = useQuery('/api/v2/meritCycles/{meritCycleId}/worksheets/{worksheetId}/comments', { params: { path } });
  async function addComment(body: string) {
    const reply = await api.POST('/api/v2/meritCycles/{meritCycleId}/worksheets/{worksheetId}/comments', { params: { path }, body: { body } });
    if (!reply.data) return reply;
    await Promise.all([comments.mutate(), refreshPlanning()]);
    add('success', 'Comment added.');
    return reply;
  }
  return (
    <Sheet title={`${worksheetName(worksheet)}’s worksheet`} onClose={onClose} className="planning-sheet">
      <h3>Reviewers</h3>
      {worksheet.reviewers.length ? (
        <ol className="planning-reviewers-list">
          {worksheet.reviewers.map((reviewer, index) => (
            <li key={`${reviewer.userId ?? index}`} aria-current={worksheet.reviewStep === index + 1 ? 'step' : undefined}>
              {actorName(reviewer)}
              {worksheet.reviewStep === index + 1 ? ' (their turn)' : ''}
            </li>
          ))}
        </ol>
      ) : (
        <p className="planning-muted">Set when the worksheet is submitted.</p>
      )}
      <h3>History</h3>
      <Loaded data={history.data?.data} error={history.error} inline skeleton={<SkeletonText lines={3} label="Loading the history" />}>
        {(entries) => <HistoryList entries={entries} label="The worksheet’s history" />}
      </Loaded>
      <h3>Comments</h3>
      <Loaded data={comments.data?.data} error={comments.error} inline skeleton={<SkeletonText lines={2} label="Loading the comments" />}>
        {(list) => <Comments comments={list} onAdd={addComment} label="Comments on the worksheet" />}
      </Loaded>
    </Sheet>
  );
}
