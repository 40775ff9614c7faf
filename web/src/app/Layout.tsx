import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Realtime } from '../realtime/Realtime';
import { JobsButton } from '../features/jobs/JobsButton';
import { usePerson } from './Guard';
import { ImpersonationFrame } from './ImpersonationFrame';

const NAV: { href: string; label: string; module?: string; internal?: boolean }[] = [
  { href: '/home', label: 'Home' },
  { href: '/benchmarkingsurvey/data-explorer', label: 'Market data', module: 'benchmarking' },
  { href: '/offers', label: 'Offers', module: 'visualOfferLetter' },
  { href: '/bands', label: 'Salary bands', module: 'bands' },
  { href: '/compensationplanning', label: 'Planning', module: 'compplanning' },
  { href: '/totalrewards', label: 'Total rewards', module: 'totalRewards' },
  { href: '/integrations', label: 'Integrations', module: 'integrations' },
  { href: '/team', label: 'Team', module: 'teamview' },
  { href: '/settings/users', label: 'Users', module: 'settings' },
  { href: '/settings/roles', label: 'Roles', module: 'settings' },
  { href: '/settings', label: 'Settings' },
  { href: '/internal', label: 'Internal', internal: true },
];

/** The signed-in frame: side menu (57 px closed, 237 px open) and, while viewing as, the impersonation frame. */
export function Layout({ children }: { children: ReactNode }) {
  const person = usePerson().data?.data;
  const authorized = new Set<string>(person?.modules.filter((m) => m.authorized).map((m) => m.module));
  const links = NAV.filter((item) => (item.internal ? person?.isInternalAdmin : !item.module || authorized.has(item.module)));
  return (
    <div className={person?.viewAs ? 'frame impersonating' : 'frame'}>
      <ImpersonationFrame />
      <Realtime />
      <nav className="side-menu" aria-label="Main">
        {links.map((item) => (
          <Link key={item.href} href={item.href}>
            {item.label}
          </Link>
        ))}
        <JobsButton />
        <a href="/logout">Sign out</a>
      </nav>
      <main className="content">{children}</main>
    </div>
  );
}
