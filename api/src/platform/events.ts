import { newId } from '../db/ids.js';
import type { AppDeps } from '../deps.js';
import type { Knex } from 'knex';

/**
 * Every domain event by name, with its payload. Each module adds its own from its `module.ts`:
 *
 *     declare module '../platform/events.js' {
 *       interface DomainEvents { 'bandSet.published': { bandSetId: string } }
 *     }
 *
 * so the names are a closed, typed set without a shared file that every module edits.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging in each module
export interface DomainEvents {}

export type DomainEventName = keyof DomainEvents & string;

/** What a change says happened, written in the same transaction as the change. */
export interface NewDomainEvent<N extends DomainEventName> {
  name: N;
  /** Null for changes outside any company (reference data). */
  companyId: string | null;
  actorUserId: string | null;
  subjectType?: string;
  subjectId?: string;
  payload: DomainEvents[N];
  /** False for events that are not a change someone made (a job ending): no audit entry. */
  audited?: false;
}

export interface DomainEvent<N extends DomainEventName = DomainEventName> extends NewDomainEvent<N> {
  id: string;
  occurredAt: string;
}

/**
 * Records a domain event: an append-only audit entry (who changed what) and an outbox row for the
 * subscribers, both with the caller's connection, so they commit or roll back with the change.
 * The job worker delivers the outbox (see `outbox.ts`).
 */
export async function emit<N extends DomainEventName>(db: Knex, event: NewDomainEvent<N>): Promise<void> {
  const id = newId();
  const occurredAt = new Date().toISOString();
  const common = { id, company_id: event.companyId, actor_user_id: event.actorUserId, subject_type: event.subjectType ?? null, subject_id: event.subjectId ?? null, created_at: occurredAt };
  if (event.audited !== false) await db('audit_events').insert({ ...common, action: event.name, details: JSON.stringify(event.payload ?? {}) });
  await db('domain_events').insert({ ...common, name: event.name, payload: JSON.stringify(event.payload ?? {}), available_at: occurredAt, attempts: 0 });
}

/** Something that reacts to an event (notifications, realtime, webhooks), at least once, after the commit. */
export interface EventSubscriber {
  /** Unique per module; named in logs when it fails. */
  name: string;
  event: DomainEventName;
  handle(event: DomainEvent, deps: AppDeps): Promise<void>;
}

/** A subscriber typed by the event it takes; the one narrowing from the stored row is here. */
export function subscribe<N extends DomainEventName>(event: N, name: string, handle: (event: DomainEvent<N>, deps: AppDeps) => Promise<void>): EventSubscriber {
  return { name, event, handle: (stored, deps) => handle(stored as DomainEvent<N>, deps) };
}
