import { CheckCircle2, Download, Mail } from 'lucide-react';
import { Link, useParams } from 'wouter';
import { TRY_AGAIN, api, errorMessage, statusOf, useQuery } from '../../api/client';
import { invalidate, useMutation } from '../../api/queries';
import { useShownAsOf } from '../../api/offline';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { PageHeader, Section } from '../../ui/Page';
import { SkeletonText } from '../../ui/Skeleton';
import { Empty, ErrorState, Loaded, NotSavedOffline } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { useOnline } from '../../ui/hooks';
import { saveFile } from '../../ui/files';
import { formatDate, formatMoney } from '../../ui/format';
import { can } from '../settings/permissions';
import { type LetterSummary, type RewardLetter, changeText, formatWhen } from './common';
import './rewardLetters.css';

/** Planners' way to a closed cycle's letters. */
function PlannerCycles() {
  const person = usePerson().data?.data;
  // Whole-company planners see every letter of a cycle; managers their reports' once released to them.
  const plans = can(person, 'compensationPlanning', 'view');
  const cycles = useQuery('/api/v2/meritCycles', plans ? {} : null);
  if (!plans) return null;
  return (
    <Section title="Letters of closed cycles (for planners and managers)" id="rl-cycles">
      <Loaded data={cycles.data?.data} error={cycles.error} inline skeleton={<SkeletonText lines={2} label="Loading the cycles" />}>
        {(list) => {
          const closed = list.filter((cycle) => cycle.state === 'closed');
          if (!closed.length) return <p className="rl-muted">Letters are written when a merit cycle closes; no cycle is closed yet.</p>;
          return (
            <ul className="rl-list">
              {closed.map((cycle) => (
                <li key={cycle.id}>
                  <Link href={`/rewardletters/cycles/${cycle.id}`}>{cycle.name}</Link> <span className="rl-muted">effective {formatDate(cycle.effectiveDate)}</span>
                </li>
              ))}
            </ul>
          );
        }}
      </Loaded>
    </Section>
  );
}

function LetterCard({ letter }: { letter: LetterSummary }) {
  return (
    <li className="rl-card">
      <Link href={`/rewardletters/${letter.meritCycleId}`} className="rl-card-link">
        <span className="rl-card-title">{letter.cycleName}</span>
        <span className="rl-card-figures">
          {formatMoney(letter.oldBase)} → <strong>{formatMoney(letter.newBase)}</strong> ({changeText(letter.changePercent)})
        </span>
        <span className="rl-muted">from {formatDate(letter.effectiveDate)}</span>
      </Link>
      {letter.confirmedAt ? <Badge tone="success">Confirmed</Badge> : letter.viewedAt ? <Badge tone="neutral">Read</Badge> : <Badge tone="info">New</Badge>}
    </li>
  );
}

/** `/rewardletters`: the person's own released letters, newest first. */
export function MyLettersScreen() {
  const { data, error, mutate } = useQuery('/api/reward-letters', {});
  return (
    <>
      <PageHeader title="Reward letters" icon={Mail} description="Your letters from merit cycles: your new pay, when it starts, and who to talk to." />
      {error && statusOf(error) === 404 ? (
        <Empty title="Reward letters are not used here" icon={Mail}>
          {errorMessage(error)}
        </Empty>
      ) : error ? (
        <ErrorState error={error} retry={() => void mutate()} />
      ) : (
        <Loaded data={data?.data} error={undefined} skeleton={<SkeletonText lines={3} label="Loading your letters" />}>
          {(letters) =>
            letters.length ? (
              <ul className="rl-cards" aria-label="Your reward letters">
                {letters.map((letter) => (
                  <LetterCard key={letter.meritCycleId} letter={letter} />
                ))}
              </ul>
            ) : (
              <Empty title="No letter yet" icon={Mail}>
                Your reward letter appears here when a merit cycle ends and your company releases the letters.
              </Empty>
            )
          }
        </Loaded>
      )}
      <PlannerCycles />
    </>
  );
}

