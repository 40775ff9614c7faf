import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { flagDefaults } from '../access/flags.js';
import { flagOverrides } from '../access/store.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { initialsOf } from '../documents/content.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import type { RawResponse } from '../kernel/operations.js';
import { versionConflict, versionOf } from '../kernel/versions.js';
import { normaliseEmail } from '../access/users.js';
import { findJob } from '../bands/store.js';
import { findLocation } from '../reference/catalog/index.js';
import { today } from '../money/converter.js';
import { minorUnitOf } from '../money/minorUnits.js';
import { candidateForOffer, hireFromOffer } from '../people/offerHire.js';
import { activeManager } from './hire.js';
import { storedSettings } from '../totalRewards/settings.js';
import { transition } from '../workflow/service.js';
import { type EquityPrices, parseAlternatives, parsePackage, presentPackage } from './package.js';
import { letterPdf } from './pdf.js';
import { type OfferAcceptanceRecord, presentAcceptance, stateOf } from './present.js';
import { type OfferContext, actorFor, announce, detail, expireDue, pricesOf, requireOffer, subjectOf, writeOffer } from './service.js';
import { type LetterLinkRow, type OfferRow, findLinkByHash, findOffer, insertLink, offersToEmail, revokeLinks } from './store.js';
import { CANDIDATE_ACTOR, CLOSED_STATES, offerWorkflow } from './workflow.js';
import { postedRangeFor } from './postedRange.js';

type Schemas = components['schemas'];
type Letter = Schemas['OfferLetter'];

/*
 * The candidate's side. A letter token is 32 random bytes (base64url, prefixed `ol_`), stored only
 * as its SHA-256; it opens one thing — the letter of one sending of one offer — until its expiry.
 * Editing the offer revokes its links and a new sending makes a new one, so an old link never shows
 * a package the company no longer offers.
 */

const TOKEN_PREFIX = 'ol_';
/** A signed-in candidate's token, handed out by findOffersByEmail. */
const SIGNED_IN_TOKEN_MS = 24 * 60 * 60_000;

export const tokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** The end of the offer's expiry date (UTC): when it stops being open. */
const endOfDay = (date: string): Date => new Date(`${date}T23:59:59.999Z`);

async function mintLink(trx: Knex, scope: CompanyScope, row: OfferRow, expiresAt: Date): Promise<{ token: string; expiresAt: string }> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const link: LetterLinkRow = {
    id: newId(),
    company_id: scope.companyId,
    offer_id: row.id,
    token_hash: tokenHash(token),
    send_number: row.send_number,
    purpose: 'letter',
    expires_at: expiresAt.toISOString(),
    revoked_at: null,
    created_at: new Date().toISOString(),
  };
  await insertLink(trx, link);
  return { token, expiresAt: link.expires_at as string };
}

const letterUrl = (publicUrl: string, token: string): string => `${publicUrl.replace(/\/+$/, '')}/offer-letter/${token}`;

/** Sends an approved offer: a new sending with a new link, e-mailed to the candidate and answered once. */
export async function sendOffer(ctx: OfferContext, caller: Caller, id: string, ifMatch: string, comment: string | undefined): Promise<Schemas['OfferSent']> {
  const sent = await sendAt(ctx, caller, id, versionOf(ifMatch), comment);
  return { data: await detail(ctx.deps, ctx.deps.db, caller, sent.row), link: sent.link };
}

/** Sends the offer read at `version` and e-mails the candidate its link; the offer as stored and the link. */
export async function sendAt(ctx: OfferContext, caller: Caller, id: string, version: number, comment: string | undefined): Promise<{ row: OfferRow; link: Schemas['OfferSent']['link'] }> {
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  return db.transaction(async (trx) => {
    const row = await requireOffer(trx, scope, id);
    if (row.version !== version) throw versionConflict('this offer', row.version);
    const next = await transition(trx, scope, offerWorkflow, { subject: subjectOf(row), action: 'send', actor: caller, comment });
    if (row.expires_on < today()) throw badRequest('The offer’s expiry date has passed: change it before sending.', [{ field: 'expiresOn', message: 'is in the past' }]);
    const stored = await writeOffer(trx, scope, row, { state: next.state, send_number: row.send_number + 1, sent_at: next.at, updated_by: caller.userId });
    await revokeLinks(trx, scope, row.id, next.at);
    const link = await mintLink(trx, scope, stored, endOfDay(stored.expires_on));
    await announce(trx, scope, ctx, { row: stored, event: 'sent', actorUserId: caller.userId });
    const candidate = await candidateForOffer(trx, scope, stored.candidate_id);
    const { companyName } = await pricesOf(trx, scope);
    const url = letterUrl(ctx.deps.config.publicUrl, link.token);
    ctx.afterCommit(() =>
      ctx.deps.mailer.send({
        companyId: scope.companyId,
        to: stored.candidate_email,
        subject: `Your offer from ${companyName}`,
        text: `Dear ${candidate?.firstName ?? ''},\n\n${companyName} has made you an offer for ${stored.title}. Open your offer letter here:\n${url}\n\nThe link works until the end of ${stored.expires_on} (UTC).\n`,
      }),
    );
    return { row: stored, link: { url, token: link.token, expiresAt: link.expiresAt } };
  });
}

