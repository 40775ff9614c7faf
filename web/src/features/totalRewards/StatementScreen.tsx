import { Download, Eye, FileStack, Gift, Megaphone } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import { api, errorMessage, statusOf, useQuery } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { PageHeader } from '../../ui/Page';
import { useOnline } from '../../ui/hooks';
import { SkeletonStats, SkeletonText } from '../../ui/Skeleton';
import { Empty, ErrorState, NotSavedOffline } from '../../ui/States';
import { saveFile } from '../../ui/files';
import { useToasts } from '../../ui/Toasts';
import { can } from '../settings/permissions';
import { EmployeePicker } from './EmployeePicker';
import { type CurrencySide, SECTION_SLUGS, type SectionName } from './model';
import { StatementView } from './Statement';

function StatementSkeleton() {
  return (
    <div className="tr-statement" aria-busy="true">
      <div className="tr-banner tr-banner-skeleton" />
      <SkeletonStats count={3} label="Loading your statement" />
      <SkeletonText lines={4} label="Loading your statement" />
    </div>
  );
}

/** Scrolls to the section a sub-path names (`/totalrewards/statement/equity`) once it is drawn. */
function useScrollToSection(section: SectionName | undefined, ready: boolean): void {
  useEffect(() => {
    if (!section || !ready) return;
    document.getElementById(`tr-${SECTION_SLUGS[section]}`)?.scrollIntoView({ block: 'start' });
  }, [section, ready]);
}

/** Links for people who may do more than read their own statement. */
function AdminLinks() {
  const person = usePerson().data?.data;
  const previews = can(person, 'totalRewards', 'view', 'all') || can(person, 'employeeCompensation', 'view');
  const configures = can(person, 'totalRewards', 'view', 'all');
  const issues = can(person, 'totalRewards', 'edit', 'all');
  if (!previews && !configures) return null;
  return (
    <nav className="tr-admin-links" aria-label="Total rewards for admins">
      {previews && (
        <Link href="/totalrewards/preview">
          <Eye size={16} aria-hidden="true" /> Preview an employee’s statement
        </Link>
      )}
      {issues && (
        <Link href="/totalrewards/issued">
          <FileStack size={16} aria-hidden="true" /> Issue statements
        </Link>
      )}
      {configures && (
        <Link href="/settings/communicate">
          <Megaphone size={16} aria-hidden="true" /> Communicate settings
        </Link>
      )}
    </nav>
  );
}

/**
 * Statements an admin issued to the person: each as it was on its day, downloaded as issued. The
 * list and each PDF the person has opened are their own answers, which the service worker keeps
 * for offline reading (the own-only PDF path, never an admin's read of someone else's).
 */
