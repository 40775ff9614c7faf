import { Bookmark, BookmarkPlus, Bot, FlaskConical, MessageSquareHeart, RefreshCw } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearch } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, useQuery } from '../../api/client';
import { invalidate, useMutation, useVersionedSave } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge, type Tone } from '../../ui/Badge';
import { PageHeader, Section } from '../../ui/Page';
import { FailureScreen } from '../../ui/Screens';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { can } from '../settings/permissions';
import './dataLab.css';

type Schemas = components['schemas'];
type Insight = Schemas['DataLabInsight'];
type BookmarkItem = Schemas['DataLabBookmark'];
type Subscription = Schemas['DataLabSubscription'];

const SEVERITY: Record<Insight['severity'], { label: string; tone: Tone }> = {
  high: { label: 'High', tone: 'danger' },
  medium: { label: 'Medium', tone: 'warning' },
  low: { label: 'Low', tone: 'info' },
};

const KIND_TEXT: Record<BookmarkItem['kind'], string> = {
  insight: 'Insight',
  explorerQuery: 'Explorer query',
  teamAnalytics: 'Team-analytics view',
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

function Bookmarks({ canShare }: { canShare: boolean }) {
  const bookmarks = useQuery('/api/data-lab/bookmarks');
  return (
    <Section title="Bookmarks" id="bookmarks-heading">
      <Loaded data={bookmarks.data?.data} error={bookmarks.error} retry={() => void bookmarks.mutate()} inline label="Loading bookmarks">
        {(list) =>
          list.length === 0 ? (
            <Empty title="No bookmarks yet" icon={Bookmark} compact headingLevel={3}>
              Bookmark an insight above, or save an explorer query or a team-analytics view below.
            </Empty>
          ) : (
            <ul className="bookmark-list" aria-label="Bookmarks">
              {list.map((item) => (
                <BookmarkRow key={item.id} item={item} canShare={canShare} />
              ))}
            </ul>
          )
        }
      </Loaded>
      <NewBookmark canShare={canShare} />
    </Section>
  );
}

function BookmarkRow({ item, canShare }: { item: BookmarkItem; canShare: boolean }) {
  const { add } = useToasts();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(item.name);
  const { save, busy } = useVersionedSave((ifMatch: string, body: Schemas['DataLabBookmarkUpdate']) =>
    api.PATCH('/api/data-lab/bookmarks/{bookmarkId}', { params: { path: { bookmarkId: item.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  // Deleting has no busy state of its own: the row goes once the list is asked again.
  const deletion = useMutation();

  async function change(body: Schemas['DataLabBookmarkUpdate'], done: string) {
    const result = await save(item.version, body);
    if (!result.ok) return;
    add('success', done);
    setRenaming(false);
    await invalidate('/api/data-lab/bookmarks');
  }

  async function remove() {
    const result = await deletion.run(() => api.DELETE('/api/data-lab/bookmarks/{bookmarkId}', { params: { path: { bookmarkId: item.id } } }), { invalidates: '/api/data-lab/bookmarks' });
    if (result.ok) add('success', `Deleted the bookmark “${item.name}”.`);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void change({ name: name.trim() }, `Renamed to “${name.trim()}”.`);
  }

  return (
    <li className="bookmark">
      {renaming ? (
        <form onSubmit={submit} className="bookmark-rename">
          <label>
            New name
            <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={200} />
          </label>
          <button type="submit" className="small primary" disabled={busy}>
            Save name
          </button>
          <button type="button" className="small ghost" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <div className="bookmark-main">
          <Link href={item.link}>{item.name}</Link>
          <span className="muted">
            {KIND_TEXT[item.kind]}
            {item.ownedByMe ? '' : ` · saved by ${item.ownerName}`}
          </span>
          {item.shared && <Badge tone="success">Shared with the company</Badge>}
        </div>
      )}
      {item.ownedByMe && !renaming && (
        <div className="bookmark-actions">
          <button type="button" className="small" onClick={() => setRenaming(true)} aria-label={`Rename “${item.name}”`}>
            Rename
          </button>
          {canShare && (
            <button type="button" className="small" disabled={busy} onClick={() => void change({ shared: !item.shared }, item.shared ? `“${item.name}” is private again.` : `Shared “${item.name}” with the company.`)}>
              {item.shared ? 'Stop sharing' : 'Share'}
            </button>
          )}
          <button type="button" className="small" onClick={() => void remove()} aria-label={`Delete “${item.name}”`}>
            Delete
          </button>
        </div>
      )}
    </li>
  );
}

function NewBookmark({ canShare }: { canShare: boolean }) {
  const { add } = useToasts();
  const [kind, setKind] = useState<'explorerQuery' | 'teamAnalytics'>('explorerQuery');
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [shared, setShared] = useState(false);
  const { run, busy } = useMutation();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    let address = target.trim();
    // A full address pasted from the browser keeps only its path and query.
    if (/^https?:\/\//.test(address)) {
      const url = new URL(address);
      address = `${url.pathname}${url.search}`;
    }
    const body = { kind, name: name.trim(), target: address, shared };
    const result = await run(() => api.POST('/api/data-lab/bookmarks', { body }), { invalidates: '/api/data-lab/bookmarks' });
    if (!result.ok) return;
    add('success', `Saved the bookmark “${name.trim()}”.`);
    setName('');
    setTarget('');
    setShared(false);
  }

  return (
    <form className="new-bookmark" onSubmit={(event) => void submit(event)} aria-labelledby="new-bookmark-heading">
      <h3 id="new-bookmark-heading">Save a view</h3>
      <label>
        What
        <select value={kind} onChange={(event) => setKind(event.target.value === 'teamAnalytics' ? 'teamAnalytics' : 'explorerQuery')}>
          <option value="explorerQuery">An explorer query</option>
          <option value="teamAnalytics">A team-analytics view</option>
        </select>
      </label>
      <label>
        Name
        <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={200} />
      </label>
      <label>
        Address
        <input
          value={target}
          onChange={(event) => setTarget(event.target.value)}
          required
          maxLength={2000}
          placeholder={kind === 'explorerQuery' ? '/benchmarkingsurvey/data-explorer/results?…' : '/team/analytics?…'}
        />
      </label>
      {canShare && (
        <label className="inline">
          <input type="checkbox" checked={shared} onChange={(event) => setShared(event.target.checked)} />
          Share with everyone in the company who uses the data lab
        </label>
      )}
      <button type="submit" className="primary small" disabled={busy}>
        Save bookmark
      </button>
    </form>
  );
}
