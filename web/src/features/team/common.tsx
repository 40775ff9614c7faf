import { type ReactNode, useEffect, useState } from 'react';
import { mutate } from 'swr';
import { Link, useLocation } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, useQuery } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { FailureScreen } from '../../ui/Screens';
import { FullSizeSpinner } from '../../ui/Spinner';
import { useToasts } from '../../ui/Toasts';
import './team.css';

export type Schemas = components['schemas'];
export type Money = Schemas['Money'];
export type TeamColumn = Schemas['TeamColumn'];
export type SettingsState = Schemas['TeamViewSettingsState'];

// ── formatting ───────────────────────────────────────────────────────────────────────────────

// Money, numbers and dates are formatted the same everywhere in the app.
export { formatDate, formatMoney, formatNumber, formatPrice, majorOf, minorUnitOf } from '../../ui/format';

export const formatRatio = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : value.toFixed(2));


export const humanise = (value: string): string => {
  const text = value.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

// ── screens' states ──────────────────────────────────────────────────────────────────────────

/** What a failed call says: the server's message, else the catalogue's description. */
export function problemOf(error: unknown): string {
  if (error && typeof error === 'object') {
    const known = error as { message?: unknown; description?: unknown };
    if (typeof known.message === 'string' && known.message) return known.message;
    if (typeof known.description === 'string' && known.description) return known.description;
  }
  return 'Please refresh the page and try again. If the problem persists, contact your company admin for support.';
}

export function statusOf(error: unknown): number | undefined {
  return error && typeof error === 'object' && typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : undefined;
}

/** The error screen of a team page, in the catalogue's words for the status. */
export function TeamError({ error, retry }: { error: unknown; retry?: () => void }) {
  const status = statusOf(error);
  const title = status === 404 ? 'Not found' : status === 401 || status === 403 ? 'Permission denied' : 'Something went wrong';
  return (
    <FailureScreen
      title={title}
      description={problemOf(error)}
      actions={
        retry ? (
          <button type="button" onClick={retry}>
            Try again
          </button>
        ) : undefined
      }
    />
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="team-empty" role="status">
      <svg viewBox="0 0 24 24" aria-hidden="true" width="40" height="40">
        <circle cx="9" cy="8" r="4" fill="none" stroke="currentColor" strokeWidth="1.6" />
        <path d="M2 21c0-4 3-6 7-6s7 2 7 6M17 11a3 3 0 1 0 0-6M22 20c0-3-2-5-5-5.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
      <h2>{title}</h2>
      {children && <p>{children}</p>}
    </div>
  );
}

/** Loading → spinner, failure → error screen, else the page. */
export function Loaded<T>({ data, error, retry, children }: { data: T | undefined; error: unknown; retry?: () => void; children: (data: T) => ReactNode }) {
  if (error) return <TeamError error={error} retry={retry} />;
  if (data === undefined) return <FullSizeSpinner loading />;
  return <>{children(data)}</>;
}

/** A table that scrolls sideways on small screens; focusable, so keyboard users can scroll it. */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="team-table-plain" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

// ── the team area's frame ────────────────────────────────────────────────────────────────────

const TABS = [
  { href: '/team', label: 'Overview' },
  { href: '/team/employees', label: 'Employees' },
  { href: '/team/analytics', label: 'Analytics' },
  { href: '/team/analytics/playground', label: 'Playground' },
  { href: '/team/settings', label: 'Settings' },
];

function currentTab(location: string): string {
  if (location.startsWith('/team/settings')) return '/team/settings';
  if (location.startsWith('/team/analytics/playground')) return '/team/analytics/playground';
  if (location.startsWith('/team/analytics')) return '/team/analytics';
  if (location.startsWith('/team/employees')) return '/team/employees';
  return '/team';
}

export function TeamPage({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const [location] = useLocation();
  const active = currentTab(location);
  return (
    <div className="team">
      <nav className="team-tabs" aria-label="Team">
        {TABS.map((tab) => (
          <Link key={tab.href} href={tab.href} aria-current={tab.href === active ? 'page' : undefined}>
            {tab.label}
          </Link>
        ))}
      </nav>
      <header className="team-head">
        <h1>{title}</h1>
        {actions}
      </header>
      {children}
    </div>
  );
}

// ── who may see what ─────────────────────────────────────────────────────────────────────────

export function usePermissions() {
  const person = usePerson().data?.data;
  const grants = person?.permissionsV3 ?? {};
  return {
    pay: (grants.employeeCompensation ?? []).length > 0,
    demographics: (grants.demographics ?? []).length > 0,
  };
}

// ── settings ─────────────────────────────────────────────────────────────────────────────────

export function useTeamSettings() {
  return useQuery('/api/team/settings');
}

/** Every cached team answer that depends on settings is refreshed after a change. */
export async function refreshTeam(): Promise<void> {
  await mutate((key) => Array.isArray(key) && typeof key[1] === 'string' && String(key[1]).startsWith('/api/team/'), undefined, { revalidate: true });
}

const CONFLICT = 'Someone else changed these settings first. Reload and try again.';

/** Saves settings at the version read; a conflict reloads them and says so. */
export function useSaveSettings() {
  const { add } = useToasts();
  const [busy, setBusy] = useState(false);
  async function finish(result: { error?: unknown; response: Response }, done: string): Promise<boolean> {
    setBusy(false);
    await refreshTeam();
    if (result.error) {
      add('error', result.response.status === 409 ? CONFLICT : problemOf(result.error));
      return false;
    }
    add('success', done);
    return true;
  }
  async function saveCompany(version: number, body: Schemas['TeamViewSettingsInput']): Promise<boolean> {
    setBusy(true);
    const result = await api.PATCH('/api/team/settings/company', { params: { header: { 'If-Match': `"${version}"` } }, body });
    return finish(result, 'Saved as the company default.');
  }
  async function saveMine(version: number, body: Schemas['TeamViewPersonalSettingsInput']): Promise<boolean> {
    setBusy(true);
    const result = await api.PATCH('/api/team/settings/me', { params: { header: { 'If-Match': `"${version}"` } }, body });
    return finish(result, 'Saved for you.');
  }
  return { saveCompany, saveMine, busy };
}

/** A value that follows its input after the person stops typing. */
export function useDebounced<T>(value: T, ms = 300): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return current;
}

/** Whether a media query matches, following changes (the 375 px card layout). */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matches;
}