function IssuedStatements({ offline }: { offline: boolean }) {
  const { add } = useToasts();
  const { data } = useQuery('/api/total-rewards/issued-statements', {});
  const issued = data?.data ?? [];
  // Nothing issued yet is nothing to say: the live statement above is the one to read.
  if (!issued.length) return null;
  async function download(id: string) {
    const { data: blob, error: failed, response } = await api.GET('/api/total-rewards/statement/issued/{issuedStatementId}/pdf', { params: { path: { issuedStatementId: id } }, parseAs: 'blob' });
    if (failed || !blob) {
      const fallback = offline ? 'This PDF was not opened on this device before, so it is not saved for offline reading.' : 'The PDF could not be downloaded. Please try again.';
      return void add('error', offline ? fallback : errorMessage(failed, fallback));
    }
    saveFile(blob, response, 'total-rewards-statement.pdf');
  }
  return (
    <section className="section-card tr-issued" aria-labelledby="tr-issued-title">
      <h2 id="tr-issued-title">Issued statements</h2>
      <p className="muted">
        Statements issued to you, each as it was on its day. Your statement above is always today’s.
        {offline ? ' Offline: the PDFs you opened before are saved on this device.' : ''}
      </p>
      <ul className="tr-issued-list">
        {issued.map((item) => (
          <li key={item.id}>
            <span>
              <strong>{item.title}</strong>
              <span className="muted"> · as of {item.asOf}</span>
            </span>
            <button type="button" className="small" onClick={() => void download(item.id)} aria-label={`Download ${item.title} (PDF)`}>
              <Download size={16} aria-hidden="true" /> PDF
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The signed-in person's own statement; the service worker keeps this one answer for offline reading. */
function OwnStatement({ section }: { section?: SectionName }) {
  const offline = !useOnline();
  const { add } = useToasts();
  const { data, error, mutate } = useQuery('/api/total-rewards/statement', {});
  const statement = data?.data;
  useScrollToSection(section, Boolean(statement));
  if (error && statusOf(error) === 404) {
    return (
      <>
        <PageHeader title="Total rewards" icon={Gift} description="Statements of everything employees receive: pay, equity and benefits." />
        <Empty title="There is no statement of your own" icon={Gift} action={<AdminLinks />}>
          {errorMessage(error, 'Your sign-in is not linked to an employee record.')} An admin links sign-ins to employee records in the people data.
        </Empty>
      </>
    );
  }
  // No answer at all while offline: the device kept no copy, since the statement was never opened here.
  if (error && !statement && statusOf(error) === undefined && offline) {
    return (
      <>
        <PageHeader title="Total rewards" icon={Gift} />
        <NotSavedOffline what="statement" retry={() => void mutate()} />
      </>
    );
  }
  if (error && !statement) return <ErrorState error={error} retry={() => void mutate()} />;
  if (!statement) return <StatementSkeleton />;
  async function download(side: CurrencySide) {
    const { data: blob, error: failed, response } = await api.GET('/api/total-rewards/statement/pdf', { params: { query: { currency: side } }, parseAs: 'blob' });
    if (failed || !blob) return void add('error', errorMessage(failed, 'The PDF could not be made. Please try again.'));
    saveFile(blob, response, 'total-rewards-statement.pdf');
  }
  return (
    <>
      <AdminLinks />
      <StatementView statement={statement} onDownload={download} offline={offline} />
      <IssuedStatements offline={offline} />
    </>
  );
}

/** An admin's preview of one employee's statement, as that employee sees it (never kept for offline use). */
function PreviewStatement({ employeeId }: { employeeId: string }) {
  const [, navigate] = useLocation();
  const { add } = useToasts();
  const { data, error, mutate } = useQuery('/api/total-rewards/statements/{employeeId}', { params: { path: { employeeId } } });
  const statement = data?.data;
  async function download(side: CurrencySide) {
    const { data: blob, error: failed, response } = await api.GET('/api/total-rewards/statements/{employeeId}/pdf', { params: { path: { employeeId }, query: { currency: side } }, parseAs: 'blob' });
    if (failed || !blob) return void add('error', errorMessage(failed, 'The PDF could not be made. Please try again.'));
    saveFile(blob, response, 'total-rewards-statement.pdf');
  }
  return (
    <div className="tr-preview-page">
      <div className="tr-preview-bar" role="status">
        <Eye size={16} aria-hidden="true" /> You are previewing someone else’s statement, as they see it.{' '}
        <button type="button" className="small" onClick={() => navigate('/totalrewards/preview')}>
          Choose someone else
        </button>
      </div>
      {error ? <ErrorState error={error} retry={() => void mutate()} /> : statement ? <StatementView statement={statement} onDownload={download} /> : <StatementSkeleton />}
    </div>
  );
}

function PreviewChooser() {
  const [, navigate] = useLocation();
  return (
    <>
      <PageHeader title="Preview a statement" icon={Eye} description="Everyone you may see: read their statement exactly as they do." actions={<Link href="/totalrewards/statement">Your own statement</Link>} />
      <section className="section-card">
        <EmployeePicker selected={null} label="Whose statement" onSelect={(id) => navigate(`/totalrewards/preview/${encodeURIComponent(id)}`)} />
      </section>
    </>
  );
}

const SECTION_BY_SLUG = new Map(Object.entries(SECTION_SLUGS).map(([name, slug]) => [slug, name as SectionName]));

/**
 * /totalrewards and its sub-paths: `/totalrewards` and `/totalrewards/statement` (the person's own
 * statement), `/totalrewards/statement/<section>` (scrolled to it), `/totalrewards/preview` and
 * `/totalrewards/preview/<employeeId>` (admins).
 */
export function TotalRewardsScreen() {
  const [location] = useLocation();
  const parts = location.replace(/^\/totalrewards\/?/, '').split('/').filter(Boolean);
  const [first, second] = parts;
  if (first === 'preview') return second ? <PreviewStatement employeeId={decodeURIComponent(second)} /> : <PreviewChooser />;
  if (!first || (first === 'statement' && (!second || SECTION_BY_SLUG.has(second)))) return <OwnStatement section={second ? SECTION_BY_SLUG.get(second) : undefined} />;
  if (!second && SECTION_BY_SLUG.has(first)) return <OwnStatement section={SECTION_BY_SLUG.get(first)} />;
  return (
    <>
      <PageHeader title="This part of total rewards does not exist" icon={Gift} />
      <Empty title="Nothing here" icon={Gift} action={<Link href="/totalrewards/statement">Open your statement</Link>}>
        The address names no section of a statement.
      </Empty>
    </>
  );
}