/** The letter as issued: the server's HTML, every value escaped there and no script or link in it. */
export function LetterDocument({ letter }: { letter: RewardLetter }) {
  // The documents module writes this HTML from escaped text only, with inline styles and no script, link or image (docs/documents-and-workflow.md).
  // A region of its own, focusable, so a keyboard can scroll a wide table on a narrow screen.
  return <div className="rl-document" role="region" aria-label={letter.document.title} tabIndex={0} dangerouslySetInnerHTML={{ __html: letter.document.html }} />;
}

/** `/rewardletters/<cycle>`: the person's own letter of a cycle; read once, it stays readable offline. */
export function MyLetterScreen() {
  const { meritCycleId = '' } = useParams<{ meritCycleId: string }>();
  const { add } = useToasts();
  const { run, busy } = useMutation({ fallback: () => TRY_AGAIN });
  const shownAsOf = useShownAsOf();
  const online = useOnline();
  const { data, error, mutate } = useQuery('/api/reward-letters/{meritCycleId}', { params: { path: { meritCycleId } } });
  const letter = data?.data;
  if (error && !letter) {
    if (statusOf(error) === 404) {
      return (
        <>
          <PageHeader title="Reward letter" icon={Mail} />
          <Empty title="There is no letter here for you" icon={Mail} action={<Link href="/rewardletters">Your letters</Link>}>
            A letter appears once your company releases it.
          </Empty>
        </>
      );
    }
    // No answer at all while offline: the device kept no copy, since the letter was never opened here.
    if (statusOf(error) === undefined && !online) {
      return (
        <>
          <PageHeader title="Reward letter" icon={Mail} />
          <NotSavedOffline what="letter" retry={() => void mutate()} />
        </>
      );
    }
    return <ErrorState error={error} retry={() => void mutate()} />;
  }
  if (!letter) return <SkeletonText lines={6} label="Loading your letter" />;
  async function download() {
    if (!letter) return;
    const { data: blob, error: failed, response } = await api.GET('/api/v2/meritCycles/{meritCycleId}/rewardLetters/employees/{employeeId}/pdf', {
      params: { path: { meritCycleId, employeeId: letter.letter.employeeId } },
      parseAs: 'blob',
    });
    if (failed || !blob) return void add('error', errorMessage(failed, 'The PDF could not be made. Please try again.'));
    saveFile(blob, response, 'reward-letter.pdf');
  }
  async function confirm() {
    if (!letter) return;
    const params = { path: { meritCycleId, employeeId: letter.letter.employeeId } };
    const result = await run(() => api.POST('/api/v2/meritCycles/{meritCycleId}/rewardLetters/employees/{employeeId}/confirm', { params }));
    if (!result.ok) return;
    // The letter shows its confirmation at once; the list of letters is asked again.
    await mutate({ data: result.data.data }, { revalidate: false });
    await invalidate('/api/reward-letters');
    add('success', 'Thank you: your confirmation is recorded.');
  }
  const { letter: summary } = letter;
  return (
    <div className="rl-page">
      <PageHeader
        title={summary.cycleName}
        eyebrow={<Link href="/rewardletters">Reward letters</Link>}
        icon={Mail}
        description={`${formatMoney(summary.oldBase)} → ${formatMoney(summary.newBase)} (${changeText(summary.changePercent)}) from ${formatDate(summary.effectiveDate)}`}
        actions={
          <button type="button" onClick={() => void download()}>
            <Download size={18} aria-hidden="true" /> Download PDF
          </button>
        }
      />
      {shownAsOf && <p className="rl-offline" role="status">Offline: the copy saved on this device.</p>}
      <LetterDocument letter={letter} />
      <div className="rl-confirm" role="status">
        {summary.confirmedAt ? (
          <p>
            <CheckCircle2 size={18} aria-hidden="true" /> You confirmed this letter {formatWhen(summary.confirmedAt)}.
          </p>
        ) : (
          <button type="button" className="primary" disabled={busy} onClick={() => void confirm()}>
            <CheckCircle2 size={18} aria-hidden="true" /> I have read my letter
          </button>
        )}
      </div>
    </div>
  );
}
