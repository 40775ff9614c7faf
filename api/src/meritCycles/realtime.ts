import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { Realtime } from '../realtime/server.js';
import { recentViewers, touchViewer } from './store.js';

/*
 * Live updates: whoever has a cycle's worksheet or dashboard open is a viewer of the cycle (noted
 * when they read it, at most once a minute per node). A change to rows is announced, after its
 * commit, to each viewer's user room as `emitMeritCycleEmployeesUpdate`; on Postgres the socket.io
 * adapter carries it to sockets on every node. The event names what changed (rows and their new
 * versions), never pay: a client reads the rows again with its own access.
 */

/** How long a reader counts as viewing the cycle after their last read. */
export const VIEWING_MS = 15 * 60_000;
const NOTE_EVERY_MS = 60_000;
const noted = new Map<string, number>();

/** How long a read sent to note the viewer has before another is. */
const NOTING_MS = 5_000;
const noting = new Map<string, number>();

/**
 * Whether this read of the cycle by this person is the one to note them (so is not answered without
 * a write). One read at a time is: the reads arriving meanwhile are answered as kept, rather than
 * each waiting for a transaction only to find the viewer noted by the first.
 */
export function viewerNoteDue(cycleId: string, userId: string): boolean {
  const key = `${cycleId}|${userId}`;
  const now = Date.now();
  if ((noted.get(key) ?? 0) > now - NOTE_EVERY_MS || (noting.get(key) ?? 0) > now - NOTING_MS) return false;
  if (noting.size > 50_000) noting.clear();
  noting.set(key, now);
  return true;
}

export async function noteViewer(db: Knex, scope: CompanyScope, cycleId: string, userId: string): Promise<void> {
  const key = `${cycleId}|${userId}`;
  const now = Date.now();
  if ((noted.get(key) ?? 0) > now - NOTE_EVERY_MS) return;
  if (noted.size > 50_000) noted.clear();
  noted.set(key, now);
  await touchViewer(db, scope, cycleId, userId, new Date(now).toISOString());
}

export interface EmployeesUpdate {
  meritCycleId: string;
  worksheetIds: string[];
  employees: { employeeId: string; version: number }[];
  actorUserId: string;
  /** The socket of the request that made the change (X-Socket-Id), so its own tab can ignore it. */
  originSocketId: string | null;
  reason: 'edited' | 'moved' | 'closed';
}

/** Reads the viewers in the change's transaction; sends after the commit. */
export async function announceEmployeesUpdate(db: Knex, scope: CompanyScope, realtime: Realtime | undefined, afterCommit: (task: () => Promise<unknown>) => void, update: EmployeesUpdate): Promise<void> {
  if (!realtime) return;
  const viewers = await recentViewers(db, scope, update.meritCycleId, new Date(Date.now() - VIEWING_MS).toISOString());
  const audience = new Set([...viewers, update.actorUserId]);
  afterCommit(async () => {
    for (const userId of audience) realtime.toUser(userId, 'emitMeritCycleEmployeesUpdate', { ...update });
  });
}
