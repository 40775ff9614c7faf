import type { ProcessRole } from '../config.js';

/** Where a node is in its life: readiness answers from it. */
export type LifecycleState = 'starting' | 'ready' | 'draining';

export interface Lifecycle {
  state: LifecycleState;
  readonly roles: readonly ProcessRole[];
}

export function lifecycleOf(roles: { web: boolean; worker: boolean }): Lifecycle {
  return { state: 'starting', roles: [...(roles.web ? (['web'] as const) : []), ...(roles.worker ? (['worker'] as const) : [])] };
}
