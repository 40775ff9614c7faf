import type { Middleware } from 'koa';
import { errorBody, toHttpError } from './errors.js';

/** The one place failures become responses: always the contract's Error shape. */
export function errorHandler(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const error = toHttpError(thrown);
      if (error.status >= 500) ctx.state.log.error({ err: thrown }, 'request failed');
      else ctx.state.log.debug({ code: error.code, message: error.message }, 'request refused');
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = errorBody(error, ctx.state.requestId);
    }
  };
}
