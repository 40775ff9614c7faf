import { PassThrough } from 'node:stream';
import Router, { type Layer } from '@koa/router';
import type { Knex } from 'knex';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { authStateOf, requestArrival } from '../access/authCache.js';
import { authenticate } from '../access/authenticate.js';
import type { Caller } from '../access/caller.js';
import { flagDefaults, isModuleName, requireModule } from '../access/flags.js';
import { hasPermission } from '../access/permissions.js';
import type { Config } from '../config.js';
import { asTenant } from '../db/rowSecurity.js';
import type { AppDeps } from '../deps.js';
import type { IdentityProvider } from '../access/identityProvider.js';
import type { ContractOperation } from './contract.js';
import { readFileBody, readJsonBody, readTextBody } from './body.js';
import { keptBody } from './keptJson.js';
import { HttpError, badRequest } from '../kernel/errors.js';
import { CALLER_ONLY_OPERATIONS, CONNECTING_ROLE_OPERATIONS, EventStreamResponse, type EventStreamSink, RawResponse, RedirectResponse, type RegisteredOperation, type RequestContext } from '../kernel/operations.js';

/** `/api/items/{itemId}` → `/api/items/:itemId` */
export function koaPath(contractPath: string): string {
  return contractPath.replace(/\{([^}]+)\}/g, ':$1');
}

/** The context with another database to act in (the tenant transaction, or one that refuses every use): `db` and `deps.db` alike. */
function actingIn<C extends RequestContext>(context: C, db: Knex): C {
  return { ...context, db, deps: { ...context.deps, db } };
}

function requestContext(ctx: Context, deps: AppDeps, identity: IdentityProvider | undefined, afterCommit: (() => Promise<unknown>)[]): RequestContext {
  return { db: deps.db, deps, log: ctx.state.log, requestId: ctx.state.requestId, koa: ctx, identity, afterCommit: (task) => void afterCommit.push(task) };
}

/**
 * The company whose rows a request may see when it runs under row-level security (Postgres, a
 * caller with a company, an operation that is not cross-company by design); undefined otherwise.
 */
export function tenantCompany(operation: RegisteredOperation, caller: Caller | undefined, engine: Config['engine']): string | undefined {
  if (engine !== 'postgres' || !caller?.companyId) return undefined;
  if (operation.access.kind === 'public' || operation.access.kind === 'internalAdmin') return undefined;
  if (CONNECTING_ROLE_OPERATIONS[operation.operationId] || CALLER_ONLY_OPERATIONS[operation.operationId]) return undefined;
  return caller.companyId;
}

const callerOnly = (operationId: string): Error =>
  new Error(`${operationId} is declared to answer from its caller alone (CALLER_ONLY_OPERATIONS) but used the database`);

/** The `db` of an operation answered from its caller alone: every use of it is refused. */
function refusingDatabase(operationId: string): Knex {
  const refuse = (): never => {
    throw callerOnly(operationId);
  };
  return new Proxy(refuse, { get: refuse, apply: refuse }) as unknown as Knex;
}

const denied = (message: string): HttpError => new HttpError(403, 'forbidden', { message });

/** Checks the declared access against the authenticated caller; 403 in the catalogue's words otherwise. */
function authorize(operation: RegisteredOperation, caller: Caller, ctx: Context): void {
  const access = operation.access;
  switch (access.kind) {
    case 'public':
    case 'signedIn':
      return;
    case 'member':
      if (!caller.companyId) throw denied('Create or join a company first.');
      return;
    case 'colleague':
      if (!caller.companyId) throw denied('Create or join a company first.');
      if (caller.isCandidate) throw denied('A candidate sees their offer only.');
      return;
    case 'internalAdmin':
      if (!caller.isInternalAdmin || caller.viewAs) throw denied('This is for internal admins only.');
      return;
    case 'permission':
      if (!caller.companyId || !hasPermission(caller.permissions, access.permission, access.authority, undefined, ctx.state.log)) {
        throw denied(`This needs the ${access.permission} permission (${access.authority}).`);
      }
  }
}

/** A missing If-Match where the contract requires one is 428, not 400: the client must read first. */
function preconditionRequired(errors: { field: string; message: string }[]): boolean {
  return errors.some((error) => error.field === 'header.if-match' && error.message === 'is required');
}

/** The record's version in a `{ data: { version } }` body, which is what the ETag of a versioned record names. */
function versionIn(body: unknown): number | undefined {
  const data = (body as { data?: { version?: unknown } } | null)?.data;
  return typeof data?.version === 'number' && Number.isInteger(data.version) ? data.version : undefined;
}

/**
 * Sends a stream of Server-Sent Events: headers and a first comment at once (so the client sees the
 * stream open), then whatever `produce` sends, uncompressed (compression would hold events back).
 */
