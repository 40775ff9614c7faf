import { useEffect, useRef } from 'react';
import { onRealtimeEvent } from '../../realtime/Realtime';

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

/**
 * Calls `onUpdate` with every update of this merit cycle while the screen is open (null: none).
 * The updates arrive on the app's one socket (realtime/Realtime.tsx, only with the multiplayer
 * flag), whose id the client sends as X-Socket-Id, so an update names the socket of the edit.
 */
export function useMeritCycleUpdates(meritCycleId: string | null, onUpdate: Listener): void {
  const latest = useRef(onUpdate);
  latest.current = onUpdate;
  useEffect(() => {
    if (!meritCycleId) return;
    return onRealtimeEvent('emitMeritCycleEmployeesUpdate', (payload) => {
      const update = payload as MeritCycleEmployeesUpdate;
      if (update.meritCycleId === meritCycleId) latest.current(update);
    });
  }, [meritCycleId]);
}
