import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import send from 'koa-send';
import { notFound } from './errors.js';

/** Paths owned by the server; the SPA fallback never answers them. */
const SERVER_PREFIXES = ['/api/', '/engine.io/', '/oauth/', '/.well-known/'];

function wantsHtml(accept: string): boolean {
  return accept.includes('text/html');
}

/**
 * Serves the built PWA: hashed assets cached for a year, the shell and service worker never
 * cached, and index.html for any other page route so client-side routing works on reload.
 */
export function webApp(webDist: string): Middleware {
  const index = path.join(webDist, 'index.html');
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (SERVER_PREFIXES.some((prefix) => ctx.path.startsWith(prefix)) || ctx.path === '/api') return next();
    if (!existsSync(index)) return next();
    const immutable = ctx.path.startsWith('/assets/');
    // The build writes .br and .gz beside each text file; koa-send picks one by Accept-Encoding.
    ctx.vary('Accept-Encoding');
    const file = path.join(webDist, path.normalize(ctx.path));
    if (ctx.path !== '/' && file.startsWith(webDist) && existsSync(file) && !file.endsWith(path.sep)) {
      await send(ctx, ctx.path, {
        root: webDist,
        immutable,
        maxage: immutable ? 365 * 24 * 3600 * 1000 : 0,
        setHeaders: (res) => {
          if (!immutable) res.setHeader('Cache-Control', 'no-cache');
        },
      });
      return;
    }
    if (path.extname(ctx.path) || !wantsHtml(ctx.get('accept'))) throw notFound(`No such file: ${ctx.path}`);
    await send(ctx, 'index.html', { root: webDist, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') });
  };
}