// ── reading a letter ───────────────────────────────────────────────────────────────────────

const CLOSED_MESSAGES: Record<string, string> = {
  accepted: 'This offer has been accepted: the letter no longer opens.',
  declined: 'This offer was declined: the letter no longer opens.',
  expired: 'This offer has expired: the letter no longer opens.',
  rescinded: 'This offer was withdrawn: the letter no longer opens.',
  hireCancelled: 'This offer was accepted and the hire later cancelled: the letter no longer opens.',
};

const closed = (state: string): HttpError => new HttpError(410, 'offer_closed', { message: CLOSED_MESSAGES[state] ?? 'This offer letter no longer opens.' });
const superseded = (): HttpError => new HttpError(410, 'link_superseded', { message: 'This link no longer works: the offer has changed. Ask the company for a new link.' });

async function offerLettersOn(db: Knex, companyId: string): Promise<boolean> {
  const overrides = await flagOverrides(db, { companyId });
  return overrides.get('offer_letters') ?? flagDefaults().offer_letters;
}

/**
 * The offer a token opens, in its company's scope, after expiring it if its date has passed.
 * Unknown tokens (and companies without offer letters) are 404; a link no longer valid, or a
 * letter that no longer opens, 410.
 */
async function openLink(ctx: OfferContext, token: string): Promise<{ scope: CompanyScope; row: OfferRow }> {
  const db = ctx.deps.db;
  const link = token.startsWith(TOKEN_PREFIX) ? await findLinkByHash(db, tokenHash(token)) : undefined;
  if (!link || link.purpose !== 'letter') throw notFound('This offer letter link is not valid.');
  const scope = { companyId: link.company_id };
  if (!(await offerLettersOn(db, scope.companyId))) throw notFound('This offer letter link is not valid.');
  let row = await findOffer(db, scope, link.offer_id);
  if (!row) throw notFound('This offer letter link is not valid.');
  if ((row.state === 'sent' || row.state === 'opened') && row.expires_on < today()) {
    await expireDue(db, scope, ctx);
    row = await requireOffer(db, scope, row.id);
  }
  if ((CLOSED_STATES as readonly string[]).includes(row.state)) throw closed(row.state);
  if (link.revoked_at || link.send_number !== row.send_number || (row.state !== 'sent' && row.state !== 'opened')) throw superseded();
  if (new Date(link.expires_at).getTime() < Date.now()) throw new HttpError(410, 'link_expired', { message: 'This link has expired. Ask the company for a new link.' });
  return { scope, row };
}

const candidateActor = (row: OfferRow): Caller => actorFor(`${CANDIDATE_ACTOR}${row.candidate_id}`, row.company_id);

async function presentLetter(db: Knex, scope: CompanyScope, row: OfferRow): Promise<Letter> {
  const prices: EquityPrices & { companyName: string } = await pricesOf(db, scope);
  const settings = await storedSettings(db, scope);
  const candidate = await candidateForOffer(db, scope, row.candidate_id);
  const alternatives = parseAlternatives(row.alternatives);
  const main = parsePackage(row.package);
  const anyEquity = [main, ...alternatives.map((alternative) => alternative.package)].some((pkg) => pkg.equity !== null);
  const micros = (value: number) => value / 1_000_000;
  const digits = 10 ** ((await minorUnitOf(db, prices.currency)) ?? 2);
  // What the job's posting told the candidate before the interview: open, or closed since.
  const posted = await postedRangeFor(db, scope, { jobFamilyId: row.job_family_id, levelId: row.level_id, locationId: row.location_id }, ['open', 'closed']);
  return {
    offerId: row.id,
    offerVersion: row.version,
    state: stateOf(row),
    company: {
      name: prices.companyName,
      brandColor: settings.appearance.brandColor,
      logoText: initialsOf(prices.companyName),
      logo: settings.appearance.logo ?? null,
      aboutUs: settings.sections.aboutUs.enabled ? settings.sections.aboutUs.text : null,
    },
    candidate: { firstName: candidate?.firstName ?? '', lastName: candidate?.lastName ?? '' },
    title: row.title,
    locationName: findLocation(row.location_id)?.paybenchLocationName ?? row.location_id,
    ...(posted ? { postedRange: { min: { amount: posted.min, currency: posted.currency }, max: { amount: posted.max, currency: posted.currency } } } : {}),
    startDate: row.start_date,
    expiresOn: row.expires_on,
    welcomeMessage: row.welcome_message,
    benefitsSummary: row.benefits_summary,
    packages: [
      { id: null, label: 'Offer', package: presentPackage(main, row.currency, prices) },
      ...alternatives.map((alternative) => ({ id: alternative.id, label: alternative.label, package: presentPackage(alternative.package, row.currency, prices) })),
    ],
    equityFacts:
      anyEquity && prices.sharePriceMicros > 0
        ? {
            pricePerShare: micros(prices.sharePriceMicros),
            currency: prices.currency,
            valuation: prices.valuationMinor === null ? null : prices.valuationMinor / digits,
            exercisePrice: prices.exercisePriceMicros === null ? null : micros(prices.exercisePriceMicros),
          }
        : null,
    acceptance: presentAcceptance(row, prices),
    declineReason: row.decline_reason,
  };
}

