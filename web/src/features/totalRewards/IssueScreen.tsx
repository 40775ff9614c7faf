import { Download, FileStack, Send } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { DataTable } from '../../ui/DataTable';
import { FormProblem, fieldProblems } from '../../ui/FormProblem';
import { PageHeader, Section } from '../../ui/Page';
import { SkeletonText } from '../../ui/Skeleton';
import { Empty, ErrorState } from '../../ui/States';
import { saveFile } from '../../ui/files';
import { formatDate } from '../../ui/format';
import { useToasts } from '../../ui/Toasts';
import { useFollowedJob } from '../jobs/useFollowedJob';
import { can } from '../settings/permissions';
import { EmployeePicker } from './EmployeePicker';
import './totalRewards.css';

type IssuedRecord = components['schemas']['IssuedStatementRecord'];

const PAGE = 50;

/** Today as `YYYY-MM-DD` in the person's own calendar. */
function todayIso(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

const issuedWhen = (iso: string): string => new Date(iso).toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** The form: a title, the day the statements are as of, and to whom; then the job, followed to its end. */
function IssueForm({ onIssued }: { onIssued: () => void }) {
  const { add } = useToasts();
  const [title, setTitle] = useState('');
  const [asOf, setAsOf] = useState(todayIso);
  const [audience, setAudience] = useState<'everyone' | 'one'>('one');
  const [employee, setEmployee] = useState<{ id: string; name: string } | null>(null);
  const [problem, setProblem] = useState<{ message: string; fields: string[] } | null>(null);
  const { job, running, start } = useFollowedJob((done) => {
    add('success', done.message ?? 'The statements are issued.');
    onIssued();
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!title.trim()) return setProblem({ message: 'Give the statements a title, as employees will see it.', fields: [] });
    if (audience === 'one' && !employee) return setProblem({ message: 'Choose the employee to issue a statement to.', fields: [] });
    const body = { title: title.trim(), ...(asOf ? { asOf } : {}), ...(audience === 'one' && employee ? { employeeId: employee.id } : {}) };
    const result = await api.POST('/api/total-rewards/issued-statements', { body });
    if (result.error || !result.data) {
      return setProblem({ message: errorMessage(result.error), fields: fieldProblems(result.error, { title: 'Title', asOf: 'As of', employeeId: 'Employee' }) });
    }
    setProblem(null);
    await start(() => Promise.resolve(result));
  }

  return (
    <form className="tr-issue-form" onSubmit={(event) => void submit(event)} aria-label="Issue statements">
      <label>
        Title
        <input value={title} maxLength={200} placeholder="2026 total rewards statement" onChange={(event) => setTitle(event.target.value)} />
      </label>
      <label>
        As of
        <input type="date" value={asOf} onChange={(event) => setAsOf(event.target.value)} />
      </label>
      <fieldset className="tr-issue-audience">
        <legend>To whom</legend>
        <label>
          <input type="radio" name="tr-issue-audience" checked={audience === 'one'} onChange={() => setAudience('one')} /> One employee
        </label>
        <label>
          <input type="radio" name="tr-issue-audience" checked={audience === 'everyone'} onChange={() => setAudience('everyone')} /> Everyone active in your reach
        </label>
      </fieldset>
      {audience === 'one' && (
        <div className="tr-issue-employee">
          <EmployeePicker selected={employee?.id ?? null} label="Employee" onSelect={(id, name) => setEmployee({ id, name })} />
          <p className="muted" role="status">
            {employee ? `Issuing to ${employee.name}.` : 'Nobody chosen yet.'}
          </p>
        </div>
      )}
      <FormProblem message={problem?.message ?? null} fields={problem?.fields ?? []} />
      <div className="actions">
        <button type="submit" className="primary" disabled={running}>
          <Send size={18} aria-hidden="true" /> {running && job ? `Issuing… ${job.progress}%` : 'Issue statements'}
        </button>
        <span role="status" aria-live="polite" className="muted">
          {running && job ? (job.message ?? 'Waiting to start…') : ''}
        </span>
      </div>
    </form>
  );
}

/** What was issued, newest first, a page at a time, each downloaded as issued. */
function IssuedList({ generation }: { generation: number }) {
  const { add } = useToasts();
  const first = useQuery('/api/total-rewards/issued-statements/all', { params: { query: { limit: PAGE } } });
  const [more, setMore] = useState<{ generation: number; rows: IssuedRecord[]; next: string | null } | null>(null);
  const [loading, setLoading] = useState(false);
  const { mutate } = first;
  // A new issue starts the list again from its newest page.
  useEffect(() => {
    if (generation) void mutate();
  }, [generation, mutate]);
  if (first.error) return <ErrorState error={first.error} retry={() => void first.mutate()} />;
  if (!first.data) return <SkeletonText lines={4} label="Loading what was issued" />;
  const extra = more && more.generation === generation ? more : null;
  const rows = [...first.data.data, ...(extra?.rows ?? [])];
  const next = extra ? extra.next : first.data.page.nextCursor;
  if (!rows.length) {
    return (
      <Empty title="Nothing issued yet" icon={FileStack} compact>
        Issue a statement above: it is kept as it is on its day, and the employee finds it under their statement.
      </Empty>
    );
  }
  async function loadMore() {
    if (!next) return;
    setLoading(true);
    const { data, error } = await api.GET('/api/total-rewards/issued-statements/all', { params: { query: { limit: PAGE, cursor: next } } });
    setLoading(false);
    if (error || !data) return void add('error', errorMessage(error));
    setMore({ generation, rows: [...(extra?.rows ?? []), ...data.data], next: data.page.nextCursor });
  }
  async function download(item: IssuedRecord) {
    const { data: blob, error, response } = await api.GET('/api/total-rewards/issued-statements/{issuedStatementId}/pdf', { params: { path: { issuedStatementId: item.id } }, parseAs: 'blob' });
    if (error || !blob) return void add('error', errorMessage(error, 'The PDF could not be downloaded. Please try again.'));
    saveFile(blob, response, 'total-rewards-statement.pdf');
  }
  return (
    <>
      <DataTable
        caption="Issued statements, newest first"
        captionHidden
        cardsOnPhone
        rows={rows}
        rowKey={(item) => item.id}
        rowAttributes={(item) => ({ 'data-issued-id': item.id })}
        columns={[
          { key: 'who', header: 'Employee', rowHeader: true, cell: (item) => item.employeeName },
          { key: 'title', header: 'Title', cell: (item) => item.title },
          { key: 'asOf', header: 'As of', cell: (item) => formatDate(item.asOf) },
          { key: 'issuedAt', header: 'Issued', cell: (item) => issuedWhen(item.issuedAt) },
          {
            key: 'pdf',
            header: <span className="visually-hidden">Download</span>,
            label: 'Download',
            cell: (item) => (
              <button type="button" className="small" onClick={() => void download(item)} aria-label={`Download ${item.title} for ${item.employeeName} (PDF)`}>
                <Download size={16} aria-hidden="true" /> PDF
              </button>
            ),
          },
        ]}
      />
      {next && (
        <div className="actions">
          <button type="button" onClick={() => void loadMore()} disabled={loading}>
            {loading ? 'Loading…' : 'Show more'}
          </button>
        </div>
      )}
    </>
  );
}

/** `/totalrewards/issued`: admins issue statements (one employee, or everyone in reach) and see what was issued. */
export function IssueStatementsScreen() {
  const person = usePerson().data?.data;
  const [generation, setGeneration] = useState(0);
  const header = (
    <PageHeader
      title="Issue statements"
      icon={FileStack}
      eyebrow={<Link href="/totalrewards">Total rewards</Link>}
      description="A statement as of a day, kept as it is: later pay changes or settings do not change it. Employees find theirs under their statement, also offline once opened."
    />
  );
  if (person && !can(person, 'totalRewards', 'edit', 'all')) {
    return (
      <>
        {header}
        <Empty title="Issuing statements is for admins" icon={FileStack} action={<Link href="/totalrewards">Open your statement</Link>}>
          Issuing statements needs the totalRewards permission for the whole company (edit). Please contact your company admin for support.
        </Empty>
      </>
    );
  }
  return (
    <>
      {header}
      <Section title="Issue" id="tr-issue">
        <IssueForm
          onIssued={() => setGeneration((value) => value + 1)}
        />
      </Section>
      <Section title="Issued" id="tr-issued-all">
        <IssuedList generation={generation} />
      </Section>
    </>
  );
}
