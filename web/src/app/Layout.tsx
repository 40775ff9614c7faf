import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Realtime } from '../realtime/Realtime';
import { usePerson } from './Guard';
import { ImpersonationFrame } from './ImpersonationFrame';
import { navigation } from './registry';
import { isNavLink } from './webModule';

/** The signed-in frame: side menu (57 px closed, 237 px open) and, while viewing as, the impersonation frame. */
export function Layout({ children }: { children: ReactNode }) {
  const person = usePerson().data?.data;
  const authorized = new Set<string>(person?.modules.filter((m) => m.authorized).map((m) => m.module));
  // The modules' menu entries, in their order: links the person may follow, and the modules' own widgets.
  const entries = navigation.filter((entry) => !isNavLink(entry) || (entry.internalOnly ? person?.isInternalAdmin : !entry.module || authorized.has(entry.module)));
  return (
    <div className={person?.viewAs ? 'frame impersonating' : 'frame'}>
      <ImpersonationFrame />
      <Realtime />
      <nav className="side-menu" aria-label="Main">
        {entries.map((entry) =>
          isNavLink(entry) ? (
            <Link key={entry.href} href={entry.href}>
              {entry.label}
            </Link>
          ) : (
            <entry.widget key={entry.key} />
          ),
        )}
        <a href="/logout">Sign out</a>
      </nav>
      <main className="content">{children}</main>
    </div>
  );
}