/** The letter; the first read opens the offer, every read counts as a view the recruiters see. */
export async function getLetter(ctx: OfferContext, token: string): Promise<Letter> {
  const { scope, row } = await openLink(ctx, token);
  const db = ctx.deps.db;
  const written = await db.transaction(async (trx) => {
    const current = await requireOffer(trx, scope, row.id);
    const now = new Date().toISOString();
    const views = { view_count: current.view_count + 1, last_viewed_at: now };
    if (current.state === 'sent') {
      const next = await transition(trx, scope, offerWorkflow, { subject: subjectOf(current), action: 'open', actor: candidateActor(current) });
      const stored = await writeOffer(trx, scope, current, { state: next.state, opened_at: next.at, ...views });
      await announce(trx, scope, ctx, { row: stored, event: 'opened', actorUserId: null });
      return stored;
    }
    // A view is not a change of the offer: its version stays, so a letter read does not stale the recruiter's edit.
    await trx('offers').where({ company_id: scope.companyId, id: current.id }).update(views);
    const stored = { ...current, ...views };
    await announce(trx, scope, ctx, { row: stored, event: 'viewed', actorUserId: null });
    return stored;
  });
  return presentLetter(db, scope, written);
}

/** The letter as the candidate sees it, for the company's own people (nothing recorded). */
export async function recruiterLetter(ctx: OfferContext, caller: Caller, id: string): Promise<Letter> {
  const scope = companyScope(caller);
  const row = await requireOffer(ctx.deps.db, scope, id);
  return presentLetter(ctx.deps.db, scope, row);
}

export async function getLetterPdf(ctx: OfferContext, token: string): Promise<RawResponse> {
  const { scope, row } = await openLink(ctx, token);
  return letterPdf(await presentLetter(ctx.deps.db, scope, row));
}

const sameName = (a: string, b: string): boolean => a.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase() === b.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

