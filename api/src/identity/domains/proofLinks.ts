import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import { type Caller, companyScope } from '../../access/caller.js';
import { hashToken } from '../../access/tokens.js';
import { newId } from '../../db/ids.js';
import type { AppDeps } from '../../deps.js';
import { HttpError, found } from '../../kernel/errors.js';
import { isTooLarge, send } from '../provider/interactions.js';
import { domainProofPage, domainProofUsedPage, domainProvenPage, errorPage } from '../provider/pages.js';
import { emit } from '../../platform/events.js';
import { isFreeMail } from './freeMail.js';
import { heldElsewhere, prove } from './service.js';
import { type CompanyDomainRow, findClaim } from './store.js';

declare module '../../platform/events.js' {
  interface DomainEvents {
    'company_domain.proof_link_sent': { domain: string; sentTo: string };
  }
}

/** A link proves the domain for a day after it is sent. */
export const PROOF_LINK_TTL_MS = 24 * 60 * 60_000;
/** Links a company may send in a day: enough to try another mailbox, too few to flood a domain. */
export const PROOF_LINKS_PER_DAY = 5;
const DAY_MS = 24 * 60 * 60_000;

export const PROOF_LINK_PATH = /^\/domain-proof\/([A-Za-z0-9_-]{1,128})$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;
// The dot-atom of RFC 5322 (no quoted local parts): what an admin types before "@domain".
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

interface ProofLinkRow {
  id: string;
  company_domain_id: string;
  company_id: string;
  domain: string;
  claim_token: string;
  email: string;
  token_hash: string;
  requested_by: string | null;
  created_at: string | Date;
  expires_at: string | Date;
  used_at: string | Date | null;
}

const links = (db: Knex) => db<ProofLinkRow>('company_domain_proof_links');

function checkedLocalPart(input: string): string {
  const localPart = input.trim();
  if (localPart.length <= 64 && LOCAL_PART.test(localPart)) return localPart;
  const message = 'must be the part of an address before the @, such as it or jane.doe';
  throw new HttpError(400, 'validation_failed', { message: `The address before @ is not valid: it ${message}.`, errors: [{ field: 'body.localPart', message }] });
}

/** At most PROOF_LINKS_PER_DAY links a day per company, counted in the database so every node agrees. */
async function checkSendingLimit(db: Knex, companyId: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  const recent = await links(db).where('company_id', companyId).where('created_at', '>', since).orderBy('created_at').select('created_at');
  if (recent.length < PROOF_LINKS_PER_DAY) return;
  const freeAt = new Date(recent[recent.length - PROOF_LINKS_PER_DAY]!.created_at).getTime() + DAY_MS;
  throw new HttpError(429, 'rate_limited', {
    message: `Your company already sent ${PROOF_LINKS_PER_DAY} domain proof links in the last 24 hours. Check the inbox (and spam folder) the last one went to, or try again later.`,
    headers: { 'Retry-After': String(Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000))) },
  });
}

/** Why a claim cannot be proven by link now, in words; undefined when it can. */
async function unprovable(db: Knex, row: CompanyDomainRow): Promise<HttpError | undefined> {
  if (row.status === 'proven') return new HttpError(409, 'domain_proven', { message: `${row.domain} is already proven.` });
  if (isFreeMail(row.domain)) return new HttpError(400, 'domain_not_allowed', { message: `${row.domain} is a public e-mail service: anyone can have an address there, so no company can claim it.` });
  const blocked = await heldElsewhere(db, row.company_id, row.domain);
  return blocked ? new HttpError(409, 'domain_taken', { message: blocked }) : undefined;
}

function proofEmail(input: { domain: string; companyName: string; requestedBy: string; link: string; expiresAt: Date }): { subject: string; text: string } {
  return {
    subject: `Confirm that ${input.companyName} controls ${input.domain} on Paybench`,
    text:
      `Hello,\n\n` +
      `${input.requestedBy}, an admin of ${input.companyName} on Paybench, asked us to send this link to an address at ${input.domain}. ` +
      `Opening it and confirming proves that ${input.companyName} controls ${input.domain} (the link works once, until ${input.expiresAt.toUTCString()}):\n${input.link}\n\n` +
      `If you do not know ${input.companyName} or did not expect this, ignore this e-mail: nothing changes.\n`,
  };
}

/**
 * Sends a one-time link to `localPart@domain` of a pending claim; opening it there proves the domain.
 * Earlier unused links of the claim stop working. The secret is stored only hashed.
 */
