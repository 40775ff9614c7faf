import type { Server as HttpServer } from 'node:http';
import { createAdapter as createClusterAdapter } from '@socket.io/cluster-adapter';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { Knex } from 'knex';
import pg from 'pg';
import type { Logger } from 'pino';
import { Server } from 'socket.io';
import { callerFromToken } from '../access/authenticate.js';
import type { Config } from '../config.js';
import { childRole } from '../cluster/messages.js';
import { inTurnWithOtherNodes } from '../db/startLock.js';
import type { IdentityProvider } from '../access/identityProvider.js';

export const SOCKET_PATH = '/engine.io/';

/**
 * The events sockets hear (names from the product specification), with their payloads. The area
 * that sends one adds it from its `module.ts` and lists it in `realtimeEvents`:
 *
 *     declare module '../realtime/server.js' {
 *       interface RealtimeEvents { emitOfferUpdate: OfferUpdate }
 *     }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging in each module
export interface RealtimeEvents {}

export type RealtimeEventName = keyof RealtimeEvents & string;

/** Whose sockets to end: all of a user's, those opened with one API token, or a user's sign-in ones. */
export type SocketOwner = { userId: string } | { apiTokenId: string } | { signedInUserId: string };

export interface Realtime {
  toUser<Name extends RealtimeEventName>(userId: string, event: Name, payload: RealtimeEvents[Name]): void;
  toCompany<Name extends RealtimeEventName>(companyId: string, event: Name, payload: RealtimeEvents[Name]): void;
  /** Disconnects the owner's sockets on every node, once the credential they were opened with stops working. */
  disconnect(owner: SocketOwner): void;
  close(): Promise<void>;
}

const userRoom = (id: string): string => `user:${id}`;
const companyRoom = (id: string): string => `company:${id}`;
const apiTokenRoom = (id: string): string => `api-token:${id}`;
const signInRoom = (userId: string): string => `sign-in:${userId}`;

function ownerRoom(owner: SocketOwner): string {
  if ('userId' in owner) return userRoom(owner.userId);
  if ('apiTokenId' in owner) return apiTokenRoom(owner.apiTokenId);
  return signInRoom(owner.signedInUserId);
}

/**
 * The adapter emits to this node's own sockets only once its NOTIFY has returned, and NOTIFYs sent
 * on several connections can return out of order: a job's progress would then reach even a socket
 * on this node out of order. Sending one query at a time keeps every node's events in the order
 * they were emitted.
 */
function oneQueryAtATime(pool: pg.Pool): pg.Pool {
  const query = pool.query.bind(pool) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
  let last: Promise<unknown> = Promise.resolve();
  const inTurn = (text: string, values?: unknown[]): Promise<pg.QueryResult> => {
    const turn = last.then(() => query(text, values));
    last = turn.catch(() => undefined);
    return turn;
  };
  return Object.assign(pool, { query: inTurn });
}

/**
 * The Postgres adapter's table for payloads too large for a NOTIFY. Every web process of every node
 * runs this as it starts, so they take turns: two creating it at once fail on the catalogue.
 */
export async function ensureAttachmentsTable(db: Knex, schema: string | undefined): Promise<void> {
  await inTurnWithOtherNodes(db, `realtime ${schema ?? 'public'}`, (trx) =>
    trx.raw('CREATE TABLE IF NOT EXISTS socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)'),
  );
}

/**
 * socket.io at /engine.io/, websocket transport only. A socket must present a token (a sign-in
 * access token or an API token) in its auth payload; it joins its user's and company's rooms, and
 * a room of its credential (the API token, or the user's sign-ins) so that it can be ended with it.
 * On Postgres the official adapter carries events and disconnections to sockets on any node; on
 * SQLite, across the web processes of the node, the cluster adapter through the primary.
 */
export async function startRealtime(
  http: HttpServer,
  options: { config: Config; db: Knex; log: Logger; identity: () => IdentityProvider | undefined },
): Promise<Realtime> {
  const io = new Server(http, { path: SOCKET_PATH, transports: ['websocket'], serveClient: false, connectTimeout: 20_000 });
  let pool: pg.Pool | undefined;
  if (options.config.engine === 'postgres') {
    const schema = options.config.databaseSchema?.replace(/"/g, '');
    // One connection listens; publishing needs only one more, as it goes one message at a time.
    pool = oneQueryAtATime(new pg.Pool({ connectionString: options.config.databaseUrl, max: 2, ...(schema ? { options: `-c search_path="${schema}"` } : {}) }));
    await ensureAttachmentsTable(options.db, schema);
    io.adapter(createAdapter(pool, { channelPrefix: `paybench_${options.config.databaseSchema ?? 'public'}`.slice(0, 40) }));
  } else if (childRole()) {
    // The web processes of one SQLite node: the primary passes events and disconnections between them.
    io.adapter(createClusterAdapter());
  }

  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token;
    if (typeof token !== 'string' || !token) return next(new Error('unauthenticated'));
    callerFromToken(options.db, options.identity(), token).then(
      (caller) => {
        socket.data.userId = caller.userId;
        socket.data.companyId = caller.companyId;
        socket.data.credentialRoom = caller.apiTokenId ? apiTokenRoom(caller.apiTokenId) : signInRoom(caller.userId);
        next();
      },
      () => next(new Error('unauthenticated')),
    );
  });
  io.on('connection', (socket) => {
    const { userId, companyId, credentialRoom } = socket.data as { userId: string; companyId: string | null; credentialRoom: string };
    void socket.join([userRoom(userId), credentialRoom, ...(companyId ? [companyRoom(companyId)] : [])]);
    options.log.debug({ socketId: socket.id, userId }, 'socket connected');
  });

  return {
    toUser: (userId, event, payload) => io.to(userRoom(userId)).emit(event, payload),
    toCompany: (companyId, event, payload) => io.to(companyRoom(companyId)).emit(event, payload),
    disconnect: (owner) => io.in(ownerRoom(owner)).disconnectSockets(true),
    async close() {
      // io.close() also closes the adapter's LISTEN connection (and the HTTP server it is attached to).
      await new Promise<void>((resolve) => {
        void io.close(() => resolve());
        http.closeIdleConnections();
      });
      await pool?.end();
    },
  };
}
