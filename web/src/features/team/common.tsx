import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, useQuery } from '../../api/client';
import { type SaveResult, invalidate, useVersionedSave } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { PageHeader } from '../../ui/Page';
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

export function TeamPage({ title, description, actions, children }: { title: string; description?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const [location] = useLocation();
  const active = currentTab(location);
  return (
    <div className="team">
      <nav className="tabs team-tabs" aria-label="Team">
        {TABS.map((tab) => (
          <Link key={tab.href} href={tab.href} className={tab.href === active ? 'tab active' : 'tab'} aria-current={tab.href === active ? 'page' : undefined}>
            {tab.label}
          </Link>
        ))}
      </nav>
      <PageHeader title={title} description={description} actions={actions} />
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

/** Every cached team answer depends on settings (the columns, what the drawer shows): dropped and asked again after a change. */
export function refreshTeam(): Promise<void> {
  return invalidate((path) => path.startsWith('/api/team/'), { drop: true });
}

/**
 * Saves settings at the version read. A conflict (someone saved first) says so in the server's
 * words and keeps what the person chose; anything else reloads the team's answers.
 */
export function useSaveSettings() {
  const { add } = useToasts();
  const company = useVersionedSave((ifMatch, body: Schemas['TeamViewSettingsInput']) => api.PATCH('/api/team/settings/company', { params: { header: { 'If-Match': ifMatch } }, body }));
  const mine = useVersionedSave((ifMatch, body: Schemas['TeamViewPersonalSettingsInput']) => api.PATCH('/api/team/settings/me', { params: { header: { 'If-Match': ifMatch } }, body }));
  async function finish(result: SaveResult<unknown>, done: string): Promise<boolean> {
    if (!result.ok && result.conflict) return false;
    await refreshTeam();
    if (result.ok) add('success', done);
    return result.ok;
  }
  const saveCompany = async (version: number, body: Schemas['TeamViewSettingsInput']) => finish(await company.save(version, body), 'Saved as the company default.');
  const saveMine = async (version: number, body: Schemas['TeamViewPersonalSettingsInput']) => finish(await mine.save(version, body), 'Saved for you.');
  return { saveCompany, saveMine, busy: company.busy || mine.busy };
}

const POSITION_LABELS = { below: 'Below band', inside: 'In band', above: 'Above band' } as const;

/** "In band · 0.98": where the base sits in the live band set and its ratio to the midpoint; why not, otherwise. */
export function bandPositionText(value: Schemas['TeamEmployeeRow']['bandPosition']): ReactNode {
  if (!value) return '—';
  if (!value.position || value.compaRatio === null) return <span className="insufficient">{value.label ?? '—'}</span>;
  return <span className={`band-position band-position-${value.position}`}>{`${POSITION_LABELS[value.position]} · ${formatRatio(value.compaRatio)}`}</span>;
}
