import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';

/** What a module that is switched on, but not built yet, shows: what it will do, honestly. */
export function ComingPanel({ title, description, children }: { title: string; description: string; children?: ReactNode }) {
  return (
    <section className="panel coming" aria-labelledby="coming-title" data-state="coming">
      <p className="eyebrow">Coming to Paybench</p>
      <h1 id="coming-title">{title}</h1>
      <p>{description}</p>
      <p className="muted">This part of Paybench is switched on for your company but is not built yet. Nothing here is stored or shown from your data.</p>
      {children}
    </section>
  );
}

/** A screen whose server operation does not exist yet: says so instead of showing a blank page. */
export function NotAvailableYet({ title, description, children, heading = 'h1' }: { title: string; description: string; children?: ReactNode; heading?: 'h1' | 'h2' }) {
  const Heading = heading;
  return (
    <section className="panel not-available" aria-labelledby="not-available-title" data-state="not-available">
      <p className="eyebrow">Not available yet</p>
      <Heading id="not-available-title">{title}</Heading>
      <p>{description}</p>
      <p className="muted">The server does not offer this yet, so there is nothing to show. It will appear here when it does.</p>
      {children}
    </section>
  );
}

export interface Tab {
  href: string;
  label: string;
}

/** A row of links between the screens of one area; the current one is marked for assistive tech. */
export function Tabs({ tabs, label, exact = false }: { tabs: Tab[]; label: string; exact?: boolean }) {
  const [location] = useLocation();
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((tab) => (
        <TabLink key={tab.href} tab={tab} active={location === tab.href || (!exact && location.startsWith(`${tab.href}/`))} />
      ))}
    </nav>
  );
}

function TabLink({ tab, active }: { tab: Tab; active: boolean }) {
  return (
    <Link href={tab.href} className={active ? 'tab active' : 'tab'} aria-current={active ? 'page' : undefined}>
      {tab.label}
    </Link>
  );
}

/** Sample sizes are shown as buckets, never as exact counts of people. */
export function SampleLabel({ companies, employees }: { companies: string; employees: string }) {
  return (
    <span className="sample">
      {companies} companies · {employees} employees
    </span>
  );
}
