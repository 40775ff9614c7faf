import { useEffect } from 'react';
import type { Socket } from 'socket.io-client';
import { accessToken } from '../auth/oidc';
import { useSession } from '../auth/Session';
import { useCompanyFlag } from '../api/company';
import { logWarning } from '../api/log';
import { usePerson } from '../app/Guard';
import { retryImport } from '../app/retryImport';
import { setSocketId } from './socketId';

export interface JobStatusUpdate {
  jobId: string;
  status?: string;
  progress?: number;
}

type Listener = (update: JobStatusUpdate) => void;
const jobListeners = new Set<Listener>();

type EventListener = (payload: unknown) => void;
const eventListeners = new Map<string, Set<EventListener>>();

/** Subscribe to a named event of the app's socket (e.g. an area's own updates); returns the unsubscribe function. */
export function onRealtimeEvent(event: string, listener: EventListener): () => void {
  const listeners = eventListeners.get(event) ?? new Set<EventListener>();
  eventListeners.set(event, listeners);
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Subscribe to emitBackgroundJobStatusUpdate; returns the unsubscribe function. */
export function onJobStatusUpdate(listener: Listener): () => void {
  jobListeners.add(listener);
  return () => void jobListeners.delete(listener);
}

/**
 * The realtime socket (spec §4, §7, §9): connects only when the multiplayer flag is on, the person
 * is signed in and a token is available; websocket transport at /engine.io/, token in the auth
 * payload (read afresh on every reconnect), 20 s timeout, 10 reconnect attempts from 1 s up to
 * 60 s with 0.3 randomization. socket.io-client is loaded only when it is needed.
 */
export function Realtime() {
  const { user } = useSession();
  const person = usePerson().data?.data;
  const multiplayer = useCompanyFlag('multiplayer', Boolean(user && person?.companyId && !person.isCandidate));
  const enabled = Boolean(user) && multiplayer;
  useEffect(() => {
    if (!enabled) return;
    let socket: Socket | undefined;
    let stopped = false;
    void (async () => {
      if (!(await accessToken()) || stopped) return;
      const { io } = await retryImport(() => import('socket.io-client'));
      if (stopped) return;
      socket = io({
        path: '/engine.io/',
        transports: ['websocket'],
        withCredentials: true,
        timeout: 20_000,
        reconnectionAttempts: 10,
        reconnectionDelay: 1_000,
        reconnectionDelayMax: 60_000,
        randomizationFactor: 0.3,
        auth: (send) => void accessToken().then((token) => send({ token: token ?? '' })),
      });
      socket.on('connect', () => setSocketId(socket?.id));
      socket.on('disconnect', (reason) => {
        setSocketId(undefined);
        logWarning('socket has been disconnected', reason);
      });
      socket.on('connect_error', (error) => logWarning('socket error', error.message));
      socket.on('emitBackgroundJobStatusUpdate', (payload: JobStatusUpdate) => {
        for (const listener of jobListeners) listener(payload);
      });
      socket.onAny((event: string, payload: unknown) => {
        for (const listener of eventListeners.get(event) ?? []) listener(payload);
      });
    })();
    return () => {
      stopped = true;
      setSocketId(undefined);
      socket?.disconnect();
    };
  }, [enabled]);
  return null;
}
