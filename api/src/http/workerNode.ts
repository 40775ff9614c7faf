import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { errorBody, HttpError } from '../kernel/errors.js';

/** What a worker-only node answers over HTTP: its probes, nothing else. */
const PROBES = new Set(['/api/health', '/api/ready']);

/**
 * A worker-only node (`PAYBENCH_ROLES=worker`) listens only so that its liveness (`/api/health`)
 * and readiness (`/api/ready`) can be asked; every other request is refused with 421 `not_a_web_node`.
 */
export function probesOnly(app: RequestListener): RequestListener {
  return (req, res) => {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    if ((req.method === 'GET' || req.method === 'HEAD') && PROBES.has(pathname)) {
      app(req, res);
      return;
    }
    req.resume();
    const requestId = randomUUID();
    const error = new HttpError(421, 'not_a_web_node', { message: 'This Paybench node runs background work only (PAYBENCH_ROLES=worker); send requests to a web node.' });
    res.writeHead(421, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Request-Id': requestId });
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify(errorBody(error, requestId)));
  };
}