export async function sendDomainProofLink(ctx: { deps: Pick<AppDeps, 'db' | 'config' | 'mailer'>; caller: Caller }, claimId: string, input: { localPart: string }): Promise<{ sentTo: string; expiresAt: string }> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const row = found(await findClaim(deps.db, scope, claimId));
  const refusal = await unprovable(deps.db, row);
  if (refusal) throw refusal;
  const sentTo = `${checkedLocalPart(input.localPart)}@${row.domain}`;
  const now = new Date();
  await checkSendingLimit(deps.db, scope.companyId, now);
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + PROOF_LINK_TTL_MS);
  await deps.db.transaction(async (trx) => {
    await links(trx).where('company_domain_id', row.id).whereNull('used_at').update({ used_at: now.toISOString() });
    await links(trx).insert({
      id: newId(),
      company_domain_id: row.id,
      company_id: row.company_id,
      domain: row.domain,
      claim_token: row.token,
      email: sentTo,
      token_hash: hashToken(secret),
      requested_by: caller.userId,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      used_at: null,
    });
  });
  const company = await deps.db('companies').where('id', scope.companyId).first<{ name: string }>('name');
  const link = `${deps.config.publicUrl.replace(/\/+$/, '')}/domain-proof/${secret}`;
  const requestedBy = `${caller.firstName} ${caller.lastName}`.trim() || caller.email;
  await deps.mailer.send({ companyId: scope.companyId, to: sentTo, ...proofEmail({ domain: row.domain, companyName: company.name, requestedBy, link, expiresAt }) });
  await emit(deps.db, { companyId: scope.companyId, actorUserId: caller.userId, name: 'company_domain.proof_link_sent', subjectType: 'company_domain', subjectId: row.domain, payload: { domain: row.domain, sentTo } });
  return { sentTo, expiresAt: expiresAt.toISOString() };
}

interface OpenLink {
  link: ProofLinkRow;
  claim: CompanyDomainRow;
  companyName: string;
  requestedBy: string | null;
}

/** The link a secret opens: unused, unexpired, and its claim still the pending one it was sent for. */
async function findOpenLink(db: Knex, secret: string, now = new Date()): Promise<OpenLink | undefined> {
  if (!SECRET.test(secret)) return undefined;
  const link = await links(db).where('token_hash', hashToken(secret)).whereNull('used_at').first();
  if (!link || new Date(link.expires_at).getTime() <= now.getTime()) return undefined;
  const claim = await findClaim(db, { companyId: link.company_id }, link.company_domain_id);
  if (!claim || claim.status !== 'pending' || claim.token !== link.claim_token) return undefined;
  const company = await db('companies').where('id', link.company_id).first<{ name: string }>('name');
  const asker = link.requested_by ? await db('users').where('id', link.requested_by).first<{ first_name: string; last_name: string; email: string } | undefined>('first_name', 'last_name', 'email') : undefined;
  const requestedBy = asker ? `${asker.first_name} ${asker.last_name}`.trim() || asker.email : null;
  return { link, claim, companyName: company.name, requestedBy };
}

/** Uses the link (false when it was used meanwhile) and proves its claim. */
async function useLink(db: Knex, open: OpenLink): Promise<boolean> {
  const used = await links(db).where('id', open.link.id).whereNull('used_at').update({ used_at: new Date().toISOString() });
  if (used !== 1) return false;
  await prove(db, { userId: null }, open.claim, 'email_link');
  return true;
}

/**
 * The page a proof e-mail links to (GET shows what confirming does, POST proves): server-rendered,
 * for whoever holds the mailbox, signed in or not. Another company holding the domain meanwhile
 * leaves the claim pending and says why.
 */
export function domainProofRoutes(deps: AppDeps): Middleware {
  const homeUrl = `${deps.config.publicUrl.replace(/\/+$/, '')}/`;
  return async (ctx, next) => {
    const secret = PROOF_LINK_PATH.exec(ctx.path)?.[1];
    if (!secret || (ctx.method !== 'GET' && ctx.method !== 'POST')) return next();
    // The secret is in the address: it must not travel on in a Referer.
    ctx.set('Referrer-Policy', 'no-referrer');
    try {
      const open = await findOpenLink(deps.db, secret);
      if (!open) return send(ctx, domainProofUsedPage(homeUrl));
      if (ctx.method === 'GET') {
        return send(ctx, domainProofPage({ path: ctx.path, domain: open.claim.domain, companyName: open.companyName, email: open.link.email, requestedBy: open.requestedBy }));
      }
      const refusal = await unprovable(deps.db, open.claim);
      if (refusal) return send(ctx, errorPage(homeUrl, refusal.message, refusal.status));
      const proven = await deps.db.transaction((trx) => useLink(trx, open));
      if (!proven) return send(ctx, domainProofUsedPage(homeUrl));
      deps.log.info({ companyId: open.claim.company_id, domain: open.claim.domain }, 'domain proven by link');
      send(ctx, domainProvenPage(homeUrl, open.claim.domain, open.companyName));
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) return send(ctx, errorPage(homeUrl, error.message, 409));
      if (isTooLarge(error)) return send(ctx, errorPage(homeUrl, 'The form was too large to read.', 413));
      deps.log.error({ err: error }, 'domain proof page failed');
      send(ctx, errorPage(homeUrl, 'Please wait a moment and try again.', 500));
    }
  };
}
