import { Bell, MessageCircleQuestion, Pencil, Plus } from 'lucide-react';
import { Link, useParams } from 'wouter';
import { api, statusOf, useQuery } from '../../api/client';
import { type PathMatch, invalidate, useMutation, useVersionedSave } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { type Column, DataTable } from '../../ui/DataTable';
import { formatDate, formatNumber } from '../../ui/format';
import { PageHeader, Section } from '../../ui/Page';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { can } from '../settings/permissions';
import './pulseSurveys.css';
import { HOME, useAccess, NotSubscribed, Crumb } from './access';
import { ResultsView } from './Results';
import { type Survey, STARTER_QUESTIONS, STATE_BADGE } from './common';

// ── the list ───────────────────────────────────────────────────────────────────────────────

export function PulseSurveysScreen() {
  const person = usePerson().data?.data;
  const { allowed, blocked } = useAccess();
  const { data, error, mutate } = useQuery('/api/data-lab/pulse-surveys', allowed ? {} : null);
  const editor = can(person, 'dataLab', 'edit');
  const columns: Column<Survey>[] = [
    { key: 'title', header: 'Survey', rowHeader: true, cell: (survey) => <Link href={`${HOME}/${survey.id}`}>{survey.title}</Link> },
    { key: 'state', header: 'State', label: 'State', cell: (survey) => <Badge tone={STATE_BADGE[survey.state].tone}>{STATE_BADGE[survey.state].text}</Badge> },
    { key: 'target', header: 'Sent to', label: 'Sent to', cell: (survey) => survey.target.labels.join(', ') },
    { key: 'dates', header: 'Open', label: 'Open', cell: (survey) => `${formatDate(survey.opensOn)} – ${formatDate(survey.closesOn)}` },
    { key: 'answers', header: 'Answers', label: 'Answers', numeric: true, cell: (survey) => (survey.audienceSize === null ? '—' : `${formatNumber(survey.respondents)} of ${formatNumber(survey.audienceSize)}`) },
  ];
  return (
    <div className="pulse-admin">
      <PageHeader
        eyebrow={<Crumb />}
        title="Pulse surveys"
        icon={MessageCircleQuestion}
        description="Short, anonymous surveys about pay. Results show only for groups of at least 5 answers, and each question's trend across surveys."
        actions={
          editor && allowed && !error ? (
            <Link href={`${HOME}/new`} className="button primary">
              <Plus size={16} aria-hidden="true" /> New survey
            </Link>
          ) : undefined
        }
      />
      {blocked ??
        (error && statusOf(error) === 404 ? (
          <NotSubscribed error={error} />
        ) : (
          <Loaded data={data?.data} error={error} retry={() => void mutate()} label="Loading pulse surveys">
            {(surveys) =>
              surveys.length ? (
                <DataTable columns={columns} rows={surveys} rowKey={(survey) => survey.id} caption="Pulse surveys" captionHidden cardsOnPhone />
              ) : (
                <Empty
                  title="No pulse survey yet"
                  icon={MessageCircleQuestion}
                  action={
                    editor ? (
                      <Link href={`${HOME}/new`} className="button primary">
                        Create the first survey
                      </Link>
                    ) : undefined
                  }
                >
                  Ask a group of employees how they see their pay — for example “{STARTER_QUESTIONS[0]}” — and follow the answers over time.
                </Empty>
              )
            }
          </Loaded>
        ))}
    </div>
  );
}

// ── a new survey ───────────────────────────────────────────────────────────────────────────

// ── one survey and its results ─────────────────────────────────────────────────────────────

