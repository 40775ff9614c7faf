import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { authenticate } from '../access/authenticate.js';
import type { Caller } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { AppDeps } from '../deps.js';
import type { IdentityProvider } from '../identity/provider/types.js';
import type { ContractOperation } from './contract.js';
import { readJsonBody } from './body.js';
import { HttpError, badRequest } from './errors.js';
import { RawResponse, type RegisteredOperation, type RequestContext } from './operations.js';

/** `/api/items/{itemId}` → `/api/items/:itemId` */
export function koaPath(contractPath: string): string {
  return contractPath.replace(/\{([^}]+)\}/g, ':$1');
}

function requestContext(ctx: Context, deps: AppDeps): RequestContext {
  return { deps, log: ctx.state.log, requestId: ctx.state.requestId, koa: ctx };
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

function handle(
  contract: ContractOperation,
  operation: RegisteredOperation,
  deps: AppDeps,
  identity: IdentityProvider | undefined,
): Middleware {
  return async (ctx) => {
    // Who first, then what: an unauthenticated caller learns nothing from validation messages.
    const caller = operation.access.kind === 'public' ? undefined : await authenticate(ctx, deps.db, identity, ctx.state.log);
    if (caller) authorize(operation, caller, ctx);
    const parsed = contract.hasBody || ctx.method !== 'GET' ? await readJsonBody(ctx, contract.bodyLimitBytes ?? deps.config.bodyLimitBytes) : { hasBody: false, body: undefined };
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
    const context = { ...requestContext(ctx, deps), caller: caller as Caller };
    const body = await operation.handler(result.value, context);
    const status = operation.status ?? 200;
    if (body instanceof RawResponse) {
      ctx.status = status;
      ctx.type = body.contentType;
      ctx.length = body.sizeBytes;
      ctx.attachment(body.filename);
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = body.body;
      return;
    }
    if (deps.config.validateResponses) {
      const problems = contract.checkResponse(status, body);
      if (problems.length) {
        ctx.state.log.error({ operationId: contract.operationId, problems }, 'response does not match the contract');
        throw new HttpError(500, 'response_contract_violation');
      }
    }
    ctx.status = status;
    ctx.body = body;
  };
}

/**
 * Builds the API router from the contract: every operation in openapi.yaml must have exactly one
 * registered handler, and no handler may exist without an operation.
 */
export function contractRouter(
  deps: AppDeps,
  registered: RegisteredOperation[],
  identity?: IdentityProvider,
): Router {
  const byId = new Map<string, RegisteredOperation>();
  for (const operation of registered) {
    if (byId.has(operation.operationId)) throw new Error(`Operation ${operation.operationId} is registered twice`);
    byId.set(operation.operationId, operation);
  }
  const router = new Router();
  for (const contract of deps.contract.operations) {
    const operation = byId.get(contract.operationId);
    if (!operation) throw new Error(`openapi.yaml declares ${contract.operationId} but no handler implements it`);
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
  return router;
}