/** Accepts once: the typed name, the time, the exact version read and the package chosen; the hire follows. */
export async function acceptLetter(ctx: OfferContext, token: string, input: Schemas['OfferAcceptanceInput']): Promise<Letter> {
  const { scope, row } = await openLink(ctx, token);
  const db = ctx.deps.db;
  const candidate = await candidateForOffer(db, scope, row.candidate_id);
  const fullName = candidate ? `${candidate.firstName} ${candidate.lastName}` : '';
  const signature = input.signature.trim();
  if (!signature) throw badRequest('Type your full name to accept.', [{ field: 'body.signature', message: 'is required' }]);
  if (candidate && !sameName(signature, fullName)) {
    throw badRequest(`Type your full name as the offer names you: ${fullName.trim()}.`, [{ field: 'body.signature', message: 'does not match the name on the offer' }]);
  }
  const alternatives = parseAlternatives(row.alternatives);
  const chosen = input.alternativeId ? alternatives.find((alternative) => alternative.id === input.alternativeId) : undefined;
  if (input.alternativeId && !chosen) throw badRequest(`${input.alternativeId} is not one of this offer’s packages.`, [{ field: 'body.alternativeId', message: 'is not a package of this offer' }]);
  const written = await db.transaction(async (trx) => {
    const current = await requireOffer(trx, scope, row.id);
    if ((CLOSED_STATES as readonly string[]).includes(current.state)) throw closed(current.state);
    if (current.version !== input.offerVersion) throw versionConflict('this offer', current.version);
    const next = await transition(trx, scope, offerWorkflow, { subject: subjectOf(current), action: 'accept', actor: candidateActor(current) });
    const pkg = chosen ? chosen.package : parsePackage(current.package);
    const acceptance: OfferAcceptanceRecord = { signature, acceptedAt: next.at, offerVersion: current.version, alternativeId: chosen?.id ?? null, packageLabel: chosen?.label ?? 'Offer' };
    const prices = await pricesOf(trx, scope);
    const places = (await minorUnitOf(trx, prices.currency)) ?? 2;
    const hired = await hireFromOffer(trx, scope, {
      offerId: current.id,
      candidateId: current.candidate_id,
      email: current.candidate_email,
      firstName: candidate?.firstName ?? '',
      lastName: candidate?.lastName ?? '',
      title: current.title,
      companyJobId: current.company_job_id,
      jobCode: current.company_job_id ? ((await findJob(trx, scope, current.company_job_id))?.job_code ?? null) : null,
      jobFamilyId: current.job_family_id,
      levelId: current.level_id,
      track: current.track,
      department: current.department,
      countryCode: current.country_code,
      locationId: current.location_id,
      currency: current.currency,
      startDate: current.start_date,
      managerId: await activeManager(trx, scope, current.hiring_manager_id),
      ownerUserId: current.created_by,
      base: pkg.base,
      bonusTargetBp: pkg.bonusTargetBp,
      variable: pkg.variable,
      grant: pkg.equity
        ? {
            type: pkg.equity.type,
            shares: pkg.equity.shares,
            // Grants keep a strike in minor units of the company currency per share.
            exercisePrice: pkg.equity.strikeMicros === null ? null : Math.round(pkg.equity.strikeMicros / 10 ** (6 - places)),
            currency: prices.currency,
            vestingMonths: pkg.equity.vestingMonths,
            cliffMonths: pkg.equity.cliffMonths,
            vestingFrequency: pkg.equity.vestingFrequency,
          }
        : null,
    });
    const stored = await writeOffer(trx, scope, current, { state: next.state, accepted_at: next.at, acceptance: JSON.stringify(acceptance), hired_employee_id: hired.employeeId });
    await revokeLinks(trx, scope, current.id, next.at);
    await announce(trx, scope, ctx, { row: stored, event: 'accepted', actorUserId: null });
    return stored;
  });
  return presentLetter(db, scope, written);
}

export async function declineLetter(ctx: OfferContext, token: string, input: Schemas['OfferDeclineInput']): Promise<Letter> {
  const { scope, row } = await openLink(ctx, token);
  const db = ctx.deps.db;
  const reason = input.reason.trim();
  if (!reason) throw badRequest('Say why you decline.', [{ field: 'body.reason', message: 'is required' }]);
  const written = await db.transaction(async (trx) => {
    const current = await requireOffer(trx, scope, row.id);
    if ((CLOSED_STATES as readonly string[]).includes(current.state)) throw closed(current.state);
    const next = await transition(trx, scope, offerWorkflow, { subject: subjectOf(current), action: 'decline', actor: candidateActor(current), comment: reason });
    const stored = await writeOffer(trx, scope, current, { state: next.state, declined_at: next.at, decline_reason: reason });
    await revokeLinks(trx, scope, current.id, next.at);
    await announce(trx, scope, ctx, { row: stored, event: 'declined', actorUserId: null });
    return stored;
  });
  return presentLetter(db, scope, written);
}

// ── the signed-in candidate ────────────────────────────────────────────────────────────────

/** The spec's "find offers by email": only the caller's own address, each open letter with a fresh token. */
export async function findOffersByEmail(ctx: OfferContext, caller: Caller, body: { email?: string } | undefined): Promise<Schemas['OfferFound'][]> {
  const own = normaliseEmail(caller.email);
  if (body?.email !== undefined && normaliseEmail(body.email) !== own) {
    throw new HttpError(403, 'forbidden', { message: 'You can only look up offers made to your own e-mail address.' });
  }
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  await expireDue(db, scope, ctx);
  const rows = await offersToEmail(db, scope, own);
  const { companyName } = await pricesOf(db, scope);
  const found: Schemas['OfferFound'][] = [];
  for (const row of rows) {
    let letter: { token: string; expiresAt: string } | null = null;
    if (row.state === 'sent' || row.state === 'opened') {
      const expiresAt = new Date(Math.min(Date.now() + SIGNED_IN_TOKEN_MS, endOfDay(row.expires_on).getTime()));
      letter = await db.transaction((trx) => mintLink(trx, scope, row, expiresAt));
    }
    found.push({
      offerId: row.id,
      companyName,
      title: row.title,
      state: stateOf(row),
      startDate: row.start_date,
      expiresOn: row.expires_on,
      sentAt: row.sent_at ? new Date(row.sent_at).toISOString() : null,
      letterToken: letter?.token ?? null,
      letterExpiresAt: letter?.expiresAt ?? null,
    });
  }
  return found;
}
