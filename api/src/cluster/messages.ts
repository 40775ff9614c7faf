/** The environment variable that makes a forked process a web process of the cluster, with its role. */
export const CHILD_ROLE_ENV = 'PAYBENCH_CLUSTER_PROCESS';

/** A web process's place: its number, and whether it is also the node's job worker. */
export interface ChildRole {
  index: number;
  worker: boolean;
  /**
   * Started to replace another: it opens the port only once ready, so that the others keep
   * answering meanwhile (at first start every process answers 503 `starting` until it is ready).
   */
  late?: boolean;
  /** Set by the primary while it replaces this process on purpose. */
  replacing?: boolean;
}

export type ChildMessage =
  | { type: 'paybench:ready' }
  /** The process could not start for a reason the operator fixes (the port is taken), said for people. */
  | { type: 'paybench:start-refused'; reason: string }
  /** About to listen: the primary may still hold the port (answering `starting`) and frees it first. */
  | { type: 'paybench:port-wanted' }
  | { type: 'paybench:write-lock'; id: number }
  | { type: 'paybench:write-unlock'; id: number };

export type PrimaryMessage = { type: 'paybench:write-granted'; id: number } | { type: 'paybench:port-free' };

export function isChildMessage(message: unknown): message is ChildMessage {
  return typeof message === 'object' && message !== null && typeof (message as { type?: unknown }).type === 'string' && (message as { type: string }).type.startsWith('paybench:');
}

/** This process's role when it is a web process of a cluster, else undefined. */
export function childRole(env: NodeJS.ProcessEnv = process.env): ChildRole | undefined {
  const value = env[CHILD_ROLE_ENV];
  if (!value) return undefined;
  const role = JSON.parse(value) as ChildRole;
  return { index: role.index, worker: role.worker, late: role.late === true };
}

export function isPrimaryMessage(message: unknown): message is PrimaryMessage {
  return typeof message === 'object' && message !== null && typeof (message as { type?: unknown }).type === 'string' && (message as { type: string }).type.startsWith('paybench:');
}
