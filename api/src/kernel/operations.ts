import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { QueryDefaults } from '../contract-defaults.js';
import type { operations } from '../contract-types.js';
import type { Caller } from '../access/caller.js';
import type { Authority, PermissionName } from '../access/permissions.js';
import type { AppDeps } from '../deps.js';
import type { UploadedFile } from '../http/body.js';
import type { IdentityProvider } from '../access/identityProvider.js';

export type OperationId = keyof operations;
type Operation<K extends OperationId> = operations[K];

// openapi-typescript types `format: binary` as string; a body that may be a spreadsheet is how the types tell a file upload.
type JsonOf<T> = T extends { content: { 'application/json': infer Body } }
  ? Body
  : T extends { content: { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': unknown } }
    ? UploadedFile
    : T extends { content: { 'text/csv': infer Text } }
      ? Text
      : never;
/** A JSON body, a stream of events, or a file/stream for responses the contract declares with another media type. */
type BodyOf<T> = T extends { content: { 'application/json': infer Body } }
  ? Body
  : T extends { content: { 'text/event-stream': unknown } }
    ? EventStreamResponse
    : T extends { content: object }
      ? RawResponse
      : never;
type Responses<K extends OperationId> = Operation<K>['responses'];
type SuccessStatus = 200 | 201 | 202;

/** The JSON body of the operation's success response(s), as the contract declares it. */
export type SuccessBody<K extends OperationId> = {
  [S in keyof Responses<K>]: S extends SuccessStatus ? BodyOf<Responses<K>[S]> : S extends 302 ? RedirectResponse : never;
}[keyof Responses<K>];

type ParametersOf<K extends OperationId> = Operation<K> extends { parameters: infer P } ? P : never;
type Part<P, Name extends string> = P extends { [key in Name]?: infer V } ? V : undefined;
type RequestBodyOf<K extends OperationId> = Operation<K> extends { requestBody: infer B }
  ? JsonOf<B>
  : Operation<K> extends { requestBody?: infer B }
    ? JsonOf<NonNullable<B>> | undefined
    : undefined;

/** Query parameters with the contract's defaults present (the router's validation filled them in). */
type WithDefaults<Query, K extends OperationId> = K extends keyof QueryDefaults
  ? Omit<Query, QueryDefaults[K] & keyof Query> & { [P in QueryDefaults[K] & keyof Query]-?: Exclude<Query[P], undefined> }
  : Query;

/** What a handler receives: already validated against the contract, defaults applied. */
export interface OperationInput<K extends OperationId> {
  path: NonNullable<Part<ParametersOf<K>, 'path'>>;
  query: WithDefaults<NonNullable<Part<ParametersOf<K>, 'query'>>, K>;
  body: RequestBodyOf<K>;
  headers: NonNullable<Part<ParametersOf<K>, 'header'>>;
}

/** A response that is a file, streamed as it is read. */
export class RawResponse {
  constructor(
    readonly body: Readable,
    readonly contentType: string,
    readonly filename: string,
    readonly sizeBytes: number,
  ) {}
}

/** A `302` to where the file is fetched from directly (a short-lived signed URL of the object store). */
export class RedirectResponse {
  constructor(readonly location: string) {}
}

/** Where an event stream writes: `send` one Server-Sent Event; `closed` once the client went away. */
export interface EventStreamSink {
  send(event: string, data: unknown): void;
  readonly closed: boolean;
}

/**
 * A `text/event-stream` answer: the router sends the headers, then runs `produce` after the
 * handler's transaction has ended. `inCompany` runs database work the way the handler's did (a
 * tenant transaction of its own on Postgres), so a long stream holds no transaction open.
 */
export class EventStreamResponse {
  constructor(readonly produce: (sink: EventStreamSink, inCompany: <T>(work: (db: Knex) => Promise<T>) => Promise<T>) => Promise<void>) {}
}

/** Everything a handler may use about the request it serves. */
export interface RequestContext {
  /** The database the request acts in: on Postgres, for a caller with a company, its tenant transaction (and so is `deps.db`). */
  db: Knex;
  /** On Postgres, for a caller with a company, `deps.db` is the request's tenant transaction. */
  deps: AppDeps;
  log: Logger;
  requestId: string;
  koa: Context;
  /** On a public operation that accepts a caller (`security: [{}, bearer]`): who sent the token, if anyone did. */
  caller?: Caller;
  /** Where people sign in: the built-in provider or an external issuer (absent in router unit tests). */
  identity: IdentityProvider | undefined;
  /**
   * Work for after the handler's writes are committed (e-mail about them, say); it runs before the
   * response is sent, and its failure is logged without changing the response.
   */
  afterCommit(task: () => Promise<unknown>): void;
}

/** A request whose caller has been authenticated and authorized. */
export interface SecuredContext extends RequestContext {
  caller: Caller;
}

/**
 * What a service is called with, first, always: the database to act in, who acts, the app's
 * long-lived parts and work for after the commit. A handler passes its own context; a service names
 * the parts it uses (`Pick<ServiceContext, 'db' | 'caller'>`), so that a job, another service or a
 * test passes only those (`{ db: trx, caller }`).
 */
export type ServiceContext = Pick<SecuredContext, 'db' | 'caller' | 'deps' | 'afterCommit'>;

/**
 * Who may call an operation. Every operation declares one; the contract's `security: []`
 * must agree with `public`, which the router checks for every operation at start-up.
 * - signedIn: any authenticated person, even before they have a company
 * - member: a person of a company (candidates included)
 * - colleague: a person of a company who is not a candidate (a candidate reads only their offer)
 * - permission: a person whose roles grant the permission (edit implies view)
 * - internalAdmin: internal staff (isInternalAdmin)
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'signedIn' }
  | { kind: 'member' }
  | { kind: 'colleague' }
  | { kind: 'permission'; permission: PermissionName; authority: Authority }
  | { kind: 'internalAdmin' };

type SecuredAccess = Exclude<Access, { kind: 'public' }>;

export interface OperationDefinition<K extends OperationId> {
  operationId: K;
  access: { kind: 'public' };
  /** Success status when the contract declares more than one. */
  status?: SuccessStatus;
  handler: (input: OperationInput<K>, ctx: RequestContext) => Promise<SuccessBody<K>>;
  /** Where the response declares an ETag: the version it names, when that is not `data.version`. */
  etag?: (body: SuccessBody<K>) => number;
}

export interface SecuredOperationDefinition<K extends OperationId> {
  operationId: K;
  access: SecuredAccess;
  status?: SuccessStatus;
  handler: (input: OperationInput<K>, ctx: SecuredContext) => Promise<SuccessBody<K>>;
  etag?: (body: SuccessBody<K>) => number;
  /**
   * The answer this node keeps for the request, looked up before the request's transaction is begun
   * (on Postgres a tenant transaction holds a pooled connection, and a kept answer needs none);
   * undefined when there is none now, and the handler answers. It reads nothing: its `deps.db`
   * refuses every use. What it answers is what the handler would answer, access checks included.
   */
  kept?: (input: OperationInput<K>, ctx: SecuredContext) => Promise<SuccessBody<K> | undefined>;
}

/** Type-erased form kept by the router; the typed form above is checked where it is declared. */
export interface RegisteredOperation {
  operationId: OperationId;
  access: Access;
  status?: SuccessStatus;
  handler: (input: { path: unknown; query: unknown; body: unknown; headers: unknown }, ctx: SecuredContext) => Promise<unknown>;
  etag?: (body: unknown) => number;
  kept?: (input: { path: unknown; query: unknown; body: unknown; headers: unknown }, ctx: SecuredContext) => Promise<unknown>;
}

/** A public operation (the contract says `security: []`). */
export function operation<K extends OperationId>(definition: OperationDefinition<K>): RegisteredOperation {
  return definition as unknown as RegisteredOperation;
}

/** An operation that needs an authenticated caller with the declared access. */
export function secured<K extends OperationId>(definition: SecuredOperationDefinition<K>): RegisteredOperation {
  return definition as unknown as RegisteredOperation;
}

/**
 * Operations that, for a caller with a company, still run as the connecting role on Postgres rather
 * than in a tenant transaction, and why. Internal-admin operations always do (reaching every company
 * is their point) and public ones have no company. Keep this short: everything else runs under
 * row-level security.
 */
export const CONNECTING_ROLE_OPERATIONS: Partial<Record<OperationId, string>> = {
  createUser: 'looks up the e-mail address among all companies (emailsWithAccounts would answer it under row security)',
  importUsers: 'looks up the e-mail addresses among all companies (emailsWithAccounts would answer it under row security)',
  listCompanyDomains: "a claim is disputed when another company claims the domain or has people at it: it reads every company's claims and accounts at the domain",
  claimCompanyDomain: "a domain is one company's: claiming refuses a domain another company has people at or holds proven",
  checkCompanyDomain: "a domain is one company's: proving refuses a domain another company has people at or holds proven",
  createSsoConnection: "a domain is one company's: registering claims its domains, refusing one another company has people at or holds proven",
  updateSsoConnection: "a domain is one company's: registering claims its domains, refusing one another company has people at or holds proven",
};

/**
 * Operations answered from the authenticated caller alone, and why: they read nothing, so no tenant
 * transaction is begun for them (on Postgres two round trips fewer: BEGIN with its settings, and
 * COMMIT). Their handler's `deps.db` refuses every use, so one that starts to read cannot do it
 * outside row-level security unnoticed: it moves off this list instead.
 */
export const CALLER_ONLY_OPERATIONS: Partial<Record<OperationId, string>> = {
  getAuthenticatedPerson: 'the person, their roles, permissions, modules and flags are the authenticated caller itself',
};

export const publicAccess = { kind: 'public' } as const;
export const signedIn = { kind: 'signedIn' } as const;
export const member = { kind: 'member' } as const;
export const colleague = { kind: 'colleague' } as const;
export const internalAdmin = { kind: 'internalAdmin' } as const;
export const can = (permission: PermissionName, authority: Authority) => ({ kind: 'permission', permission, authority }) as const;
