import { useQuery } from '../../api/client';
import { DataTable } from '../../ui/DataTable';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, Loaded } from '../../ui/States';

/** States in the history's words (the stored names are the workflow's). */
const STATE_WORDS: Record<string, string> = { pendingApproval: 'pending approval', cycle: 'merit cycle' };
const ACTIONS: Record<string, string> = {
  publish: 'Published',
  publishToCycle: 'Published to a merit cycle',
  archive: 'Archived',
  submit: 'Submitted for approval',
  recordApproval: 'Approved',
  approve: 'Approved and published',
  approveToCycle: 'Approved and published to a merit cycle',
  reject: 'Sent back to draft',
  withdraw: 'Withdrawn to draft',
};

/** Every change of the set's state, oldest first. */
export function History({ bandSetId }: { bandSetId: string }) {
  const history = useQuery('/api/bands/band-sets/{bandSetId}/history', { params: { path: { bandSetId } } });
  return (
    <Loaded data={history.data?.data} error={history.error} retry={() => void history.mutate()} skeleton={<SkeletonTable rows={2} columns={5} label="Loading the history" />}>
      {(entries) =>
        entries.length === 0 ? (
          <Empty title="No changes of state yet" compact>
            Publishing the draft writes the first entry; archiving it when another goes live writes the next.
          </Empty>
        ) : (
          <DataTable
            caption="History of the band set"
            captionHidden
            cardsOnPhone
            rows={entries}
            rowKey={(entry) => entry.id}
            columns={[
              { key: 'action', header: 'Change', rowHeader: true, cell: (entry) => `${ACTIONS[entry.action] ?? entry.action}: ${STATE_WORDS[entry.from] ?? entry.from} → ${STATE_WORDS[entry.to] ?? entry.to}` },
              { key: 'when', header: 'When', cell: (entry) => new Date(entry.at).toLocaleString() },
              { key: 'who', header: 'By', cell: (entry) => entry.actor.name ?? 'Someone' },
              { key: 'version', header: 'Version', numeric: true, cell: (entry) => entry.subjectVersion ?? '—' },
              { key: 'comment', header: 'Comment', cell: (entry) => entry.comment ?? '—' },
            ]}
          />
        )
      }
    </Loaded>
  );
}
