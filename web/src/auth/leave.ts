import { SESSION_EXPIRED_REASON } from './keys';

let leaving = false;

/**
 * Ends a session the server or the provider no longer accepts: off to /logout (unless already
 * there), keeping the reason to show on sign-in. Several requests may be refused at once; it leaves once.
 */
export function leaveSession(reason: string): void {
  if (leaving || window.location.pathname === '/logout') return;
  leaving = true;
  localStorage.setItem(SESSION_EXPIRED_REASON, reason);
  window.location.assign(`/logout?reason=${encodeURIComponent(reason)}`);
}
