import { Copy, Download, FileSignature, Pencil } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { api, errorMessage, useQuery } from '../../api/client';
import { invalidate, useMutation } from '../../api/queries';
import { Badge } from '../../ui/Badge';
import { FormProblem } from '../../ui/FormProblem';
import { Modal } from '../../ui/Modal';
import { PageHeader, Section } from '../../ui/Page';
import { Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { formatDate, formatMoney } from '../../ui/format';
import { AlternativesComparison } from './Alternatives';
import { OfferChecksPanel } from './Checks';
import { saveFile } from '../../ui/files';
import { type Offer, actionText, offerPackages, stateLabel, stateTone, useOfferUpdates } from './common';
import { PackageChart } from './PackageChart';
import './offers.css';
import { useCompTypes } from '../../api/compTypes';

type Action = 'submit' | 'approve' | 'reject' | 'send' | 'rescind' | 'cancelHire';
type Commented = 'reject' | 'rescind' | 'cancelHire';

const ACTION_PATHS = {
  submit: '/api/offers/{offerId}/submit',
  approve: '/api/offers/{offerId}/approve',
  reject: '/api/offers/{offerId}/reject',
  rescind: '/api/offers/{offerId}/rescind',
  cancelHire: '/api/offers/{offerId}/cancel-hire',
} as const;

const LABELS: Record<Action, string> = {
  submit: 'Submit for approval',
  approve: 'Approve',
  reject: 'Send back',
  send: 'Send to the candidate',
  rescind: 'Rescind',
  cancelHire: 'Cancel the hire',
};

const DIALOGS: Record<Commented, { title: string; question: string; danger: boolean }> = {
  reject: { title: 'Send the offer back', question: 'What should change?', danger: false },
  rescind: { title: 'Rescind the offer', question: 'Why is it withdrawn?', danger: true },
  cancelHire: { title: 'Cancel the hire', question: 'Why is the hire cancelled? Their employee record, pay and grant are removed.', danger: true },
};

const DONE: Record<Action, string> = {
  submit: 'The offer was submitted.',
  approve: 'You approved the offer.',
  reject: 'The offer was sent back.',
  send: 'The offer was sent.',
  rescind: 'The offer was rescinded.',
  cancelHire: 'The hire was cancelled.',
};

const when = (timestamp: string) => new Date(timestamp).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A comment before an action that needs one (sending back, rescinding). */
function CommentDialog({ action, onClose, onDone }: { action: Commented; onClose: () => void; onDone: (comment: string) => Promise<string | null> }) {
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(await onDone(comment.trim()));
  }
  return (
    <Modal title={DIALOGS[action].title} onClose={onClose}>
      <form className="settings-form" onSubmit={(event) => void submit(event)}>
        <label>
          {DIALOGS[action].question}
          <textarea rows={3} required maxLength={4000} value={comment} onChange={(event) => setComment(event.target.value)} />
        </label>
        <FormProblem message={problem} />
        <div className="actions">
          <button type="submit" className={DIALOGS[action].danger ? 'danger' : 'primary'} disabled={!comment.trim()}>
            {LABELS[action]}
          </button>
          <button type="button" className="ghost" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

function OfferView({ offer, onChanged }: { offer: Offer; onChanged: () => Promise<unknown> }) {
  const compTypes = useCompTypes();
  const [, navigate] = useLocation();
  const { add } = useToasts();
  const [link, setLink] = useState<{ url: string; expiresAt: string } | null>(null);
  const [asking, setAsking] = useState<Commented | null>(null);
  // A refusal goes back to where the action was asked (a toast, or the comment dialog).
  const { run: write, busy } = useMutation({ failure: 'problem', fallback: (status) => (status === 409 ? 'Someone else changed this offer first. Reload and try again.' : undefined) });
  const packages = offerPackages(offer);
  // Once accepted, the package agreed is the offer's package on this page (an alternative, when chosen).
  const agreed = offer.acceptance?.package ?? offer.package;
  const agreedLabel = offer.acceptance ? (offer.acceptance.alternativeId ? `Package accepted: ${offer.acceptance.packageLabel}` : 'Package accepted') : 'Package';
  const main = offer.acceptance ? packages.find((option) => option.key === (offer.acceptance?.alternativeId ?? 'main')) : packages[0];
  const pricePerShare = offer.package.equity?.pricePerShare ?? 0;
  const name = `${offer.candidate.firstName} ${offer.candidate.lastName}`;

  async function act(action: Action, comment?: string): Promise<string | null> {
    const init = { params: { path: { offerId: offer.id }, header: { 'If-Match': `"${offer.version}"` } }, body: comment ? { comment } : {} };
    // The screen stays busy until the offer and the list are read again.
    const done = async () => {
      add('success', DONE[action]);
      await Promise.all([onChanged(), invalidate('/api/offers')]);
    };
    const result =
      action === 'send'
        ? await write(async () => {
            const reply = await api.POST('/api/offers/{offerId}/send', init);
            if (reply.data) {
              setLink({ url: reply.data.link.url, expiresAt: reply.data.link.expiresAt });
              await done();
            }
            return reply;
          })
        : await write(async () => {
            const reply = await api.POST(ACTION_PATHS[action], init);
            if (reply.data) await done();
            return reply;
          });
    return result.ok ? null : result.problem.message;
  }

  async function run(action: Action) {
    const problem = await act(action);
    if (problem) add('error', problem);
  }

  async function remove() {
    const { error } = await api.DELETE('/api/offers/{offerId}', { params: { path: { offerId: offer.id } } });
    if (error) return void add('error', errorMessage(error));
    await invalidate('/api/offers');
    navigate('/offers');
  }

  async function downloadPdf() {
    const { data, error, response } = await api.GET('/api/offers/{offerId}/pdf', { params: { path: { offerId: offer.id } }, parseAs: 'blob' });
    if (error || !data) return void add('error', errorMessage(error, 'The PDF could not be made. Please try again.'));
    saveFile(data, response, 'offer-letter.pdf');
  }

  const can = (action: Offer['actions'][number]) => offer.actions.includes(action);
  return (
    <div className="offers">
      <PageHeader
        title={name}
        icon={FileSignature}
        eyebrow={<Link href="/offers">Offers</Link>}
        description={`${offer.title} · starts ${formatDate(offer.startDate)} · expires ${formatDate(offer.expiresOn)}`}
        actions={
          <>
            <span role="status" data-testid="offer-state">
              <Badge tone={stateTone(offer.state)}>{stateLabel(offer.state)}</Badge>
            </span>
            {can('edit') && (
              <Link href={`/offers/${offer.id}/edit`} className="button">
                <Pencil size={16} aria-hidden="true" /> Edit
              </Link>
            )}
            <button type="button" onClick={() => void downloadPdf()}>
              <Download size={16} aria-hidden="true" /> PDF
            </button>
          </>
        }
      />
      <div className="actions" role="group" aria-label="What you can do">
        {can('submit') && (
          <button type="button" className="primary" disabled={busy} onClick={() => void run('submit')}>
            {offer.checks.approvalRequired ? LABELS.submit : 'Finish the offer'}
          </button>
        )}
        {can('approve') && (
          <button type="button" className="primary" disabled={busy} onClick={() => void run('approve')}>
            {LABELS.approve}
          </button>
        )}
        {can('reject') && (
          <button type="button" disabled={busy} onClick={() => setAsking('reject')}>
            {LABELS.reject}
          </button>
        )}
        {can('send') && (
          <button type="button" className="primary" disabled={busy} onClick={() => void run('send')}>
            {LABELS.send}
          </button>
        )}
        {can('rescind') && (
          <button type="button" className="danger" disabled={busy} onClick={() => setAsking('rescind')}>
            {LABELS.rescind}
          </button>
        )}
        {can('cancelHire') && (
          <button type="button" className="danger" disabled={busy} onClick={() => setAsking('cancelHire')}>
            {LABELS.cancelHire}
          </button>
        )}
        {can('delete') && (
          <button type="button" className="ghost" disabled={busy} onClick={() => void remove()}>
            Delete the draft
          </button>
        )}
      </div>
      {link && (
        <div className="card offer-link" role="status">
          <label className="visually-hidden" htmlFor="offer-link">
            The candidate’s link
          </label>
          <p>The candidate was e-mailed this link; it works until {when(link.expiresAt)}:</p>
          <input id="offer-link" readOnly value={link.url} onFocus={(event) => event.currentTarget.select()} />
          <button
            type="button"
            onClick={() =>
              void navigator.clipboard?.writeText(link.url).then(
                () => add('success', 'The link was copied.'),
                () => add('error', 'The link could not be copied; select it and copy it yourself.'),
              )
            }
          >
            <Copy size={16} aria-hidden="true" /> Copy the link
          </button>
        </div>
      )}
      {!link && offer.linkExpiresAt && <p className="muted">The candidate’s link works until {when(offer.linkExpiresAt)}.</p>}
      {offer.acceptance && (
        <div className="card offer-letter-done" role="status">
          <p>
            <strong>Accepted</strong> by “{offer.acceptance.signature}” on {when(offer.acceptance.acceptedAt)} — {offer.acceptance.packageLabel}, version {offer.acceptance.offerVersion}.
          </p>
        </div>
      )}
      {offer.hire && <HireStatus hire={offer.hire} manager={offer.hiringManager} />}
      {offer.declineReason && (
        <div className="card" role="status">
          <p>
            <strong>Declined</strong>: {offer.declineReason}
          </p>
        </div>
      )}
      <div className="offer-detail">
        <div>
          <Section title={agreedLabel} id="offer-package">
            <dl className="offer-letter-facts">
              <div>
                <dt>Base salary</dt>
                <dd>{formatMoney(agreed.base)}</dd>
              </div>
              <div>
                <dt>{compTypes.label('bonus_target', 'Bonus target')}</dt>
                <dd>{agreed.bonusTarget ? `${formatMoney(agreed.bonusTarget)} (${agreed.bonusTargetPercent}%)` : '—'}</dd>
              </div>
              <div>
                <dt>Variable</dt>
                <dd>{formatMoney(agreed.variable)}</dd>
              </div>
              <div>
                <dt>Sign-on</dt>
                <dd>{formatMoney(agreed.signOn)}</dd>
              </div>
              <div>
                <dt>Equity</dt>
                <dd>{agreed.equity ? `${agreed.equity.shares.toLocaleString()} ${agreed.equity.type === 'option' ? 'options' : 'RSUs'}` : '—'}</dd>
              </div>
              <div>
                <dt>Candidate activity</dt>
                <dd data-testid="candidate-activity">
                  {offer.acceptedAt ? 'Accepted' : offer.declinedAt ? 'Declined' : offer.openedAt ? `Opened, viewed ${offer.viewCount} ${offer.viewCount === 1 ? 'time' : 'times'}` : offer.sentAt ? 'Not opened yet' : '—'}
                </dd>
              </div>
            </dl>
            {main && <PackageChart pkg={main} pricePerShare={pricePerShare} title={offer.acceptance ? `${main.label} by year, equity at today’s price` : 'The offer by year, equity at today’s price'} />}
          </Section>
          {packages.length > 1 && (
            <Section title="Alternatives" id="offer-alternatives">
              <AlternativesComparison packages={packages} pricePerShare={pricePerShare} multiple={1} />
            </Section>
          )}
          <Section title="History" id="offer-history">
            <ol className="offer-history">
              {offer.history.map((entry) => (
                <li key={entry.id}>
                  <span>
                    <strong>{actionText(entry.action)}</strong>
                    {entry.actor.name ? ` by ${entry.actor.name}` : entry.actor.kind === 'candidate' ? ' by the candidate' : ''}
                    {entry.subjectVersion !== null ? ` · version ${entry.subjectVersion}` : ''}
                  </span>
                  <span className="muted small-text">
                    {when(entry.at)} · {stateLabel(entry.from as Offer['state'])} → {stateLabel(entry.to as Offer['state'])}
                  </span>
                  {entry.comment && <span>“{entry.comment}”</span>}
                </li>
              ))}
            </ol>
          </Section>
        </div>
        <OfferChecksPanel checks={offer.checks} />
      </div>
      {asking && (
        <CommentDialog
          action={asking}
          onClose={() => setAsking(null)}
          onDone={async (comment) => {
            const problem = await act(asking, comment);
            if (!problem) setAsking(null);
            return problem;
          }}
        />
      )}
    </div>
  );
}

/** Where the accepted offer's hire stands: starting on a date (not active until then), started, or cancelled. */
function HireStatus({ hire, manager }: { hire: NonNullable<Offer['hire']>; manager: Offer['hiringManager'] }) {
  const reports = manager ? `, reporting to ${manager.name}` : '';
  return (
    <div className="card" role="status" data-testid="hire-status">
      <p>
        {hire.status === 'starting' ? (
          <>
            <strong>Starting on {formatDate(hire.startDate)}</strong>
            {reports}. Not counted as an employee until then; they become active on that day (UTC).{' '}
            {hire.employeeId && <Link href={`/team/employees?employee=${hire.employeeId}`}>Their record</Link>}
          </>
        ) : hire.status === 'started' ? (
          <>
            <strong>Started</strong> on {formatDate(hire.startDate)}
            {reports}. {hire.employeeId && <Link href={`/team/employees?employee=${hire.employeeId}`}>Their record</Link>}
          </>
        ) : (
          <>
            <strong>Hire cancelled</strong> before the start date ({formatDate(hire.startDate)}); the history says who and why.
          </>
        )}
      </p>
    </div>
  );
}

/** /offers/:offerId: one offer — its package and checks, the approval, the candidate's link, history — updated live. */
export function OfferScreen() {
  const { offerId = '' } = useParams<{ offerId: string }>();
  const { add } = useToasts();
  const offer = useQuery('/api/offers/{offerId}', { params: { path: { offerId } } });
  useOfferUpdates((update) => {
    if (update.offerId !== offerId) return;
    const said: Record<string, string> = { opened: 'The candidate opened the letter.', viewed: 'The candidate is viewing the letter.', accepted: 'The candidate accepted the offer.', declined: 'The candidate declined the offer.' };
    const sentence = said[update.event];
    if (sentence) add('info', sentence);
  });
  return (
    <Loaded data={offer.data?.data} error={offer.error} retry={() => void offer.mutate()}>
      {(data) => <OfferView offer={data} onChanged={() => offer.mutate()} />}
    </Loaded>
  );
}
