import type { AppDeps } from '../deps.js';
import type { JobContext } from './worker.js';

/** A job's context with its input typed: the kind that enqueued it is the kind that reads it. */
export interface TypedJobContext<Input> extends Omit<JobContext, 'job'> {
  job: Omit<JobContext['job'], 'input'> & { input: Input };
}

/**
 * A kind of background job: its name (stored in `jobs.type`) tied to its input's type. Jobs are
 * enqueued through their kind, so the input written and the input read cannot disagree; the one
 * cast from the stored JSON is here.
 */
export interface JobKind<Input> {
  readonly type: string;
  /** What people are told it was ("Users export is ready"). */
  readonly title: string;
  /** The handler, made once at start-up with the server's long-lived pieces. */
  readonly handler: (deps: AppDeps) => (ctx: JobContext) => Promise<unknown>;
  /** Only for typing: never set. */
  readonly input?: Input;
}

export function jobKind<Input>(
  { type, title }: { type: string; title: string },
  make: (deps: AppDeps) => (ctx: TypedJobContext<Input>) => Promise<unknown>,
): JobKind<Input> {
  return {
    type,
    title,
    handler: (deps) => {
      const run = make(deps);
      return (ctx) => run({ ...ctx, job: { ...ctx.job, input: ctx.job.input as Input } });
    },
  };
}

/** Any kind, for registries that hold several (a kind's input only appears in covariant position). */
export type AnyJobKind = JobKind<unknown>;
