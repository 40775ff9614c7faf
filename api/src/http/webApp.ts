import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import send from 'koa-send';
import { notFound } from '../kernel/errors.js';
import { isServerEndpoint } from './serverPaths.js';

function wantsHtml(accept: string): boolean {
  return accept.includes('text/html');
}

/** A page route answers the app to a browser, to a client that takes any type (curl's default Accept), and to one that names none. */
function takesPage(accept: string): boolean {
  return !accept.trim() || wantsHtml(accept) || accept.split(',').some((part) => part.split(';')[0]?.trim() === '*/*');
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * The public address to send a page request to instead, when it came in on another name for this
 * same machine and port (127.0.0.1 or [::1] for a server printed as http://localhost:3000): sign-in
 * is registered for the public address only, so the page must load from it.
 */
function canonicalPage(publicUrl: URL, host: string, url: string): string | null {
  if (!LOOPBACK.test(publicUrl.hostname)) return null;
  let arrived: URL;
  try {
    arrived = new URL(`${publicUrl.protocol}//${host}`);
  } catch {
    return null;
  }
  if (arrived.host === publicUrl.host || !LOOPBACK.test(arrived.hostname) || arrived.port !== publicUrl.port) return null;
  return new URL(url, publicUrl).toString();
}

/**
 * Serves the built PWA: hashed assets cached for a year, the shell and service worker never
 * cached, and index.html for any other page route so client-side routing works on reload.
 */
export function webApp(webDist: string, publicUrl: string): Middleware {
  const index = path.join(webDist, 'index.html');
  const publicAddress = new URL(publicUrl);
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (isServerEndpoint(ctx.path) || ctx.path.startsWith('/oauth/')) return next();
    if (!existsSync(index)) return next();
    const canonical = wantsHtml(ctx.get('accept')) ? canonicalPage(publicAddress, ctx.get('host'), ctx.url) : null;
    if (canonical) return ctx.redirect(canonical);
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
    if (path.extname(ctx.path) || !takesPage(ctx.get('accept'))) throw notFound(`No such file: ${ctx.path}`);
    await send(ctx, 'index.html', { root: webDist, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') });
  };
}
