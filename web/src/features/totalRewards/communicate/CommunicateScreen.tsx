import { Eye, Megaphone } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import useSWR from 'swr';
import { Link, useParams } from 'wouter';
import { type ApiError, QUERY_PREFIX, api, errorMessage, useQuery } from '../../../api/client';
import { usePerson } from '../../../app/Guard';
import { Badge } from '../../../ui/Badge';
import { useDebounced } from '../../../ui/hooks';
import { PageHeader } from '../../../ui/Page';
import { Tabs } from '../../../ui/Panels';
import { SkeletonText } from '../../../ui/Skeleton';
import { Empty, Loaded } from '../../../ui/States';
import { can } from '../../settings/permissions';
import { EmployeePicker } from '../EmployeePicker';
import type { SectionName, Statement } from '../model';
import type { EditorProps, Settings, SettingsDraft } from './common';
import { StatementView } from '../Statement';
import { AppearanceEditor, EquityDisplayEditor, SectionEditor, SimulatorEditor } from './editors';
import { ArticlesEditor, BenefitsEditor, UserGroupsEditor } from './listEditors';


/** The spec's /settings/communicate sections, in its order, with the statement section each configures. */
const SECTIONS: { path: string; label: string; section?: SectionName; description: string }[] = [
  { path: 'overview', label: 'Overview', section: 'overview', description: 'The first part of the statement: the total and its breakdown.' },
  { path: 'about-us', label: 'About us', section: 'aboutUs', description: 'Who the company is, in its own words.' },
  { path: 'appearance', label: 'Appearance', description: 'Logo, brand and banner colours, the banner’s words and image.' },
  { path: 'timeline', label: 'Timeline', section: 'timeline', description: 'An employee’s history: hire, pay changes, promotions and grants.' },
  { path: 'compensation', label: 'Compensation', section: 'compensation', description: 'Cash pay a year, with targets.' },
  { path: 'salary', label: 'Salary', section: 'salary', description: 'Base salary and its history.' },
  { path: 'equity', label: 'Equity', section: 'equity', description: 'Grants and vesting, shown as value or as shares, and at which price.' },
  { path: 'bonus', label: 'Bonus', section: 'bonus', description: 'The annual bonus target.' },
  { path: 'variable-pay', label: 'Variable pay', section: 'variablePay', description: 'Commission and other variable pay at target.' },
  { path: 'future-grants', label: 'Future grants', section: 'futureGrants', description: 'Equity still to vest, by year.' },
  { path: 'future-modeling', label: 'Future modeling', section: 'futureModeling', description: 'The comp simulator: equity at other valuations.' },
  { path: 'benefits', label: 'Benefits', section: 'benefits', description: 'Benefits, and which user groups receive which.' },
  { path: 'learning-hub', label: 'Learning hub', section: 'learningHub', description: 'Articles on equity: options, RSUs, the cliff, vesting, liquidity.' },
];

const SUBSECTIONS: Record<string, { path: string; label: string }[]> = {
  benefits: [
    { path: 'benefits', label: 'Benefits' },
    { path: 'user-groups', label: 'User groups' },
  ],
  'future-modeling': [{ path: 'comp-simulator', label: 'Comp simulator' }],
};

/** The settings' live preview: the statement of a chosen employee with what is on the form (not saved yet). */
function usePreview(employeeId: string | null, draft: SettingsDraft | null, editable: boolean) {
  const body = useDebounced(draft, 400);
  const settings = body && Object.keys(body).length ? body : undefined;
  return useSWR<Statement, ApiError>(
    employeeId ? [QUERY_PREFIX, '/api/total-rewards/statements/{employeeId}/preview', { employeeId, settings, editable }] : null,
    async () => {
      if (!employeeId) throw new Error('no employee');
      // People who may only read the settings see the stored statement (a draft needs edit).
      const { data, error } = editable
        ? await api.POST('/api/total-rewards/statements/{employeeId}/preview', { params: { path: { employeeId } }, body: settings ? { settings } : {} })
        : await api.GET('/api/total-rewards/statements/{employeeId}', { params: { path: { employeeId } } });
      if (error || !data) throw error ?? new Error('Empty response');
      return data.data;
    },
    { keepPreviousData: true },
  );
}

function LivePreview({ draft, editable }: { draft: SettingsDraft | null; editable: boolean }) {
  const [employee, setEmployee] = useState<{ id: string; name: string } | null>(null);
  const [choosing, setChoosing] = useState(false);
  const { data, error, isLoading } = usePreview(employee?.id ?? null, draft, editable);
  return (
    <aside className="tr-live" aria-labelledby="tr-live-title">
      <header className="tr-live-head">
        <h2 id="tr-live-title">
          <Eye size={18} aria-hidden="true" /> Live preview
        </h2>
        {employee && !choosing && (
          <button type="button" className="small" onClick={() => setChoosing(true)}>
            Change employee
          </button>
        )}
      </header>
      {(!employee || choosing) && (
        <EmployeePicker
          selected={employee?.id ?? null}
          onSelect={(id, name) => {
            setEmployee({ id, name });
            setChoosing(false);
          }}
        />
      )}
      {employee && (
        <p className="muted small-text" role="status">
          As {employee.name} sees it{editable ? ', with your changes before they are saved' : ''}.{isLoading ? ' Updating…' : ''}
        </p>
      )}
      {error && <p role="alert">{errorMessage(error)}</p>}
      {data && employee && (
        <div className="tr-live-frame">
          <StatementView statement={data} embedded />
        </div>
      )}
    </aside>
  );
}