function sendEventStream(ctx: Context, response: EventStreamResponse, inCompany: <T>(work: (db: Knex) => Promise<T>) => Promise<T>): void {
  const stream = new PassThrough();
  let closed = false;
  ctx.res.on('close', () => {
    closed = true;
  });
  const sink: EventStreamSink = {
    send(event, data) {
      if (!closed) stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    get closed() {
      return closed;
    },
  };
  ctx.status = 200;
  ctx.type = 'text/event-stream';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.compress = false;
  ctx.body = stream;
  stream.write(': stream open\n\n');
  const log = ctx.state.log as Logger;
  void response
    .produce(sink, inCompany)
    .catch((error: unknown) => {
      log.error({ err: error }, 'event stream failed');
      sink.send('error', { message: 'The answer could not be finished. Please try again.' });
    })
    .finally(() => stream.end());
}

function handle(
  contract: ContractOperation,
  operation: RegisteredOperation,
  deps: AppDeps,
  identity: IdentityProvider | undefined,
): Middleware {
  return async (ctx) => {
    const arrived = performance.now();
    // Who first, then what: an unauthenticated caller learns nothing from validation messages.
    // A public operation that accepts a caller authenticates only when a token is sent (and then strictly).
    const optionalCaller = contract.acceptsCaller && Boolean(ctx.get('authorization'));
    const caller = operation.access.kind === 'public' && !optionalCaller ? undefined : await authenticate(ctx, deps.db, identity, ctx.state.log);
    if (caller) authorize(operation, caller, ctx);
    if (contract.module && isModuleName(contract.module)) requireModule(contract.module, caller?.flags ?? flagDefaults());
    const bodyLimit = contract.bodyLimitBytes ?? deps.config.bodyLimitBytes;
    const parsed =
      contract.fileMediaTypes.length
        ? await readFileBody(ctx, bodyLimit, contract.fileMediaTypes)
        : contract.bodyMediaType === 'text/csv'
        ? await readTextBody(ctx, bodyLimit, 'text/csv')
        : contract.hasBody || ctx.method !== 'GET'
          ? await readJsonBody(ctx, bodyLimit)
          : { hasBody: false, body: undefined };
    const result = contract.validateRequest({
      path: (ctx as unknown as { params: Record<string, string> }).params ?? {},
      query: ctx.query,
      headers: ctx.headers,
      body: parsed.body,
      hasBody: parsed.hasBody,
    });
    if (!result.ok) {
      if (preconditionRequired(result.errors)) {
        throw new HttpError(428, 'precondition_required', { message: 'Send If-Match with the version you last read.', errors: result.errors });
      }
      const summary = result.errors.map((e) => `${e.field} ${e.message}`).join('; ');
      throw badRequest(`The request does not match the contract: ${summary}`, result.errors);
    }
    const afterCommit: (() => Promise<unknown>)[] = [];
    const context = { ...requestContext(ctx, deps, identity, afterCommit), caller: caller as Caller };
    const companyId = tenantCompany(operation, caller, deps.config.engine);
    // Under row-level security the handler gets a copy of deps whose db is its transaction (so no
    // cache may be keyed by deps). The transaction ends with the handler: a streamed file is sent
    // after the commit, never holding it open.
    // What the node keeps answers without a transaction; a data version read for it now serves the
    // handler's kept reads too (one begun after the request arrived, `access/authCache.ts`).
    const body = await requestArrival.run(arrived, async () => {
      const kept = operation.kept ? await operation.kept(result.value, actingIn(context, refusingDatabase(operation.operationId))) : undefined;
      if (kept !== undefined) return kept;
      return companyId
        ? asTenant(deps.db, companyId, (trx) => operation.handler(result.value, actingIn(context, trx)))
        : operation.handler(result.value, CALLER_ONLY_OPERATIONS[operation.operationId] ? actingIn(context, refusingDatabase(operation.operationId)) : context);
    });
    // A change may have written domain events: the worker delivers them now, not at its next poll.
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') deps.jobs?.worker.wake();
    for (const task of afterCommit) {
      await Promise.resolve()
        .then(task)
        .catch((error: unknown) => ctx.state.log.error({ err: error, operationId: contract.operationId }, 'after-commit work failed'));
    }
    const status = operation.status ?? 200;
    if (body instanceof EventStreamResponse) {
      sendEventStream(ctx, body, (work) => (companyId ? asTenant(deps.db, companyId, work) : work(deps.db)));
      return;
    }
    if (body instanceof RedirectResponse) {
      ctx.set('Cache-Control', 'private, no-store');
      ctx.redirect(body.location);
      ctx.status = 302;
      return;
    }
    if (body instanceof RawResponse) {
      ctx.status = status;
      ctx.type = body.contentType;
      ctx.length = body.sizeBytes;
      ctx.attachment(body.filename);
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = body.body;
      return;
    }
    if (contract.etagStatuses.has(status)) {
      const version = operation.etag ? operation.etag(body) : versionIn(body);
      if (version === undefined) {
        ctx.state.log.error({ operationId: contract.operationId }, 'the contract declares an ETag but the response names no version');
        if (deps.config.validateResponses) throw new HttpError(500, 'response_contract_violation');
      } else ctx.set('ETag', `"${version}"`);
    }
    if (deps.config.validateResponses) {
      const problems = contract.checkResponse(status, body);
      if (problems.length) {
        ctx.state.log.error({ operationId: contract.operationId, problems }, 'response does not match the contract');
        throw new HttpError(500, 'response_contract_violation');
      }
    }
    ctx.status = status;
    // A kept answer goes as the bytes of its first serialisation (keptJson.ts).
    const kept = keptBody(body);
    if (kept) {
      ctx.type = 'application/json';
      ctx.body = kept;
      return;
    }
    // Serialised once, here: given an object, Koa stringifies it again for its length, and once
    // more for compression's threshold (a large page of the team table costs each time).
    const json: string | undefined = JSON.stringify(body);
    if (json === undefined) return void (ctx.body = body);
    ctx.type = 'application/json';
    ctx.body = Buffer.from(json);
  };
}

/** The first two segments of a path, lower-cased as routes match regardless of case: `/api/team/employees` → `/api/team`. */
function prefixOf(path: string): string {
  const first = path.indexOf('/', 1);
  const end = first < 0 ? path.length : path.indexOf('/', first + 1);
  return (end < 0 ? path : path.slice(0, end)).toLowerCase();
}

type RouterMatch = ReturnType<Router['match']>;

/**
 * @koa/router finds a request's route by testing every route's expression in turn (hundreds of
 * them, on every request) and then builds a middleware chain for it. Here the routes are grouped by
 * their first two path segments, so a request tests only those that can match (in the router's
 * order, with those whose first segments are parameters), and the one route found is called
 * directly. Every operation is one route with one handler that answers, so the first route matching
 * path and method is the whole chain, as it is in @koa/router.
 */
function dispatchByPrefix(router: Router): void {
  const keyOf = (layer: Layer): string | undefined => {
    if (typeof layer.path !== 'string') return undefined;
    const prefix = prefixOf(layer.path);
    return /[:*(){}]/.test(prefix) ? undefined : prefix;
  };
  const keyed = router.stack.map((layer) => ({ layer, key: keyOf(layer) }));
  const anyPrefix = keyed.filter((entry) => entry.key === undefined).map((entry) => entry.layer);
  const byPrefix = new Map<string, Layer[]>();
  for (const { key } of keyed) {
    if (key !== undefined && !byPrefix.has(key)) byPrefix.set(key, keyed.filter((entry) => entry.key === undefined || entry.key === key).map((entry) => entry.layer));
  }
  const match = (path: string, method: string): RouterMatch => {
    const result: RouterMatch = { path: [], pathAndMethod: [], route: false };
    const wanted = method.toUpperCase();
    for (const layer of byPrefix.get(prefixOf(path)) ?? anyPrefix) {
      if (!layer.match(path)) continue;
      result.path.push(layer);
      if (layer.methods.length === 0 || layer.methods.includes(wanted)) {
        result.pathAndMethod.push(layer);
        if (layer.methods.length > 0) result.route = true;
      }
    }
    return result;
  };
  const dispatch: Middleware = (ctx, next) => {
    const path = ctx.path;
    const layer = match(path, ctx.method).pathAndMethod.find((candidate) => candidate.methods.length > 0);
    const handler = layer?.stack[0];
    if (!layer || !handler) return next();
    const routed = ctx as Context & { params?: Record<string, string> };
    routed.params = layer.params(path, layer.captures(path), routed.params);
    return (handler as Middleware)(ctx, next);
  };
  router.match = match;
  router.routes = router.middleware = () => dispatch as ReturnType<Router['routes']>;
}

/**
 * Builds the API router from the contract: every operation in openapi.yaml must have exactly one
 * registered handler, and no handler may exist without an operation.
 */
export function contractRouter(
  deps: AppDeps,
  registered: readonly RegisteredOperation[],
  identity?: IdentityProvider,
): Router {
  const byId = new Map<string, RegisteredOperation>();
  for (const operation of registered) {
    if (byId.has(operation.operationId)) throw new Error(`Operation ${operation.operationId} is registered twice`);
    byId.set(operation.operationId, operation);
  }
  // What authentication keeps is set up now (on Postgres it starts listening for changes), not by the
  // first request. (A router built only to check the contract has no database.)
  if ((deps.db as Knex | undefined) !== undefined) authStateOf(deps.db);
  const router = new Router();
  for (const contract of deps.contract.operations) {
    const operation = byId.get(contract.operationId);
    if (!operation) throw new Error(`openapi.yaml declares ${contract.operationId} but no handler implements it`);
    if (contract.module !== undefined && !isModuleName(contract.module)) throw new Error(`${contract.operationId}: x-module "${contract.module}" is not a product module`);
    if ((operation.access.kind === 'public') !== contract.isPublic) {
      throw new Error(`${contract.operationId}: access "${operation.access.kind}" disagrees with the contract's security`);
    }
    router.register(koaPath(contract.path), [contract.method.toUpperCase()], [handle(contract, operation, deps, identity)], {
      name: contract.operationId,
    });
    byId.delete(contract.operationId);
  }
  const orphans = [...byId.keys()];
  if (orphans.length) throw new Error(`Handlers without a contract operation: ${orphans.join(', ')}`);
  dispatchByPrefix(router);
  return router;
}
