import type { Middleware } from 'koa';
import type { AppDeps } from '../../deps.js';
import { sealText, secretsKey, unsealText } from '../../kernel/secrets.js';
import { accountExistsEmail } from '../../notifications/accountEmails.js';
import { findUserByEmail, findUserById } from '../../access/users.js';
import { send } from './interactions.js';
import { emailVerifiedPage, errorPage, verificationUsedPage } from './pages.js';

export const VERIFY_PATH = /^\/verify-email\/([A-Za-z0-9_-]{1,1024})$/;

/** A link proves the address for a day. */
export const VERIFICATION_TTL_MS = 24 * 60 * 60_000;

interface Claim {
  userId: string;
  email: string;
  expiresAt: number;
}

/**
 * The link's secret is the claim itself, sealed (AES-256-GCM) under the secrets key: it cannot be
 * made or changed without the key, and using it twice only verifies the address again.
 */
export function verificationLink(deps: Pick<AppDeps, 'config'>, userId: string, email: string, now = Date.now()): { link: string; expiresAt: Date } {
  const claim: Claim = { userId, email, expiresAt: now + VERIFICATION_TTL_MS };
  const token = Buffer.from(sealText(secretsKey(deps.config.dataDir), JSON.stringify(claim)), 'utf8').toString('base64url');
  return { link: `${deps.config.publicUrl.replace(/\/+$/, '')}/verify-email/${token}`, expiresAt: new Date(claim.expiresAt) };
}

function readClaim(deps: Pick<AppDeps, 'config'>, token: string): Claim | undefined {
  const opened = unsealText(secretsKey(deps.config.dataDir), Buffer.from(token, 'base64url').toString('utf8'));
  if (!opened) return undefined;
  const claim = JSON.parse(opened) as Claim;
  return claim.expiresAt > Date.now() ? claim : undefined;
}

/** E-mails a person the link that proves their address (after sign-up, or when they ask again). */
export async function sendEmailVerification(deps: Pick<AppDeps, 'config' | 'mailer'>, user: { id: string; email: string; firstName: string; companyId: string | null }): Promise<Date> {
  const { link, expiresAt } = verificationLink(deps, user.id, user.email);
  await deps.mailer.send({
    companyId: user.companyId,
    to: user.email,
    subject: 'Confirm your e-mail address for Paybench',
    text:
      `Hello ${user.firstName},\n\n` +
      `Confirm that ${user.email} is yours to finish setting up your Paybench account (the link works until ${expiresAt.toUTCString()}):\n${link}\n\n` +
      `If you did not create a Paybench account, ignore this e-mail.\n`,
  });
  return expiresAt;
}

/** Tells the owner of a taken address that someone tried to sign up with it (the sign-up page does not say). */
export async function sendAccountExists(deps: Pick<AppDeps, 'config' | 'mailer' | 'db'>, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user || user.status !== 'active') return;
  await deps.mailer.send({ companyId: user.company_id, to: user.email, ...accountExistsEmail({ to: user.email, firstName: user.first_name, signInUrl: `${deps.config.publicUrl.replace(/\/+$/, '')}/login` }) });
}

/** The page the verification e-mail links to: marks the address verified and leads on to the account's next step. */
export function verifyRoutes(deps: AppDeps, homeUrl: string): Middleware {
  return async (ctx, next) => {
    const token = VERIFY_PATH.exec(ctx.path)?.[1];
    if (!token || ctx.method !== 'GET') return next();
    ctx.set('Referrer-Policy', 'no-referrer');
    try {
      const claim = readClaim(deps, token);
      const user = claim ? await findUserById(deps.db, claim.userId) : undefined;
      // The address must still be the one the link was sent to.
      if (!claim || !user || user.email !== claim.email) return send(ctx, verificationUsedPage(homeUrl));
      if (!user.email_verified) await deps.db('users').where({ id: user.id }).update({ email_verified: true, updated_at: new Date().toISOString() });
      deps.log.info({ userId: user.id }, 'e-mail verified');
      send(ctx, emailVerifiedPage(`${homeUrl}${user.company_id ? 'home' : 'create-account'}`, user.email, Boolean(user.company_id)));
    } catch (error) {
      deps.log.error({ err: error }, 'e-mail verification page failed');
      send(ctx, errorPage(homeUrl, 'Please wait a moment and try again.', 500));
    }
  };
}
