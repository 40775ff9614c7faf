import { BookmarkPlus, Bot, FlaskConical, MessageSquareHeart, RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearch } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge, type Tone } from '../../ui/Badge';
import { PageHeader, Section } from '../../ui/Page';
import { FailureScreen } from '../../ui/Screens';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { can } from '../settings/permissions';
import { Bookmarks } from './Bookmarks';
import './dataLab.css';

type Schemas = components['schemas'];
type Insight = Schemas['DataLabInsight'];
type Subscription = Schemas['DataLabSubscription'];

const SEVERITY: Record<Insight['severity'], { label: string; tone: Tone }> = {
  high: { label: 'High', tone: 'danger' },
  medium: { label: 'Medium', tone: 'warning' },
  low: { label: 'Low', tone: 'info' },
};

const when = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The data lab: insights about the company's pay, bookmarks, and the ways into the agent and pulse surveys. */
export function DataLabScreen() {
  const person = usePerson().data?.data;
  const subscription = useQuery('/api/data-lab/subscription', person && can(person, 'dataLab', 'view') ? {} : null);
  if (person && !can(person, 'dataLab', 'view')) {
    return <FailureScreen title="Permission denied" description="The data lab needs data-lab access. Please contact your company admin for support." />;
  }
  return (
    <>
      <PageHeader
        icon={FlaskConical}
        title="Paybench data lab"
        description="What your company’s pay data says this week: insights computed from your people, bands, merit cycles and the market, and the views you saved."
      />
      <Loaded data={subscription.data?.data} error={subscription.error} retry={() => void subscription.mutate()} label="Loading the data lab">
        {(current) => (
          <div className="data-lab">
            <MoreInTheLab subscription={current} />
            {current.features.insights ? (
              <>
                <Insights editable={can(person, 'dataLab', 'edit') && !person?.viewAs} />
                <Bookmarks canShare={can(person, 'dataLab', 'edit') && !person?.viewAs} />
              </>
            ) : (
              <Section title="Insights and bookmarks" id="insights-heading">
                <p className="not-subscribed" data-state="not-subscribed">
                  Insights and bookmarks are not part of {current.companyName}’s data-lab subscription. Your Paybench contact can add them.
                </p>
              </Section>
            )}
          </div>
        )}
      </Loaded>
    </>
  );
}

function MoreInTheLab({ subscription }: { subscription: Subscription }) {
  const { agent, pulseSurveys } = subscription.features;
  return (
    <nav className="lab-links" aria-label="More in the data lab">
      {agent ? (
        <Link href="/paybench-data-lab/agent" className="button">
          <Bot size={18} aria-hidden="true" />
          Ask the insights agent
        </Link>
      ) : (
        <p className="muted">The insights agent is not part of {subscription.companyName}’s data-lab subscription.</p>
      )}
      {pulseSurveys ? (
        <Link href="/paybench-data-lab/pulse-surveys" className="button">
          <MessageSquareHeart size={18} aria-hidden="true" />
          Pulse surveys
        </Link>
      ) : (
        <p className="muted">Pulse surveys are not part of {subscription.companyName}’s data-lab subscription.</p>
      )}
    </nav>
  );
}

// ── insights ──────────────────────────────────────────────────────────────────────────────

function Insights({ editable }: { editable: boolean }) {
  const [showHidden, setShowHidden] = useState(false);
  const insights = useQuery('/api/data-lab/insights', { params: { query: { include: showHidden ? 'all' : 'open' } } });
  const { add } = useToasts();
  const { run, busy } = useMutation();
  const focus = new URLSearchParams(useSearch()).get('insight');

  async function recompute() {
    const result = await run(() => api.POST('/api/data-lab/insights/recompute'));
    if (result.ok) add('success', 'Recomputing insights. They update here when the job is done.');
  }

  return (
    <Section
      title="Insights"
      id="insights-heading"
      actions={
        editable ? (
          <button type="button" className="small" onClick={() => void recompute()} disabled={busy}>
            <RefreshCw size={16} aria-hidden="true" />
            Recompute now
          </button>
        ) : undefined
      }
    >
      <Loaded data={insights.data?.data} error={insights.error} retry={() => void insights.mutate()} inline label="Loading insights">
        {(list) => (
          <>
            <p className="muted">
              {list.computedAt ? `Computed ${when(list.computedAt)}, after changes to your data and every night.` : 'Not computed yet: the first computation is on its way.'} Each insight names only the people you may see.
            </p>
            {list.insights.length === 0 ? (
              <Empty title={showHidden ? 'No insights' : 'No open insights'} compact>
                {list.hiddenCount ? `You dismissed or snoozed ${list.hiddenCount}.` : 'Nothing in your data stands out right now, or nothing of it is in your reach.'}
              </Empty>
            ) : (
              <ul className="insight-list" aria-label="Insights">
                {list.insights.map((insight) => (
                  <InsightCard key={insight.key} insight={insight} focused={insight.key === focus} />
                ))}
              </ul>
            )}
            {(list.hiddenCount > 0 || showHidden) && (
              <label className="show-hidden">
                <input type="checkbox" checked={showHidden} onChange={(event) => setShowHidden(event.target.checked)} />
                Show dismissed and snoozed ({list.hiddenCount})
              </label>
            )}
          </>
        )}
      </Loaded>
    </Section>
  );
}