function SectionList({ settings }: { settings: Settings }) {
  return (
    <ul className="tr-section-list">
      {SECTIONS.map((entry) => {
        const on = entry.section ? settings.sections[entry.section].enabled : true;
        return (
          <li key={entry.path}>
            <Link href={`/settings/communicate/${entry.path}`}>{entry.label}</Link>
            <span className="muted small-text">{entry.description}</span>
            {entry.section && <Badge tone={on ? 'success' : 'neutral'}>{on ? 'Shown' : 'Switched off'}</Badge>}
          </li>
        );
      })}
    </ul>
  );
}

function editorFor(path: string, sub: string | undefined, props: EditorProps): ReactNode {
  if (path === 'appearance') return <AppearanceEditor {...props} />;
  if (path === 'equity') return <EquityDisplayEditor {...props} />;
  if (path === 'future-modeling' && sub === 'comp-simulator') return <SimulatorEditor {...props} />;
  if (path === 'benefits' && sub === 'benefits') return <BenefitsEditor {...props} />;
  if (path === 'benefits' && sub === 'user-groups') return <UserGroupsEditor {...props} />;
  if (path === 'learning-hub') return <ArticlesEditor {...props} />;
  const entry = SECTIONS.find((candidate) => candidate.path === path);
  return entry?.section ? <SectionEditor key={entry.section} section={entry.section} {...props} /> : null;
}

/**
 * /settings/communicate and its 16 sub-routes: what total-rewards statements show, section by
 * section, each saved at the version read, with a live preview as a chosen employee.
 */
export function CommunicateScreen() {
  const params = useParams<{ section?: string; sub?: string }>();
  const person = usePerson().data?.data;
  const { data, error, mutate } = useQuery('/api/total-rewards/settings');
  const [draft, setDraft] = useState<SettingsDraft | null>(null);
  const editable = can(person, 'totalRewards', 'edit', 'all') && !person?.viewAs;
  const entry = SECTIONS.find((candidate) => candidate.path === params.section);
  const subs = params.section ? SUBSECTIONS[params.section] : undefined;
  const sub = subs?.find((candidate) => candidate.path === params.sub);
  const unknown = (params.section !== undefined && !entry) || (params.sub !== undefined && !sub);
  const title = entry ? `${entry.label}${sub ? `: ${sub.label}` : ''}` : 'Communicate';
  return (
    <div className="tr-communicate">
      <PageHeader
        eyebrow={entry ? <Link href="/settings/communicate">Communicate</Link> : <Link href="/settings">Settings</Link>}
        title={title}
        icon={Megaphone}
        description={entry ? entry.description : 'What employees see in their total-rewards statements, and how it looks. Each section can be switched off.'}
        actions={<Link href="/totalrewards">Open total rewards</Link>}
      />
      <Tabs label="Communicate sections" tabs={SECTIONS.map((candidate) => ({ href: `/settings/communicate/${candidate.path}`, label: candidate.label }))} />
      {subs && entry && (
        <Tabs
          label={`${entry.label} pages`}
          exact
          tabs={[{ href: `/settings/communicate/${entry.path}`, label: entry.label }, ...subs.map((candidate) => ({ href: `/settings/communicate/${entry.path}/${candidate.path}`, label: candidate.label }))]}
        />
      )}
      {unknown ? (
        <Empty title="No such communicate setting" action={<Link href="/settings/communicate">All communicate settings</Link>}>
          The address names no section of the communicate settings.
        </Empty>
      ) : (
        <div className="tr-communicate-body">
          <div className="tr-communicate-form">
            {!editable && <p className="muted">You can read these settings; changing them needs the total rewards permission (edit) for the whole company.</p>}
            <Loaded data={data?.data} error={error} retry={() => void mutate()} skeleton={<SkeletonText lines={6} label="Loading the communicate settings" />}>
              {(settings) =>
                entry ? (
                  // A save moves the version: the form starts again from what is stored.
                  <div key={`${entry.path}/${sub?.path ?? ''}/${settings.version}`}>{editorFor(entry.path, sub?.path, { settings, editable, onDraft: setDraft })}</div>
                ) : (
                  <SectionList settings={settings} />
                )
              }
            </Loaded>
          </div>
          <LivePreview draft={entry ? draft : null} editable={editable} />
        </div>
      )}
    </div>
  );
}
