import type { Context, Middleware } from 'koa';
import { errorBody, toHttpError } from '../kernel/errors.js';

/** Status logged for a request the client gave up on (nginx's 499): nobody is left to answer. */
export const CLIENT_CLOSED = 499;

const CLIENT_GONE_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);
const CLIENT_GONE_TYPES = new Set(['request.aborted', 'stream.not.readable']);

/** True when a failure only says the client hung up: its connection closed before we could read or answer. */
export function clientWentAway(ctx: Context, thrown: unknown): boolean {
  const { code, type } = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as { code?: unknown; type?: unknown };
  const gone = ctx.req.destroyed || ctx.res.destroyed || ctx.req.socket.destroyed;
  return (typeof type === 'string' && CLIENT_GONE_TYPES.has(type) && gone) || (typeof code === 'string' && CLIENT_GONE_CODES.has(code));
}

/** The one place failures become responses: always the contract's Error shape. */
export function errorHandler(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      if (clientWentAway(ctx, thrown)) {
        // Logged as aborted, not as a failure of ours; there is no one to send an answer to.
        ctx.state.aborted = true;
        ctx.respond = false;
        return;
      }
      const error = toHttpError(thrown);
      if (error.status >= 500) ctx.state.log.error({ err: thrown }, 'request failed');
      else ctx.state.log.debug({ code: error.code, message: error.message }, 'request refused');
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = errorBody(error, ctx.state.requestId);
    }
  };
}
