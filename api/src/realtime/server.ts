import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { Knex } from 'knex';
import pg from 'pg';
import type { Logger } from 'pino';
import { Server } from 'socket.io';
import { callerFromToken } from '../access/authenticate.js';
import type { Config } from '../config.js';
import type { IdentityProvider } from '../identity/provider/types.js';

export const SOCKET_PATH = '/engine.io/';

/** The events of the product specification. */
export type RealtimeEvent = 'emitBackgroundJobStatusUpdate' | 'emitMeritCycleEmployeesUpdate';

export interface Realtime {
  toUser(userId: string, event: RealtimeEvent, payload: Record<string, unknown>): void;
  toCompany(companyId: string, event: RealtimeEvent, payload: Record<string, unknown>): void;
  close(): Promise<void>;
}

const userRoom = (id: string): string => `user:${id}`;
const companyRoom = (id: string): string => `company:${id}`;

/**
 * socket.io at /engine.io/, websocket transport only. A socket must present a token (a sign-in
 * access token or an API token) in its auth payload; it joins its user's and company's rooms.
 * On Postgres the official adapter carries events to sockets connected to any node.
 */
export async function startRealtime(
  http: HttpServer,
  options: { config: Config; db: Knex; log: Logger; identity: () => IdentityProvider | undefined },
): Promise<Realtime> {
  const io = new Server(http, { path: SOCKET_PATH, transports: ['websocket'], serveClient: false, connectTimeout: 20_000 });
  let pool: pg.Pool | undefined;
  if (options.config.engine === 'postgres') {
    pool = new pg.Pool({ connectionString: options.config.databaseUrl, max: 4 });
    if (options.config.databaseSchema) {
      const schema = options.config.databaseSchema;
      pool.on('connect', (client) => void client.query(`SET search_path TO "${schema.replace(/"/g, '')}"`));
    }
    await pool.query(`CREATE TABLE IF NOT EXISTS socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)`);
    io.adapter(createAdapter(pool, { channelPrefix: `paybench_${options.config.databaseSchema ?? 'public'}`.slice(0, 40) }));
  }

  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token;
    if (typeof token !== 'string' || !token) return next(new Error('unauthenticated'));
    callerFromToken(options.db, options.identity(), token).then(
      (caller) => {
        socket.data.userId = caller.userId;
        socket.data.companyId = caller.companyId;
        next();
      },
      () => next(new Error('unauthenticated')),
    );
  });
  io.on('connection', (socket) => {
    const { userId, companyId } = socket.data as { userId: string; companyId: string | null };
    void socket.join(userRoom(userId));
    if (companyId) void socket.join(companyRoom(companyId));
    options.log.debug({ socketId: socket.id, userId }, 'socket connected');
  });

  return {
    toUser: (userId, event, payload) => io.to(userRoom(userId)).emit(event, payload),
    toCompany: (companyId, event, payload) => io.to(companyRoom(companyId)).emit(event, payload),
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
