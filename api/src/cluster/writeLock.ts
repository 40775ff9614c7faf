import type { Worker } from 'node:cluster';
import type { ChildMessage, PrimaryMessage } from './messages.js';

interface Request {
  child: Worker;
  id: number;
}

/**
 * The primary's side of SQLite's write queue across the web processes: one holder at a time, the
 * others in arrival order. Without it, processes waiting for SQLite's write lock poll for it
 * (sleeping longer each time), so a steady stream of writers in one process can starve another's.
 * A process that dies gives up its turn and its place.
 */
export class WriteLockQueue {
  private holder: Request | undefined;
  private readonly waiting: Request[] = [];

  handle(child: Worker, message: ChildMessage): void {
    if (message.type === 'paybench:write-lock') {
      this.waiting.push({ child, id: message.id });
      this.next();
    } else if (message.type === 'paybench:write-unlock') {
      this.release((request) => request.child === child && request.id === message.id);
    }
  }

  forget(child: Worker): void {
    this.release((request) => request.child === child);
  }

  private release(matches: (request: Request) => boolean): void {
    for (let index = this.waiting.length - 1; index >= 0; index--) {
      const request = this.waiting[index];
      if (request && matches(request)) this.waiting.splice(index, 1);
    }
    if (this.holder && matches(this.holder)) this.holder = undefined;
    this.next();
  }

  private next(): void {
    while (!this.holder && this.waiting.length) {
      const request = this.waiting.shift();
      if (!request || request.child.isDead()) continue;
      this.holder = request;
      const granted: PrimaryMessage = { type: 'paybench:write-granted', id: request.id };
      request.child.send(granted);
    }
  }
}

let nextId = 0;
const granted = new Map<number, () => void>();
let listening = false;

/**
 * A web process's turn at the write lock of the whole cluster (see `WriteLockQueue`): resolves true
 * once granted, false when `timeoutMs` passed first (the request is then withdrawn). `release` gives
 * the turn back. Only in a process forked by the cluster primary.
 */
export function takeClusterTurn(timeoutMs: number): { granted: Promise<boolean>; release(): void } {
  const send = process.send?.bind(process);
  if (!send) return { granted: Promise.resolve(true), release: () => undefined };
  if (!listening) {
    listening = true;
    process.on('message', (message: PrimaryMessage) => {
      if (message?.type !== 'paybench:write-granted') return;
      granted.get(message.id)?.();
    });
  }
  const id = ++nextId;
  let timer: NodeJS.Timeout | undefined;
  const turn = new Promise<boolean>((resolve) => {
    granted.set(id, () => resolve(true));
    timer = setTimeout(() => resolve(false), timeoutMs);
  }).finally(() => {
    clearTimeout(timer);
    granted.delete(id);
  });
  send({ type: 'paybench:write-lock', id } satisfies ChildMessage);
  let released = false;
  return {
    granted: turn,
    release() {
      if (released) return;
      released = true;
      send({ type: 'paybench:write-unlock', id } satisfies ChildMessage);
    },
  };
}
