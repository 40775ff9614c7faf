import type { Middleware } from 'koa';
import type { AppDeps } from '../../deps.js';
import { passwordResetEmail } from '../../notifications/accountEmails.js';
import { emit } from '../../platform/events.js';
import { hashPassword } from '../passwords.js';
import { completePasswordReset, createPasswordReset, findOpenReset } from '../passwordResets.js';
import { findUserByEmail } from '../../access/users.js';
import { isTooLarge, readForm, send } from './interactions.js';
import { errorPage, resetDonePage, resetPasswordPage, resetUsedPage } from './pages.js';
import { passwordProblem } from './signup.js';

export const RESET_PATH = /^\/password-reset\/([A-Za-z0-9_-]{1,128})$/;

/** E-mails an active person a one-time link to choose a new password; nothing for an unknown e-mail. */
export async function sendPasswordReset(deps: AppDeps, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user) return;
  const { secret, expiresAt } = await createPasswordReset(deps.db, user.id);
  const link = `${deps.config.publicUrl.replace(/\/+$/, '')}/password-reset/${secret}`;
  await deps.mailer.send({ companyId: user.company_id, to: user.email, ...passwordResetEmail({ to: user.email, firstName: user.first_name, link, expiresAt }) });
}

/** Until the clock's next whole second: sign-in tokens carry whole seconds, and those of the ended sign-ins must stay refused. */
async function intoNextSecond(): Promise<void> {
  const wait = 1000 - (Date.now() % 1000) + 5;
  await new Promise((resolve) => setTimeout(resolve, wait));
}

/**
 * The page a reset e-mail links to: the person chooses a new password (by the sign-up rules), once,
 * within the hour; every other sign-in of theirs ends.
 */
export function resetRoutes(deps: AppDeps, homeUrl: string): Middleware {
  const { db, log } = deps;
  return async (ctx, next) => {
    const secret = RESET_PATH.exec(ctx.path)?.[1];
    if (!secret || (ctx.method !== 'GET' && ctx.method !== 'POST')) return next();
    // The secret is in the address: it must not travel on in a Referer.
    ctx.set('Referrer-Policy', 'no-referrer');
    try {
      const reset = await findOpenReset(db, secret);
      if (!reset) return send(ctx, resetUsedPage(homeUrl));
      const view = { path: ctx.path, email: reset.email };
      if (ctx.method === 'GET') return send(ctx, resetPasswordPage(view));
      const password = (await readForm(ctx)).get('password') ?? '';
      const problem = passwordProblem(password);
      if (problem) return send(ctx, resetPasswordPage({ ...view, error: problem }, 400));
      if (!(await completePasswordReset(db, reset, await hashPassword(password)))) return send(ctx, resetUsedPage(homeUrl));
      await emit(db, { companyId: reset.companyId, actorUserId: reset.userId, name: 'password.reset', subjectType: 'user', subjectId: reset.userId, payload: {} });
      await deps.realtime.disconnect({ signedInUserId: reset.userId });
      log.info({ userId: reset.userId }, 'password reset');
      await intoNextSecond();
      send(ctx, resetDonePage(homeUrl, reset.email));
    } catch (error) {
      if (isTooLarge(error)) return send(ctx, errorPage(homeUrl, 'The form was too large to read.', 413));
      log.error({ err: error }, 'password reset page failed');
      send(ctx, errorPage(homeUrl, 'Please wait a moment and try again.', 500));
    }
  };
}
