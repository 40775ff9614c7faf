import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROOF_LINK_PATH } from '../identity/domains/proofLinks.js';
import { INTERACTION_PATH, PROVIDER_PATH } from '../identity/provider/builtin.js';
import { INVITATION_PATH } from '../identity/provider/invitationRoutes.js';
import { RESET_PATH } from '../identity/provider/resetRoutes.js';
import { VERIFY_PATH } from '../identity/provider/verifyRoutes.js';
import { SSO_CALLBACK_PATH } from '../identity/sso/signIn.js';
import { isServerEndpoint, isServerPath, serviceWorkerDenylist } from './serverPaths.js';

// The service worker matches its denylist against the path and the query (workbox's NavigationRoute).
const deniedToShell = (url: string) => serviceWorkerDenylist().some((pattern) => pattern.test(url));

describe('the paths the server answers itself', () => {
  it('hold every page the server renders, and the service worker lets each through, with or without a query', () => {
    const pages: [RegExp, string][] = [
      [INVITATION_PATH, '/invitation/abcDEF_123-x'],
      [RESET_PATH, '/password-reset/abcDEF_123-x'],
      [VERIFY_PATH, '/verify-email/abcdef'],
      [PROOF_LINK_PATH, '/domain-proof/abcDEF_123-x'],
      [SSO_CALLBACK_PATH, '/auth/sso/callback'],
      [INTERACTION_PATH, '/interaction/uid123/forgot'],
      [PROVIDER_PATH, '/authorize'],
      [PROVIDER_PATH, '/oauth/device'],
      [PROVIDER_PATH, '/v2/logout'],
      [PROVIDER_PATH, '/v2/logout/confirm'],
      [PROVIDER_PATH, '/.well-known/openid-configuration'],
      [PROVIDER_PATH, '/userinfo'],
    ];
    for (const [route, sample] of pages) {
      expect(route.test(sample), sample).toBe(true);
      expect(isServerPath(sample), sample).toBe(true);
      expect(deniedToShell(sample), sample).toBe(true);
      expect(deniedToShell(`${sample}?code=1&state=2`), sample).toBe(true);
    }
    const legal = readdirSync(path.resolve(import.meta.dirname, '..', '..', '..', 'web', 'public', 'legal'));
    expect(legal.length).toBeGreaterThan(0);
    for (const file of legal) expect(deniedToShell(`/legal/${file}`), file).toBe(true);
    expect(isServerEndpoint('/api/me') && isServerEndpoint('/api') && isServerEndpoint('/engine.io/')).toBe(true);
  });

  it('leave the app its own pages, the enterprise sign-in screen and the links it opens among them', () => {
    for (const page of ['/', '/home', '/login', '/logout', '/callback', '/auth/sso', '/auth/sso?email=a%40b.test', '/offer-letter/tok', '/collaborator/tok', '/pulse/s1', '/compensationplanning/approvals']) {
      expect(isServerPath(page.split('?')[0] as string), page).toBe(false);
      expect(deniedToShell(page), page).toBe(false);
    }
  });
});
