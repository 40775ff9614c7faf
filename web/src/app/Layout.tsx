import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { COMPANY_AS_KEY, VIEW_AS_KEY } from '../auth/oidc';
import { usePerson } from './Guard';

const NAV: { href: string; label: string; module?: string; internal?: boolean }[] = [
  { href: '/home', label: 'Home' },
  { href: '/settings/users', label: 'Users', module: 'settings' },
  { href: '/settings/roles', label: 'Roles', module: 'settings' },
  { href: '/internal', label: 'Internal', internal: true },
];

/** The signed-in frame: side menu (57 px closed, 237 px open) and, while viewing as, the impersonation frame. */
export function Layout({ children }: { children: ReactNode }) {
  const person = usePerson().data?.data;
  const authorized = new Set<string>(person?.modules.filter((m) => m.authorized).map((m) => m.module));
  const links = NAV.filter((item) => (item.internal ? person?.isInternalAdmin : !item.module || authorized.has(item.module)));
  function stopViewing() {
    localStorage.removeItem(VIEW_AS_KEY);
    localStorage.removeItem(COMPANY_AS_KEY);
    window.location.assign('/internal');
  }
  return (
    <div className={person?.viewAs ? 'frame impersonating' : 'frame'}>
      {person?.viewAs && (
        <div className="impersonation-banner" role="status">
          Viewing as {person.viewAs.mode === 'user' ? person.email : 'the company'} (read-only) ·{' '}
          <button type="button" onClick={stopViewing}>
            Stop viewing
          </button>
        </div>
      )}
      <nav className="side-menu" aria-label="Main">
        {links.map((item) => (
          <Link key={item.href} href={item.href}>
            {item.label}
          </Link>
        ))}
        <a href="/logout">Sign out</a>
      </nav>
      <main className="content">{children}</main>
    </div>
  );
}
