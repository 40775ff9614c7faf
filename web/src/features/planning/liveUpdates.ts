import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { useQuery } from '../../api/client';
import { logWarning } from '../../api/log';
import { retryImport } from '../../app/retryImport';
import { accessToken } from '../../auth/oidc';

/**
 * What the server announces when rows of a merit cycle change (`emitMeritCycleEmployeesUpdate`, to
 * the user room of everyone viewing the cycle): which rows, at which version, never pay — a screen
 * reads the rows again with its own access. `moved` names a worksheet's move to the person who acts
 * next, with a sentence to show.
 */
export interface MeritCycleEmployeesUpdate {
  meritCycleId: string;
  worksheetIds: string[];
  employees: { employeeId: string; version: number }[];
  actorUserId: string;
  originSocketId: string | null;
  reason: 'edited' | 'moved' | 'closed';
  message?: string;
}

type Listener = (update: MeritCycleEmployeesUpdate) => void;

// The app's socket (realtime/Realtime.tsx) only hands on job events, so planning screens keep one
// socket of their own while any of them is open: same path, transport and token as the app's, and
// the same rule (only with the multiplayer flag). It closes when the last planning screen does.
const listeners = new Set<Listener>();
let socket: Socket | undefined;
let opening: Promise<void> | undefined;

async function open(): Promise<void> {
  const { io } = await retryImport(() => import('socket.io-client'));
  if (!listeners.size || socket) return;
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
  socket.on('connect_error', (error) => logWarning('planning socket error', error.message));
  socket.on('emitMeritCycleEmployeesUpdate', (payload: MeritCycleEmployeesUpdate) => {
    for (const listener of listeners) listener(payload);
  });
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  if (!socket && !opening) opening = open().finally(() => (opening = undefined));
  return () => {
    listeners.delete(listener);
    if (!listeners.size) {
      socket?.disconnect();
      socket = undefined;
    }
  };
}

/** Calls `onUpdate` with every update of this merit cycle while the screen is open (null: none). */
export function useMeritCycleUpdates(meritCycleId: string | null, onUpdate: Listener): void {
  const flags = useQuery('/api/me/release-flags');
  const multiplayer = flags.data?.data.some((flag) => flag.flag === 'multiplayer' && flag.enabled) ?? false;
  const latest = useRef(onUpdate);
  latest.current = onUpdate;
  useEffect(() => {
    if (!multiplayer || !meritCycleId) return;
    return subscribe((update) => {
      if (update.meritCycleId === meritCycleId) latest.current(update);
    });
  }, [multiplayer, meritCycleId]);
}
