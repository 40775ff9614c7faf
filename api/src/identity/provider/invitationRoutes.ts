import type { Middleware } from 'koa';
import { emit } from '../../platform/events.js';
import type { AppDeps } from '../../deps.js';
import { acceptInvitation, findOpenInvitation } from '../invitations.js';
import { hashPassword } from '../passwords.js';
import { isTooLarge, readForm, send } from './interactions.js';
import { errorPage, invitationDonePage, invitationPage, invitationUsedPage } from './pages.js';
import { passwordProblem } from './signup.js';

export const INVITATION_PATH = /^\/invitation\/([A-Za-z0-9_-]{1,128})$/;

/**
 * The page an invitation e-mail links to: a provisioned person chooses their password (which also
 * proves their e-mail address), once, before the link expires.
 */
export function invitationRoutes(deps: AppDeps, homeUrl: string): Middleware {
  const { db, log } = deps;
  return async (ctx, next) => {
    const secret = INVITATION_PATH.exec(ctx.path)?.[1];
    if (!secret || (ctx.method !== 'GET' && ctx.method !== 'POST')) return next();
    // The secret is in the address: it must not travel on in a Referer.
    ctx.set('Referrer-Policy', 'no-referrer');
    try {
      const invitation = await findOpenInvitation(db, secret);
      if (!invitation) return send(ctx, invitationUsedPage(homeUrl));
      const view = { path: ctx.path, email: invitation.email, firstName: invitation.firstName };
      if (ctx.method === 'GET') return send(ctx, invitationPage(view));
      const password = (await readForm(ctx)).get('password') ?? '';
      const problem = passwordProblem(password);
      if (problem) return send(ctx, invitationPage({ ...view, error: problem }, 400));
      if (!(await acceptInvitation(db, invitation, await hashPassword(password)))) return send(ctx, invitationUsedPage(homeUrl));
      await emit(db, { companyId: invitation.companyId, actorUserId: invitation.userId, name: 'account.activated', subjectType: 'user', subjectId: invitation.userId, payload: {} });
      log.info({ userId: invitation.userId }, 'account activated from an invitation');
      send(ctx, invitationDonePage(homeUrl, invitation.email));
    } catch (error) {
      if (isTooLarge(error)) return send(ctx, errorPage(homeUrl, 'The form was too large to read.', 413));
      log.error({ err: error }, 'invitation page failed');
      send(ctx, errorPage(homeUrl, 'Please wait a moment and try again.', 500));
    }
  };
}
