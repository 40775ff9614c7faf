import type { Knex } from 'knex';
import { type Caller, companyScope } from '../../access/caller.js';
import type { components } from '../../contract-types.js';
import { newId } from '../../db/ids.js';
import { HttpError, found } from '../../kernel/errors.js';
import { updateAtVersion, versionOf } from '../../kernel/versions.js';
import type { AppDeps } from '../../deps.js';
import { sealText, secretsKey, unsealText } from '../../kernel/secrets.js';
import { emit } from '../../platform/events.js';
import { discoverProvider, parseIssuer, privateNetworksAllowed, ProviderUnreachable } from './provider.js';
import { presentConnection } from './present.js';
import { claim } from '../domains/service.js';
import { FREE_MAIL_DOMAINS } from '../domains/freeMail.js';
import { linkToConnection } from '../domains/store.js';
import { connectionRow, deleteConnection, domainsOfCompany, findConnection, insertConnection, listConnections, type SsoConnectionWithDomains } from './store.js';

type SsoConnection = components['schemas']['SsoConnection'];
type SsoConnectionInput = components['schemas']['SsoConnectionInput'];
type SsoConnectionPatch = components['schemas']['SsoConnectionPatch'];

declare module '../../platform/events.js' {
  interface DomainEvents {
    /** A company registered or changed its enterprise sign-in provider (never the secret). */
    'sso.connection_saved': { issuerUrl: string; domains: string[]; enabled: boolean; created: boolean };
    'sso.connection_removed': { issuerUrl: string; domains: string[] };
    /** Someone signed in through their company's provider for the first time and was made an employee. */
    'sso.account_provisioned': { connectionId: string };
  }
}

type Deps = Pick<AppDeps, 'db' | 'config'>;

/** `@BigCo.com ` → `bigco.com`; each once, in order. */
export function normaliseDomains(domains: string[]): string[] {
  const out: string[] = [];
  for (const domain of domains) {
    const clean = domain.trim().toLowerCase().replace(/^@/, '');
    if (!out.includes(clean)) out.push(clean);
  }
  return out;
}

const refused = (code: string, message: string, field: string): HttpError =>
  new HttpError(400, code, { message, errors: [{ field, message }] });

function checkDomains(domains: string[]): void {
  const shared = domains.find((domain) => FREE_MAIL_DOMAINS.has(domain));
  if (shared) throw refused('domain_not_allowed', `${shared} is a public e-mail service: anyone can have an address there, so it cannot be routed to your company's sign-in.`, 'body.domains');
}

/** Reads the provider's discovery document with the client's credentials; refusals in words. */
async function verifyProvider(issuerUrl: string, clientId: string, clientSecret: string): Promise<string> {
  if (!parseIssuer(issuerUrl)) {
    const rule = privateNetworksAllowed() ? 'an https:// or http:// address' : 'an https:// address';
    throw refused('issuer_invalid', `The issuer URL must be ${rule} without a query, like https://login.bigco.com.`, 'body.issuerUrl');
  }
  try {
    const config = await discoverProvider({ issuerUrl, clientId, clientSecret });
    return config.serverMetadata().issuer;
  } catch (error) {
    if (error instanceof ProviderUnreachable) {
      throw refused('provider_unreachable', `We could not reach your sign-in provider: ${error.message}. Check the issuer URL and that the provider is online, then try again.`, 'body.issuerUrl');
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw refused('provider_invalid', `${issuerUrl} did not answer as an OpenID provider (${reason}). Check the issuer URL: it is the address whose /.well-known/openid-configuration describes the provider.`, 'body.issuerUrl');
  }
}

/**
 * Links the connection's domains: each is claimed for the company (identity/domains: refused when
 * another company has people at it or holds it proven) and routes nobody until the company proves
 * it. A domain on another of the company's connections is 409 `domain_taken`, naming it.
 */
async function writeDomains(db: Knex, caller: Caller, connectionId: string, domains: string[]): Promise<void> {
  const scope = companyScope(caller);
  const own = await domainsOfCompany(db, scope);
  const elsewhere = domains.find((domain) => own.has(domain) && own.get(domain) !== connectionId);
  if (elsewhere) throw new HttpError(409, 'domain_taken', { message: `${elsewhere} is already routed to another of your company's sign-in providers.` });
  for (const domain of domains) await claim(db, caller, domain);
  await linkToConnection(db, scope, connectionId, domains);
}

export async function listSsoConnections(ctx: { deps: Deps; caller: Caller }): Promise<SsoConnection[]> {
  const { deps, caller } = ctx;
  return (await listConnections(deps.db, companyScope(caller))).map((row) => presentConnection(row, deps.config.publicUrl));
}

export async function getSsoConnection(ctx: { deps: Deps; caller: Caller }, id: string): Promise<SsoConnection> {
  const { deps, caller } = ctx;
  return presentConnection(found(await findConnection(deps.db, companyScope(caller), id)), deps.config.publicUrl);
}

export async function createSsoConnection(ctx: { deps: Deps; caller: Caller }, input: SsoConnectionInput): Promise<SsoConnection> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const domains = normaliseDomains(input.domains);
  checkDomains(domains);
  const issuerUrl = await verifyProvider(input.issuerUrl.trim(), input.clientId.trim(), input.clientSecret);
  const key = secretsKey(deps.config.dataDir);
  const id = newId();
  const now = new Date().toISOString();
  const enabled = input.enabled ?? true;
  await deps.db.transaction(async (trx) => {
    await insertConnection(trx, {
      id,
      company_id: scope.companyId,
      issuer_url: issuerUrl,
      client_id: input.clientId.trim(),
      client_secret_sealed: sealText(key, input.clientSecret),
      enabled,
      verified_at: now,
      created_at: now,
      updated_at: now,
    });
    await writeDomains(trx, caller, id, domains);
    await emit(trx, {
      companyId: scope.companyId,
      actorUserId: caller.userId,
      name: 'sso.connection_saved',
      subjectType: 'sso_connection',
      subjectId: id,
      payload: { issuerUrl, domains, enabled, created: true },
    });
  });
  return getSsoConnection({ deps, caller }, id);
}

