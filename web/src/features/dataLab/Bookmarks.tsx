import { Bookmark } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, useQuery } from '../../api/client';
import { invalidate, useMutation, useVersionedSave } from '../../api/queries';
import { Badge } from '../../ui/Badge';
import { Section } from '../../ui/Page';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';

type Schemas = components['schemas'];
type BookmarkItem = Schemas['DataLabBookmark'];

const KIND_TEXT: Record<BookmarkItem['kind'], string> = {
  insight: 'Insight',
  explorerQuery: 'Explorer query',
  teamAnalytics: 'Team-analytics view',
};

/** The person's bookmarks of insights, explorer queries and team-analytics views, shared ones beside them. */
export function Bookmarks({ canShare }: { canShare: boolean }) {
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
