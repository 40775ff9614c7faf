import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { AppDeps } from '../deps.js';
import type { DomainEvent, DomainEventName, EventSubscriber } from './events.js';

interface OutboxRow {
  id: string;
  company_id: string | null;
  name: string;
  actor_user_id: string | null;
  subject_type: string | null;
  subject_id: string | null;
  payload: string;
  created_at: string | Date;
  attempts: number;
}

const BATCH = 50;
/** A claimed batch not delivered by then belongs to a worker that died; another takes it. */
const CLAIM_MS = 60_000;
const MAX_ATTEMPTS = 8;
const RETRY_BASE_MS = 2_000;

const iso = (ms: number): string => new Date(ms).toISOString();

function eventOf(row: OutboxRow): DomainEvent {
  return {
    id: row.id,
    name: row.name as DomainEventName,
    companyId: row.company_id,
    actorUserId: row.actor_user_id,
    ...(row.subject_type ? { subjectType: row.subject_type } : {}),
    ...(row.subject_id ? { subjectId: row.subject_id } : {}),
    payload: JSON.parse(row.payload) as DomainEvent['payload'],
    occurredAt: new Date(row.created_at).toISOString(),
  };
}

/**
 * Delivers the outbox to the modules' subscribers, oldest first, at least once: the job worker
 * calls it on every tick. A failing subscriber makes its event wait and try again (doubling
 * delays, 8 attempts), without holding up the others.
 */
export class EventRelay {
  private readonly byEvent = new Map<string, EventSubscriber[]>();

  constructor(
    private readonly db: Knex,
    private readonly log: Logger,
    subscribers: readonly EventSubscriber[],
    private readonly deps: () => AppDeps,
    private readonly retryBaseMs = RETRY_BASE_MS,
  ) {
    for (const subscriber of subscribers) this.byEvent.set(subscriber.event, [...(this.byEvent.get(subscriber.event) ?? []), subscriber]);
  }

  /** Delivers what is due; returns how many events it handled (0: nothing waiting). */
  async deliverPending(workerId: string): Promise<number> {
    const rows = await this.claim(workerId);
    for (const row of rows) await this.deliver(row, workerId);
    return rows.length;
  }

  /** Only events this node has subscribers for: a node never marks delivered what it cannot deliver. */
  private async claim(workerId: string): Promise<OutboxRow[]> {
    if (!this.byEvent.size) return [];
    const at = Date.now();
    const due = this.db('domain_events')
      .select('id')
      .whereIn('name', [...this.byEvent.keys()])
      .whereNull('delivered_at')
      .whereNull('failed_at')
      .andWhere('available_at', '<=', iso(at))
      .andWhere((q) => q.whereNull('claimed_until').orWhere('claimed_until', '<', iso(at)))
      .orderBy('id')
      .limit(BATCH);
    if (this.db.client.config.client === 'pg') due.forUpdate().skipLocked();
    const claimed = (await this.db('domain_events')
      .whereIn('id', due)
      .andWhere((q) => q.whereNull('claimed_until').orWhere('claimed_until', '<', iso(at)))
      .update({ claimed_by: workerId, claimed_until: iso(at + CLAIM_MS) }, '*')) as OutboxRow[];
    return claimed.sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /**
   * Removes what a week has made history: delivered events, and events nobody subscribes to (the
   * audit log keeps the record of who changed what).
   */
  async prune(olderThan: Date): Promise<number> {
    return this.db('domain_events')
      .where('created_at', '<', olderThan.toISOString())
      .andWhere((q) => q.whereNotNull('delivered_at').orWhereNotNull('failed_at').orWhereNotIn('name', [...this.byEvent.keys()]))
      .delete();
  }

  private async deliver(row: OutboxRow, workerId: string): Promise<void> {
    const event = eventOf(row);
    try {
      for (const subscriber of this.byEvent.get(row.name) ?? []) await subscriber.handle(event, this.deps());
      await this.db('domain_events').where({ id: row.id, claimed_by: workerId }).update({ delivered_at: iso(Date.now()), claimed_by: null, claimed_until: null, last_error: null });
    } catch (error) {
      const attempts = Number(row.attempts) + 1;
      const message = error instanceof Error ? error.message : String(error);
      const givenUp = attempts >= MAX_ATTEMPTS;
      this.log.error({ err: error, event: row.name, eventId: row.id, attempts }, givenUp ? 'event delivery given up' : 'event delivery failed; will retry');
      await this.db('domain_events')
        .where({ id: row.id, claimed_by: workerId })
        .update({ attempts, last_error: message, claimed_by: null, claimed_until: null, available_at: iso(Date.now() + this.retryBaseMs * 2 ** (attempts - 1)), failed_at: givenUp ? iso(Date.now()) : null });
    }
  }
}
