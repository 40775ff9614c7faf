import { Megaphone, Scale } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, statusOf, useQuery } from '../../api/client';
import { useMutation, useVersionedSave } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { type Column, DataTable } from '../../ui/DataTable';
import { FormProblem } from '../../ui/FormProblem';
import { formatDate, formatNumber } from '../../ui/format';
import { PageHeader, Section } from '../../ui/Page';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { can } from '../settings/permissions';
import { AnswerView } from './Answer';
import { ClarificationView } from './MyPayInformation';
import { dayOf, requestBadge } from './common';
import './payTransparency.css';

type Schemas = components['schemas'];
type PayRequest = Schemas['PayInformationRequest'];
type Clarification = Schemas['PayInformationClarification'];
type Settings = Schemas['PayTransparencySettings'];

const HOME = '/pay-transparency';
const LIST = '/api/pay-transparency/requests';
const ONE = '/api/pay-transparency/requests/{requestId}';
const SETTINGS = '/api/pay-transparency/settings';

// ── the queue ───────────────────────────────────────────────────────────────────────────────

function Queue() {
  const { data, error, mutate } = useQuery(LIST, {});
  const columns: Column<PayRequest>[] = [
    { key: 'employee', header: 'Employee', rowHeader: true, cell: (request) => <Link href={`${HOME}/requests/${request.id}`}>{request.employee.name}</Link> },
    {
      key: 'state',
      header: 'State',
      label: 'State',
      cell: (request) => {
        const badge = requestBadge(request);
        const question = request.clarifications.find((clarification) => clarification.state === 'open');
        return (
          <span className="pt-badges">
            <Badge tone={badge.tone}>{badge.text}</Badge>
            {request.stale && <Badge tone="warning">Data changed</Badge>}
            {question && <Badge tone={question.overdue ? 'danger' : 'warning'}>{question.overdue ? 'Clarification overdue' : `Clarification due ${formatDate(question.dueOn)}`}</Badge>}
          </span>
        );
      },
    },
    { key: 'filed', header: 'Asked on', label: 'Asked on', cell: (request) => formatDate(request.filedOn) },
    { key: 'due', header: 'Due by', label: 'Due by', cell: (request) => formatDate(request.dueOn) },
    { key: 'delivered', header: 'Answered on', label: 'Answered on', cell: (request) => formatDate(dayOf(request.deliveredAt)) },
  ];
  return (
    <Section title="Requests" id="pay-transparency-requests">
      <Loaded data={data?.data} error={error} retry={() => void mutate()} label="Loading the requests">
        {(requests) =>
          requests.length ? (
            <DataTable label="Requests for pay information" rows={requests} columns={columns} rowKey={(request) => request.id} />
          ) : (
            <Empty title="No requests yet" icon={Scale} compact>
              Employees ask from “Your pay information”. Send this year’s notice so everyone knows they can.
            </Empty>
          )
        }
      </Loaded>
    </Section>
  );
}

// ── the criteria and the notice ─────────────────────────────────────────────────────────────

function SettingsForm({ settings, editor }: { settings: Settings; editor: boolean }) {
  const { add } = useToasts();
  const [criteria, setCriteria] = useState(settings.criteria);
  const [minimum, setMinimum] = useState(String(settings.publicationMinimum));
  const [problem, setProblem] = useState<string | null>(null);
  const { save, busy } = useVersionedSave((ifMatch: string, body: Schemas['PayTransparencySettingsInput']) => api.PUT(SETTINGS, { params: { header: { 'If-Match': ifMatch } }, body }));
  const notice = useMutation();
  const thisYear = new Date().getUTCFullYear();
  const sentThisYear = settings.notices.some((entry) => entry.year === thisYear);

  async function submit() {
    const result = await save(settings.version, { criteria, publicationMinimum: Number(minimum) });
    if (result.ok) {
      setProblem(null);
      add('success', 'Saved. New answers use these settings.');
    } else setProblem(result.message);
  }

  return (
    <>
      <Section title="How pay is set" id="pay-transparency-criteria">
        <form
          className="pt-settings"
          aria-label="Pay-setting criteria"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <label>
            The criteria used to set pay and pay progression (Article 6), as every answer shows them
            <textarea value={criteria} rows={6} maxLength={20000} disabled={!editor} onChange={(event) => setCriteria(event.target.value)} />
          </label>
          <div className="pt-settings-row">
            <label>
              Smallest group shown
              <input type="number" min={2} max={50} value={minimum} disabled={!editor} onChange={(event) => setMinimum(event.target.value)} />
            </label>
          </div>
          <p className="muted">Categories of workers and pay are pay equity’s: the job evaluation’s categories, every component in cash or in kind, full-time-equivalent annual rates; hourly over each person’s contractual hours (FTE × 40 hours × 52 weeks where none are recorded).</p>
          <FormProblem message={problem} />
          {editor && (
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? 'Saving…' : 'Save'}
            </button>
          )}
        </form>
      </Section>
      <Section title="The yearly notice" id="pay-transparency-notice">
        <p>
          Every worker is told once a year of their right to this information, by e-mail and on their home screen.{' '}
          {settings.nextNoticeOn ? `The product sends it next on ${formatDate(settings.nextNoticeOn)}.` : 'The product sends it each 15 January once these settings are saved.'}
        </p>
        <ul className="pt-history" aria-label="Notices sent">
          {settings.notices.map((entry) => (
            <li key={entry.year}>
              {entry.year}: sent on {formatDate(dayOf(entry.sentAt))} to {formatNumber(entry.recipients)} people ({entry.trigger === 'button' ? 'by hand' : 'scheduled'})
            </li>
          ))}
        </ul>
        {editor && (
          <button
            type="button"
            className="button"
            disabled={notice.busy || sentThisYear}
            onClick={() => void notice.run(() => api.POST('/api/pay-transparency/notices'), { invalidates: [SETTINGS] }).then((result) => result.ok && add('success', 'The notice is on its way to every worker.'))}
          >
            <Megaphone size={16} aria-hidden="true" /> {sentThisYear ? `Sent for ${thisYear}` : `Send the ${thisYear} notice now`}
          </button>
        )}
      </Section>
    </>
  );
}

