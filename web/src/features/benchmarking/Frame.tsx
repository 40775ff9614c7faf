import type { ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { Tabs } from '../../ui/Panels';
import './benchmarking.css';

const TABS = [
  { href: '/benchmarkingsurvey/data-explorer', label: 'Data explorer' },
  { href: '/benchmarkingsurvey/compare', label: 'Compare' },
  { href: '/benchmarkingsurvey/executive-compensation', label: 'Executive compensation' },
  { href: '/benchmarkingsurvey/location-insights', label: 'Location insights' },
  { href: '/benchmarkingsurvey/equity-practices', label: 'Equity practices' },
  { href: '/benchmarkingsurvey/level-your-employees', label: 'Level your employees' },
  { href: '/datacomposition/companies', label: 'Data composition' },
  { href: '/market-data-reports', label: 'Reports' },
  { href: '/benchmarkingsurvey/participation', label: 'Participation' },
  { href: '/benchmarkingsurvey/premium', label: 'Premium' },
];

/** The benchmarking area's frame: its screens one tab apart. */
export function BenchmarkingFrame({ children }: { children: ReactNode }) {
  return (
    <div className="area">
      <Tabs tabs={TABS} label="Market data" />
      {children}
    </div>
  );
}

const EXPLORER_STEPS = [
  { href: '/benchmarkingsurvey/data-explorer', label: '1. Filters' },
  { href: '/benchmarkingsurvey/data-explorer/search', label: 'Job families' },
  { href: '/benchmarkingsurvey/data-explorer/results', label: '2. Results' },
  { href: '/benchmarkingsurvey/data-explorer/export', label: '3. Export' },
];

/** The explorer's steps, each carrying the selection in the URL's query. */
export function ExplorerSteps() {
  const [location] = useLocation();
  const search = useSearch();
  const query = search ? `?${search}` : '';
  return (
    <nav className="tabs" aria-label="Data explorer steps">
      {EXPLORER_STEPS.map((step) => (
        <Link key={step.href} href={`${step.href}${query}`} className={location === step.href ? 'tab active' : 'tab'} aria-current={location === step.href ? 'page' : undefined}>
          {step.label}
        </Link>
      ))}
    </nav>
  );
}
