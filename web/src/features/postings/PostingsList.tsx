import { Download, Megaphone, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/client';
import { useMutation } from '../../api/queries';
import { useQuery } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { DataTable } from '../../ui/DataTable';
import { PageHeader } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { useQueryParam } from '../../ui/urlState';
import { can } from '../settings/permissions';
import { rangeText, stateLabel, stateTone } from './common';
import './postings.css';

/** /postings: the company's job postings, each place's posted range, whether every rule is met, and those a band change left behind. */
export function PostingsScreen() {
  const person = usePerson().data?.data;
  const [staleParam, setStale] = useQueryParam('stale');
  const stale = staleParam === 'true';
  const postings = useQuery('/api/postings', { params: { query: stale ? { stale: true } : {} } });
  const mayEdit = can(person, 'postings', 'edit');
  const { add } = useToasts();
  const exporting = useMutation();
  const [format, setFormat] = useState<'csv' | 'xlsx'>('csv');
  async function startExport() {
    const result = await exporting.run(() => api.POST('/api/postings/exports', { body: { format } }), { invalidates: '/api/me/background-jobs' });
    if (result.ok) add('info', 'The export has started. It appears under background jobs when it is ready to download.');
  }
  return (
    <div className="postings">
      <PageHeader
        title="Job postings"
        icon={Megaphone}
        description="Pay ranges for job postings from the live bands, checked against the pay-transparency law of every place they are posted in."
        actions={
          <>
            <label className="postings-format">
              File
              <select value={format} onChange={(event) => setFormat(event.target.value === 'xlsx' ? 'xlsx' : 'csv')}>
                <option value="csv">CSV</option>
                <option value="xlsx">XLSX</option>
              </select>
            </label>
            <button type="button" disabled={exporting.busy} onClick={() => void startExport()}>
              <Download size={18} aria-hidden="true" />
              Export for the ATS
            </button>
            {mayEdit && (
              <Link href="/postings/new" className="button primary">
                <Plus size={18} aria-hidden="true" />
                New posting
              </Link>
            )}
          </>
        }
      />
      <label className="check postings-filter">
        <input type="checkbox" checked={stale} onChange={(event) => setStale(event.target.checked ? 'true' : null)} />
        Only postings the live bands no longer hold
      </label>
      <Loaded data={postings.data?.data} error={postings.error} retry={() => void postings.mutate()} skeleton={<SkeletonTable rows={4} columns={5} />}>
        {(list) =>
          list.length === 0 ? (
            <Empty title={stale ? 'Every posting matches the live bands' : 'No job postings yet'} action={mayEdit && !stale ? <Link href="/postings/new">Post a job</Link> : undefined} icon={Megaphone}>
              {stale ? 'A posting shows here when a newly published band set no longer holds one of its ranges.' : 'A posting takes its pay range in each place from the live bands and checks it against the law there.'}
            </Empty>
          ) : (
            <DataTable
              caption="Job postings, newest first"
              captionHidden
              cardsOnPhone
              rows={list}
              rowKey={(posting) => posting.id}
              rowAttributes={(posting) => ({ 'data-posting-id': posting.id })}
              columns={[
                { key: 'title', header: 'Job', rowHeader: true, cell: (posting) => <Link href={`/postings/${posting.id}`}>{posting.title}</Link> },
                {
                  key: 'state',
                  header: 'State',
                  cell: (posting) => (
                    <>
                      <Badge tone={stateTone(posting.state)}>{stateLabel(posting.state)}</Badge>
                      {posting.stale && <Badge tone="danger">Bands changed</Badge>}
                    </>
                  ),
                },
                {
                  key: 'ranges',
                  header: 'Places and ranges',
                  cell: (posting) => (
                    <ul className="postings-places">
                      {posting.locations.map((location) => (
                        <li key={location.key}>
                          {location.name}: {rangeText(location.range)}
                        </li>
                      ))}
                    </ul>
                  ),
                },
                { key: 'checks', header: 'Rules', cell: (posting) => (posting.checks.meetsAll && !posting.stale ? <Badge tone="success">Meets every rule</Badge> : <Badge tone="warning">Needs attention</Badge>) },
              ]}
            />
          )
        }
      </Loaded>
    </div>
  );
}
