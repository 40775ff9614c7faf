import { Scale } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, statusOf, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { Badge } from '../../ui/Badge';
import { FormProblem } from '../../ui/FormProblem';
import { formatDate } from '../../ui/format';
import { PageHeader } from '../../ui/Page';
import { Empty, Loaded } from '../../ui/States';
import { AnswerView } from './Answer';
import { dayOf, requestBadge } from './common';
import './payTransparency.css';

type Mine = components['schemas']['MyPayInformation'];
type PayRequest = components['schemas']['PayInformationRequest'];
type Clarification = components['schemas']['PayInformationClarification'];

const MINE = '/api/pay-transparency/me';

function AskForm() {
  const [message, setMessage] = useState('');
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  return (
    <form
      className="pt-ask"
      aria-label="Ask for your pay information"
      onSubmit={(event) => {
        event.preventDefault();
        void run(() => api.POST('/api/pay-transparency/me/requests', { body: message.trim() ? { message: message.trim() } : {} }), { invalidates: [MINE], hold: 'invalidated' });
      }}
    >
      <p>
        You may ask for your own pay level and for the average pay of women and men who do the same work as you, a year and an hour, with the criteria the company uses to set pay and
        progression. HR checks the answer and it reaches you here within two months.
      </p>
      <label>
        Anything HR should know? (optional)
        <textarea value={message} maxLength={2000} rows={3} onChange={(event) => setMessage(event.target.value)} />
      </label>
      <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? 'Sending…' : 'Ask for my pay information'}
      </button>
    </form>
  );
}

/** Article 7(5): the worker finds the answer inaccurate or incomplete and says what. */
function ClarifyForm({ requestId }: { requestId: string }) {
  const [question, setQuestion] = useState('');
  const [open, setOpen] = useState(false);
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  if (!open) {
    return (
      <button type="button" className="button pt-clarify-open" onClick={() => setOpen(true)}>
        Something is wrong or missing? Ask for clarification
      </button>
    );
  }
  return (
    <form
      className="pt-ask"
      aria-label="Ask for clarification"
      onSubmit={(event) => {
        event.preventDefault();
        void run(() => api.POST('/api/pay-transparency/me/requests/{requestId}/clarifications', { params: { path: { requestId } }, body: { question: question.trim() } }), { invalidates: [MINE], hold: 'invalidated' });
      }}
    >
      <label>
        What is inaccurate or incomplete?
        <textarea value={question} maxLength={4000} rows={3} required onChange={(event) => setQuestion(event.target.value)} />
      </label>
      <p className="muted small-text">HR owes you a reply with its reasons within two months.</p>
      <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
      <button type="submit" className="button primary" disabled={busy || !question.trim()}>
        {busy ? 'Sending…' : 'Send my question'}
      </button>
    </form>
  );
}

/** A question and, once HR replied, its reasons (and the figures prepared again, when HR sent them). */
export function ClarificationView({ clarification }: { clarification: Clarification }) {
  return (
    <div className="pt-clarification" aria-label={`Question of ${formatDate(clarification.askedOn)}`}>
      <div className="pt-request-head">
        <h4>Your question of {formatDate(clarification.askedOn)}</h4>
        {clarification.state === 'replied' ? <Badge tone="success">Replied</Badge> : clarification.overdue ? <Badge tone="danger">Overdue</Badge> : <Badge tone="info">Waiting for HR</Badge>}
      </div>
      <p className="pt-criteria-text">{clarification.question}</p>
      {clarification.state === 'replied' ? (
        <div className="pt-reply" aria-label="HR's reply">
          <h4>HR’s reply, {formatDate(dayOf(clarification.repliedAt))}</h4>
          <p className="pt-criteria-text">{clarification.reply}</p>
          {clarification.answer && (
            <>
              <h4>Your figures, prepared again on {formatDate(clarification.answer.asOf)}</h4>
              <AnswerView answer={clarification.answer} />
            </>
          )}
        </div>
      ) : (
        <p className="muted small-text">HR replies by {formatDate(clarification.dueOn)} at the latest.</p>
      )}
    </div>
  );
}

function RequestCard({ request }: { request: PayRequest }) {
  const badge = requestBadge(request);
  return (
    <section className="pt-request" aria-label={`Request of ${formatDate(request.filedOn)}`}>
      <div className="pt-request-head">
        <h3>Asked on {formatDate(request.filedOn)}</h3>
        <Badge tone={badge.tone}>{badge.text}</Badge>
      </div>
      {request.state === 'delivered' && request.answer ? (
        <>
          <p className="muted small-text">Answered on {formatDate(dayOf(request.deliveredAt))}.</p>
          <AnswerView answer={request.answer} note={request.note} />
          {request.clarifications.map((clarification) => (
            <ClarificationView key={clarification.id} clarification={clarification} />
          ))}
          {!request.clarifications.some((clarification) => clarification.state === 'open') && <ClarifyForm requestId={request.id} />}
        </>
      ) : (
        <p className="muted">HR is checking your answer. It reaches you here, and by e-mail, by {formatDate(request.dueOn)} at the latest.</p>
      )}
    </section>
  );
}

function Page({ mine }: { mine: Mine }) {
  const open = mine.requests.some((request) => request.state === 'review');
  return (
    <>
      {mine.notice && (
        <p className="muted small-text">
          Your right to this information was last announced on {formatDate(dayOf(mine.notice.sentAt))}.
        </p>
      )}
      {!mine.hasEmployeeRecord ? (
        <Empty title="Your sign-in is not linked to an employee record" icon={Scale}>
          There is no pay to tell you about yet. Ask HR to link your sign-in to your employee record.
        </Empty>
      ) : open ? null : (
        <AskForm />
      )}
      {mine.requests.map((request) => (
        <RequestCard key={request.id} request={request} />
      ))}
    </>
  );
}

/** "Your pay information": an employee asks (Article 7) and reads the answer, on a phone first. */
export function MyPayInformationScreen() {
  const { data, error, mutate } = useQuery(MINE, {});
  return (
    <div className="pt-page">
      <PageHeader title="Your pay information" icon={Scale} description="Your pay level against the people who do the same work, and how pay is set here." />
      {error && statusOf(error) === 404 ? (
        <Empty title="Pay transparency is not switched on" icon={Scale} action={<Link href="/home" className="button">Back to home</Link>}>
          {errorMessage(error)} Ask HR how to get your pay information.
        </Empty>
      ) : (
        <Loaded data={data?.data} error={error} retry={() => void mutate()} label="Loading your pay information">
          {(mine) => <Page mine={mine} />}
        </Loaded>
      )}
    </div>
  );
}