function InsightCard({ insight, focused }: { insight: Insight; focused: boolean }) {
  const { add } = useToasts();
  const { run, busy } = useMutation();
  const [showAll, setShowAll] = useState(false);
  const severity = SEVERITY[insight.severity];
  const headingId = `insight-${insight.key}`;

  useEffect(() => {
    if (focused) document.getElementById(headingId)?.scrollIntoView({ block: 'center' });
  }, [focused, headingId]);

  async function setState(state: 'open' | 'dismissed' | 'snoozed') {
    const body = state === 'snoozed' ? { state, snoozeDays: 7 } : { state };
    const result = await run(() => api.PUT('/api/data-lab/insights/{insightKey}/state', { params: { path: { insightKey: insight.key } }, body }), { invalidates: '/api/data-lab/insights' });
    if (result.ok) add('success', state === 'dismissed' ? `Dismissed “${insight.title}”.` : state === 'snoozed' ? `Snoozed “${insight.title}” for 7 days.` : `Reopened “${insight.title}”.`);
  }

  async function bookmark() {
    const body = { kind: 'insight' as const, name: insight.title.slice(0, 200), target: insight.key, shared: false };
    const result = await run(() => api.POST('/api/data-lab/bookmarks', { body }), { invalidates: '/api/data-lab/bookmarks' });
    if (result.ok) add('success', `Bookmarked “${insight.title}”.`);
  }

  const [allRows, setAllRows] = useState(false);
  const people = showAll ? insight.people : insight.people.slice(0, 10);
  const rows = allRows ? insight.table.rows : insight.table.rows.slice(0, 10);
  return (
    <li className={focused ? 'insight focused' : 'insight'} aria-labelledby={headingId} data-kind={insight.kind}>
      <div className="insight-head">
        <Badge tone={severity.tone}>{severity.label}</Badge>
        {insight.state !== 'open' && <Badge tone="neutral">{insight.state === 'dismissed' ? 'Dismissed' : `Snoozed until ${when(insight.snoozedUntil ?? '')}`}</Badge>}
      </div>
      <h3 id={headingId}>{insight.title}</h3>
      <p className="insight-number">
        <span className="value">{insight.valueLabel}</span>
      </p>
      <details>
        <summary>How this was computed</summary>
        <p>{insight.method}</p>
      </details>
      {insight.people.length > 0 && (
        <div className="insight-people">
          <h4>Who it concerns</h4>
          <ul>
            {people.map((person) => (
              <li key={person.employeeId}>
                <strong>{person.name}</strong> <span className="muted">{person.detail}</span>
              </li>
            ))}
          </ul>
          {insight.people.length > 10 && (
            <button type="button" className="ghost small" onClick={() => setShowAll(!showAll)}>
              {showAll ? 'Show the first 10' : `Show all ${insight.people.length}`}
            </button>
          )}
        </div>
      )}
      {insight.table.rows.length > 0 && (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={`Figures behind: ${insight.title}`}>
          <table className="insight-table">
            <thead>
              <tr>
                {insight.table.columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.label}>
                  <th scope="row">{row.label}</th>
                  {row.cells.map((cell, index) => (
                    <td key={index}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {insight.table.rows.length > 10 && (
        <button type="button" className="ghost small" onClick={() => setAllRows(!allRows)}>
          {allRows ? 'Show the first 10 rows' : `Show all ${insight.table.rows.length} rows`}
        </button>
      )}
      <div className="insight-actions">
        <Link href={insight.link} className="button small">
          {insight.linkLabel}
        </Link>
        <button type="button" className="small" onClick={() => void bookmark()} disabled={busy} aria-label={`Bookmark “${insight.title}”`}>
          <BookmarkPlus size={16} aria-hidden="true" />
          Bookmark
        </button>
        {insight.state === 'open' ? (
          <>
            <button type="button" className="small" onClick={() => void setState('snoozed')} disabled={busy} aria-label={`Snooze “${insight.title}” for 7 days`}>
              Snooze 7 days
            </button>
            <button type="button" className="small" onClick={() => void setState('dismissed')} disabled={busy} aria-label={`Dismiss “${insight.title}”`}>
              Dismiss
            </button>
          </>
        ) : (
          <button type="button" className="small" onClick={() => void setState('open')} disabled={busy} aria-label={`Reopen “${insight.title}”`}>
            Reopen
          </button>
        )}
      </div>
    </li>
  );
}

// ── bookmarks ─────────────────────────────────────────────────────────────────────────────