function SettingsPanel({ editor }: { editor: boolean }) {
  const { data, error, mutate } = useQuery(SETTINGS, {});
  return (
    <Loaded data={data?.data} error={error} retry={() => void mutate()} label="Loading the settings">
      {(settings) => <SettingsForm key={settings.version} settings={settings} editor={editor} />}
    </Loaded>
  );
}

/** HR's pay transparency: the requests with their due dates, how pay is set, the yearly notice. */
export function PayTransparencyScreen() {
  const person = usePerson().data?.data;
  const editor = can(person, 'payEquity', 'edit');
  return (
    <div className="pt-admin">
      <PageHeader
        title="Pay transparency"
        icon={Scale}
        description="Employees’ requests for their pay information (EU Pay Transparency Directive, Article 7): each answer is prepared from people data and waits for your check; it is due two months after the request."
      />
      <Queue />
      <SettingsPanel editor={editor} />
    </div>
  );
}

// ── one request ─────────────────────────────────────────────────────────────────────────────

const HISTORY_WORDS: Record<string, string> = { file: 'asked', approve: 'approved and delivered', prepare: 'prepared again', clarify: 'asked for clarification', reply: 'replied' };

/** HR's reasoned reply to a question (Art. 7(5)), optionally with the figures prepared again. */
function ReplyForm({ requestId, clarification, onReplied }: { requestId: string; clarification: Clarification; onReplied: () => void }) {
  const { add } = useToasts();
  const [reply, setReply] = useState('');
  const [prepareAgain, setPrepareAgain] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const send = useVersionedSave((ifMatch: string, body: { reply: string; prepareAgain: boolean }) =>
    api.POST('/api/pay-transparency/requests/{requestId}/clarifications/{clarificationId}/reply', { params: { path: { requestId, clarificationId: clarification.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  return (
    <form
      className="pt-settings"
      aria-label="Reply to the question"
      onSubmit={(event) => {
        event.preventDefault();
        void send.save(clarification.version, { reply: reply.trim(), prepareAgain }).then((result) => {
          if (!result.ok) return setProblem(result.message);
          onReplied();
          add('success', 'Replied. The employee is told by e-mail and in the app.');
        });
      }}
    >
      <label>
        Your reply, with its reasons
        <textarea value={reply} rows={5} maxLength={10000} required onChange={(event) => setReply(event.target.value)} />
      </label>
      <label className="pt-check">
        <input type="checkbox" checked={prepareAgain} onChange={(event) => setPrepareAgain(event.target.checked)} />
        Prepare the figures again from today’s people data and send them with the reply
      </label>
      <FormProblem message={problem} />
      <button type="submit" className="button primary" disabled={send.busy || !reply.trim()}>
        {send.busy ? 'Sending…' : 'Send the reply'}
      </button>
    </form>
  );
}

// The review of one request.

function Review({ request, editor }: { request: PayRequest; editor: boolean }) {
  const { add } = useToasts();
  const [note, setNote] = useState(request.note ?? '');
  useEffect(() => setNote(request.note ?? ''), [request.note]);
  const path = { requestId: request.id };
  const noteSave = useVersionedSave((ifMatch: string, text: string) => api.PATCH(ONE, { params: { path, header: { 'If-Match': ifMatch } }, body: { note: text } }));
  const approve = useVersionedSave((ifMatch: string) => api.POST('/api/pay-transparency/requests/{requestId}/approve', { params: { path, header: { 'If-Match': ifMatch } }, body: {} }));
  const prepare = useVersionedSave((ifMatch: string) => api.POST('/api/pay-transparency/requests/{requestId}/prepare', { params: { path, header: { 'If-Match': ifMatch } } }));
  const [problem, setProblem] = useState<string | null>(null);
  const { mutate } = useQuery(ONE, { params: { path } });
  const waiting = request.state === 'review';
  const badge = requestBadge(request);

  async function saveNote(): Promise<number | null> {
    if ((request.note ?? '') === note.trim()) return request.version;
    const result = await noteSave.save(request.version, note.trim());
    if (!result.ok) {
      setProblem(result.message);
      return null;
    }
    await mutate();
    return result.data.data.version;
  }

  return (
    <>
      <div className="pt-request-head">
        <p className="muted">
          Asked on {formatDate(request.filedOn)} · due by {formatDate(request.dueOn)} · reminder on {formatDate(request.reminderOn)}
        </p>
        <Badge tone={badge.tone}>{badge.text}</Badge>
      </div>
      {request.message && (
        <Section title="What the employee wrote" id="pt-message">
          <p>{request.message}</p>
        </Section>
      )}
      {waiting && request.stale && (
        <div className="pt-stale" role="status">
          <strong>People data changed since this answer was prepared.</strong>
          <span>Its figures are no longer what people data gives today. Prepare it again, check it, then deliver it.</span>
          {editor && (
            <button
              type="button"
              className="button"
              disabled={prepare.busy}
              onClick={() =>
                void prepare.save(request.version).then(async (result) => {
                  if (!result.ok) return setProblem(result.message);
                  await mutate();
                  add('success', 'The answer is prepared again from today’s people data.');
                })
              }
            >
              {prepare.busy ? 'Preparing…' : 'Prepare the answer again'}
            </button>
          )}
        </div>
      )}
      <Section title={waiting ? 'The prepared answer' : 'The answer delivered'} id="pt-answer">
        {request.answer && <AnswerView answer={request.answer} note={waiting ? null : request.note} />}
      </Section>
      {waiting && editor && (
        <Section title="Your check" id="pt-review">
          <form
            className="pt-settings"
            aria-label="Review"
            onSubmit={(event) => {
              event.preventDefault();
              void (async () => {
                const version = await saveNote();
                if (version === null) return;
                const result = await approve.save(version);
                if (!result.ok) return setProblem(result.message);
                await mutate();
                add('success', 'Delivered. The employee is told by e-mail and in the app.');
              })();
            }}
          >
            <label>
              A note to the employee, delivered with the answer (optional)
              <textarea value={note} rows={4} maxLength={4000} onChange={(event) => setNote(event.target.value)} />
            </label>
            <p className="muted small-text">
              The answer carries the company’s pay-setting criteria as they stand when you approve it (<Link href={`${HOME}#pay-transparency-criteria`}>How pay is set</Link>).
            </p>
            <FormProblem message={problem} />
            <div className="pt-settings-row">
              <button type="button" className="button" disabled={noteSave.busy} onClick={() => void saveNote().then((version) => version !== null && add('success', 'Note saved.'))}>
                Save the note
              </button>
              <button type="submit" className="button primary" disabled={approve.busy || noteSave.busy}>
                {approve.busy ? 'Delivering…' : 'Approve and deliver'}
              </button>
            </div>
          </form>
        </Section>
      )}
      {request.clarifications.length > 0 && (
        <Section title="Requests for clarification" id="pt-clarifications">
          {request.clarifications.map((clarification) => (
            <div key={clarification.id} className="pt-request">
              <ClarificationView clarification={clarification} />
              {clarification.state === 'open' && editor && <ReplyForm requestId={request.id} clarification={clarification} onReplied={() => void mutate()} />}
            </div>
          ))}
        </Section>
      )}
      <Section title="History" id="pt-history">
        <ol className="pt-history">
          {request.history.map((entry) => (
            <li key={`${entry.at}-${entry.action}`}>
              {formatDate(dayOf(entry.at))}: {HISTORY_WORDS[entry.action] ?? entry.action}
              {entry.actor ? ` by ${entry.actor}` : ''}
              {entry.comment ? ` — ${entry.comment}` : ''}
            </li>
          ))}
        </ol>
      </Section>
    </>
  );
}

export function PayInformationRequestScreen() {
  const { requestId = '' } = useParams<{ requestId: string }>();
  const person = usePerson().data?.data;
  const { data, error, mutate } = useQuery(ONE, { params: { path: { requestId } } });
  return (
    <div className="pt-admin">
      <PageHeader eyebrow={<Link href={HOME}>Pay transparency</Link>} title={data?.data ? `Request of ${data.data.employee.name}` : 'Request for pay information'} icon={Scale} />
      {error && statusOf(error) === 404 ? (
        <Empty title="This request does not exist" icon={Scale} action={<Link href={HOME} className="button">Back to the requests</Link>}>
          {errorMessage(error)}
        </Empty>
      ) : (
        <Loaded data={data?.data} error={error} retry={() => void mutate()} label="Loading the request">
          {(request) => <Review request={request} editor={can(person, 'payEquity', 'edit')} />}
        </Loaded>
      )}
    </div>
  );
}