/** The stored client secret, or 400 when it was sealed under another key (it must be entered again). */
function storedSecret(deps: Deps, row: SsoConnectionWithDomains): string {
  const secret = unsealText(secretsKey(deps.config.dataDir), row.client_secret_sealed);
  if (secret === undefined) throw refused('secret_unreadable', 'The stored client secret cannot be read on this server (the secrets key changed). Enter the client secret again.', 'body.clientSecret');
  return secret;
}

export async function updateSsoConnection(ctx: { deps: Deps; caller: Caller }, id: string, ifMatch: string, patch: SsoConnectionPatch): Promise<SsoConnection> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const current = found(await findConnection(deps.db, scope, id));
  const domains = patch.domains ? normaliseDomains(patch.domains) : current.domains;
  checkDomains(domains);
  const clientId = patch.clientId?.trim() ?? current.client_id;
  const providerChanged = patch.issuerUrl !== undefined || patch.clientId !== undefined || patch.clientSecret !== undefined;
  const clientSecret = patch.clientSecret ?? (providerChanged ? storedSecret(deps, current) : undefined);
  // A changed provider (or its secret) is checked again, as when it was registered.
  const issuerUrl = providerChanged && clientSecret !== undefined ? await verifyProvider((patch.issuerUrl ?? current.issuer_url).trim(), clientId, clientSecret) : current.issuer_url;
  const now = new Date().toISOString();
  const enabled = patch.enabled ?? Boolean(current.enabled);
  await deps.db.transaction(async (trx) => {
    const changes: Record<string, unknown> = { issuer_url: issuerUrl, client_id: clientId, enabled, updated_at: now };
    if (patch.clientSecret !== undefined) changes.client_secret_sealed = sealText(secretsKey(deps.config.dataDir), patch.clientSecret);
    if (providerChanged) changes.verified_at = now;
    await updateAtVersion(() => connectionRow(trx, scope, id), version, changes, 'this sign-in provider');
    if (patch.domains) await writeDomains(trx, caller, id, domains);
    await emit(trx, {
      companyId: scope.companyId,
      actorUserId: caller.userId,
      name: 'sso.connection_saved',
      subjectType: 'sso_connection',
      subjectId: id,
      payload: { issuerUrl, domains, enabled, created: false },
    });
  });
  return getSsoConnection({ deps, caller }, id);
}

export async function deleteSsoConnection(ctx: { deps: Deps; caller: Caller }, id: string): Promise<SsoConnection> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const current = found(await findConnection(deps.db, scope, id));
  await deps.db.transaction(async (trx) => {
    await deleteConnection(trx, scope, id);
    await emit(trx, {
      companyId: scope.companyId,
      actorUserId: caller.userId,
      name: 'sso.connection_removed',
      subjectType: 'sso_connection',
      subjectId: id,
      payload: { issuerUrl: current.issuer_url, domains: current.domains },
    });
  });
  return presentConnection(current, deps.config.publicUrl);
}
