// oidc-provider 9 ships no type declarations: these describe only the parts Paybench uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  import type Koa from 'koa';

  export type UnknownObject = Record<string, unknown>;

  /** What the provider stores per model; the adapter reads a few well-known members. */
  export interface AdapterPayload extends UnknownObject {
    jti?: string;
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string, claims: UnknownObject, rejected: string[]): Promise<UnknownObject> | UnknownObject;
  }

  export interface Client {
    clientId: string;
    clientName?: string;
    applicationType?: string;
    clientAuthMethod: string;
    redirectUris: string[];
    grantTypeAllowed(type: string): boolean;
  }

  export interface Session {
    accountId?: string;
    uid: string;
    state?: { secret?: string } & UnknownObject;
  }

  export interface ResourceServerInfo {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'opaque' | 'jwt';
    jwt?: { sign?: { alg?: string } };
  }

  export interface OIDCContext {
    readonly route: string;
    readonly client?: Client;
    readonly session: Session;
    readonly params?: UnknownObject;
    readonly issuer: string;
    readonly entities: { RotatedRefreshToken?: TokenLike } & UnknownObject;
    urlFor(name: string, params?: Record<string, string>): string;
  }

  export type KoaContextWithOIDC = Koa.ParameterizedContext & { oidc: OIDCContext };

  /** The token-like argument of ttl, expiresWithSession and extraTokenClaims callbacks. */
  export interface TokenLike {
    kind: string;
    accountId?: string;
    clientId?: string;
    /** The provider session the token was issued in (tokens of the device flow and codes have one too). */
    sessionUid?: string;
    scopes: Set<string>;
    remainingTTL: number;
    isSenderConstrained?(): boolean;
  }

  export interface PromptDetail {
    name: string;
    reasons: string[];
    details: UnknownObject;
  }

  export interface Interaction {
    uid: string;
    returnTo: string;
    prompt: PromptDetail;
    params: UnknownObject;
    session?: { accountId: string; uid?: string };
    grantId?: string;
    deviceCode?: string;
    lastSubmission?: InteractionResults;
  }

  export interface InteractionResults {
    login?: { accountId: string; remember?: boolean; amr?: string[]; acr?: string; ts?: number };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
  }

  /** The stored interaction itself, for finishing it where its cookie does not reach (a return from another provider). */
  export interface InteractionInstance extends Interaction {
    exp: number;
    result?: InteractionResults;
    save(ttl: number): Promise<string>;
  }

  export interface InteractionConstructor {
    find(uid: string): Promise<InteractionInstance | undefined>;
  }

  export interface GrantInstance {
    readonly jti: string;
    readonly accountId: string;
    readonly clientId: string;
    addOIDCScope(scope: string): void;
    addResourceScope(indicator: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface GrantConstructor {
    new (properties: { accountId: string; clientId: string }): GrantInstance;
    find(id: string): Promise<GrantInstance | undefined>;
  }

  export interface ErrorOut {
    error: string;
    error_description?: string;
    state?: string;
  }

  export type ClientMetadata = UnknownObject & { client_id: string };

  type Ttl = number | ((ctx: KoaContextWithOIDC, token: TokenLike, client: Client) => number);

  export interface Configuration {
    adapter: (name: string) => Adapter;
    clients: ClientMetadata[];
    jwks: { keys: UnknownObject[] };
    cookies: {
      keys: string[];
      names?: { session?: string; interaction?: string; resume?: string };
      long?: UnknownObject;
      short?: UnknownObject;
    };
    routes: Record<string, string>;
    scopes: string[];
    extraParams: string[];
    claims: Record<string, string[] | null>;
    conformIdTokenClaims: boolean;
    responseTypes: string[];
    clientAuthMethods: string[];
    pkce: { required: (ctx: KoaContextWithOIDC, client: Client) => boolean };
    findAccount: (ctx: KoaContextWithOIDC, sub: string, token?: unknown) => Promise<Account | undefined>;
    extraTokenClaims: (ctx: KoaContextWithOIDC, token: TokenLike) => Promise<UnknownObject | undefined>;
    expiresWithSession: (ctx: KoaContextWithOIDC, token: TokenLike) => Promise<boolean>;
    issueRefreshToken: (ctx: KoaContextWithOIDC, client: Client, code: TokenLike) => Promise<boolean>;
    rotateRefreshToken: boolean;
    clientBasedCORS: (ctx: KoaContextWithOIDC, origin: string, client: Client) => boolean;
    renderError: (ctx: KoaContextWithOIDC, out: ErrorOut, error: Error) => Promise<void>;
    ttl: Record<string, Ttl>;
    features: {
      devInteractions: { enabled: boolean };
      dPoP: { enabled: boolean };
      pushedAuthorizationRequests: { enabled: boolean };
      revocation: {
        enabled: boolean;
        allowedPolicy?: (ctx: KoaContextWithOIDC, client: Client, token: TokenLike) => Promise<boolean>;
      };
      userinfo: { enabled: boolean };
      rpInitiatedLogout: {
        enabled: boolean;
        logoutSource: (ctx: KoaContextWithOIDC, form: string) => Promise<void>;
        postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => Promise<void>;
      };
      deviceFlow: {
        enabled: boolean;
        charset?: 'base-20' | 'digits';
        mask?: string;
        userCodeInputSource: (ctx: KoaContextWithOIDC, form: string, out?: ErrorOut, err?: Error) => Promise<void>;
        userCodeConfirmSource: (
          ctx: KoaContextWithOIDC,
          form: string,
          client: Client,
          deviceInfo: UnknownObject,
          userCode: string,
        ) => Promise<void>;
        successSource: (ctx: KoaContextWithOIDC) => Promise<void>;
      };
      resourceIndicators: {
        enabled: boolean;
        defaultResource: (ctx: KoaContextWithOIDC, client: Client, oneOf?: string[]) => Promise<string | string[] | undefined>;
        useGrantedResource: (ctx: KoaContextWithOIDC, model: unknown) => Promise<boolean>;
        getResourceServerInfo: (ctx: KoaContextWithOIDC, resourceIndicator: string, client: Client) => Promise<ResourceServerInfo>;
      };
    };
  }

  export default class Provider extends Koa {
    constructor(issuer: string, configuration: Partial<Configuration>);
    readonly issuer: string;
    readonly Grant: GrantConstructor;
    readonly Interaction: InteractionConstructor;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
    SessionNotFound: new (description?: string) => Error;
  };
}
