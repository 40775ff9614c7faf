import { companyScope } from '../../../src/access/caller.js';
import type { OperationId, RegisteredOperation, ServiceContext } from '../../../src/kernel/operations.js';
import { can } from '../../../src/kernel/operations.js';
import { jobKind } from '../../../src/jobs/kind.js';
import { queueJobIn } from '../../../src/jobs/queue.js';
import { emit, subscribe } from '../../../src/platform/events.js';
import { defineModule } from '../../../src/kernel/modules.js';

/** What the module's job and subscriber saw, for the test to read. */
export const seen: { jobs: string[]; events: string[] } = { jobs: [], events: [] };

declare module '../../../src/platform/events.js' {
  interface DomainEvents {
    'note.created': { text: string };
  }
}

const fileNote = jobKind<{ text: string }>({ type: 'testNoteFiling', title: 'Note filing' }, () => async ({ job }) => {
  seen.jobs.push(job.input.text);
  return { filed: job.input.text };
});

/** The module's service: the note's event and its filing job, in the request's transaction. */
async function createNoteIn(ctx: Pick<ServiceContext, 'db' | 'caller'>, text: string): Promise<{ text: string; jobId: string }> {
  const { companyId } = companyScope(ctx.caller);
  await emit(ctx.db, { name: 'note.created', companyId, actorUserId: ctx.caller.userId, subjectType: 'note', payload: { text } });
  const job = await queueJobIn(ctx.db, fileNote, { companyId, ownerUserId: ctx.caller.userId, input: { text } });
  return { text, jobId: job.id };
}

const createNote: RegisteredOperation = {
  // The operation exists only in this module's contract file, not in the generated types.
  operationId: 'createNote' as OperationId,
  access: can('bands', 'edit'),
  status: 201,
  async handler(input, ctx) {
    const { text } = input.body as { text: string };
    return { data: await createNoteIn(ctx, text) };
  },
};

export default defineModule({
  module: 'bands',
  operations: [createNote],
  permissions: ['bands'],
  jobs: [fileNote],
  subscribers: [subscribe('note.created', 'notes.seen', async (event) => void seen.events.push(event.payload.text))],
});