function SurveyActions({ survey }: { survey: Survey }) {
  const { add } = useToasts();
  const { run, busy } = useMutation();
  const transition = useVersionedSave((ifMatch: string, action: 'open' | 'close') =>
    action === 'open'
      ? api.POST('/api/data-lab/pulse-surveys/{pulseSurveyId}/open', { params: { path: { pulseSurveyId: survey.id }, header: { 'If-Match': ifMatch } } })
      : api.POST('/api/data-lab/pulse-surveys/{pulseSurveyId}/close', { params: { path: { pulseSurveyId: survey.id }, header: { 'If-Match': ifMatch } } }),
  );
  const surveys: PathMatch = (path) => path.startsWith('/api/data-lab/pulse-surveys');

  async function act(action: 'open' | 'close') {
    const result = await transition.save(survey.version, action);
    if (!result.ok) return;
    await invalidate(surveys);
    add('success', action === 'open' ? `“${survey.title}” is open: ${result.data.data.audienceSize ?? 0} people were sent it by e-mail.` : `“${survey.title}” is closed.`);
  }

  async function remind() {
    const result = await run(() => api.POST('/api/data-lab/pulse-surveys/{pulseSurveyId}/reminders', { params: { path: { pulseSurveyId: survey.id } } }), { invalidates: surveys });
    if (!result.ok) return;
    const { reminded } = result.data.data;
    add('success', reminded ? `A reminder is on its way to ${reminded} ${reminded === 1 ? 'person' : 'people'} who have not answered.` : 'Everyone has answered: nobody to remind.');
  }

  if (!survey.actions.length) return null;
  return (
    <>
      {/* Whoever may open a draft may edit it. */}
      {survey.actions.includes('open') && (
        <Link href={`${HOME}/${survey.id}/edit`} className="button">
          <Pencil size={16} aria-hidden="true" /> Edit the draft
        </Link>
      )}
      {survey.actions.includes('open') && (
        <button type="button" className="button primary" disabled={transition.busy} onClick={() => void act('open')}>
          Open and send
        </button>
      )}
      {survey.state === 'open' && (
        <button type="button" className="button" disabled={busy} onClick={() => void remind()}>
          <Bell size={16} aria-hidden="true" /> Remind who has not answered
        </button>
      )}
      {survey.actions.includes('close') && (
        <button type="button" className="button" disabled={transition.busy} onClick={() => void act('close')}>
          Close
        </button>
      )}
    </>
  );
}

export function PulseSurveyScreen() {
  const { surveyId = '' } = useParams<{ surveyId: string }>();
  const { allowed, blocked } = useAccess();
  const path = { params: { path: { pulseSurveyId: surveyId } } };
  const survey = useQuery('/api/data-lab/pulse-surveys/{pulseSurveyId}', allowed ? path : null);
  const results = useQuery('/api/data-lab/pulse-surveys/{pulseSurveyId}/results', allowed ? path : null);
  if (blocked) return <div className="pulse-admin">{blocked}</div>;
  return (
    <div className="pulse-admin">
      <Loaded data={survey.data?.data} error={survey.error} retry={() => void survey.mutate()} label="Loading the survey">
        {(shown) => (
          <>
            <PageHeader
              eyebrow={<Link href={HOME}>Pulse surveys</Link>}
              title={shown.title}
              description={
                <>
                  <Badge tone={STATE_BADGE[shown.state].tone}>{STATE_BADGE[shown.state].text}</Badge> Sent to {shown.target.labels.join(', ')} · {formatDate(shown.opensOn)} – {formatDate(shown.closesOn)}
                  {shown.remindersSent > 0 && ` · ${shown.remindersSent} reminders sent`}
                </>
              }
              actions={<SurveyActions survey={shown} />}
            />
            {shown.state === 'draft' && (
              <Section title="Questions" id="pulse-questions">
                <ol className="pulse-question-list">
                  {shown.questions.map((question) => (
                    <li key={question.id}>{question.text}</li>
                  ))}
                </ol>
              </Section>
            )}
            <Loaded data={results.data?.data} error={results.error} retry={() => void results.mutate()} label="Loading the results" inline>
              {(shownResults) => <ResultsView results={shownResults} />}
            </Loaded>
          </>
        )}
      </Loaded>
    </div>
  );
}
