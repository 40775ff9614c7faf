import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { AppDeps } from '../deps.js';
import type { ContractOperation } from './contract.js';
import { readJsonBody } from './body.js';
import { HttpError, badRequest } from './errors.js';
import type { RegisteredOperation, RequestContext } from './operations.js';

/** `/api/items/{itemId}` → `/api/items/:itemId` */
export function koaPath(contractPath: string): string {
  return contractPath.replace(/\{([^}]+)\}/g, ':$1');
}

function requestContext(ctx: Context, deps: AppDeps): RequestContext {
  return { deps, log: ctx.state.log, requestId: ctx.state.requestId, koa: ctx };
}

function authorize(operation: RegisteredOperation): void {
  // Identity arrives with its own module; until then only public operations can be reached.
  if (operation.access.kind !== 'public') {
    throw new HttpError(401, 'unauthenticated', { message: 'Sign in to continue.', clientMessage: 'missing_token' });
  }
}

function handle(contract: ContractOperation, operation: RegisteredOperation, deps: AppDeps): Middleware {
  return async (ctx) => {
    const parsed = contract.hasBody || ctx.method !== 'GET' ? await readJsonBody(ctx, deps.config.bodyLimitBytes) : { hasBody: false, body: undefined };
    authorize(operation);
    const result = contract.validateRequest({
      path: (ctx as unknown as { params: Record<string, string> }).params ?? {},
      query: ctx.query,
      body: parsed.body,
      hasBody: parsed.hasBody,
    });
    if (!result.ok) {
      const summary = result.errors.map((e) => `${e.field} ${e.message}`).join('; ');
      throw badRequest(`The request does not match the contract: ${summary}`, result.errors);
    }
    const body = await operation.handler(result.value, requestContext(ctx, deps));
    const status = operation.status ?? 200;
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
export function contractRouter(deps: AppDeps, registered: RegisteredOperation[]): Router {
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
    router.register(koaPath(contract.path), [contract.method.toUpperCase()], [handle(contract, operation, deps)], {
      name: contract.operationId,
    });
    byId.delete(contract.operationId);
  }
  const orphans = [...byId.keys()];
  if (orphans.length) throw new Error(`Handlers without a contract operation: ${orphans.join(', ')}`);
  return router;
}
