import { Bell, ChartColumn, MessageCircleQuestion, Plus, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, statusOf, useQuery } from '../../api/client';
import { type PathMatch, invalidate, useMutation, useVersionedSave } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { BarList, NEUTRAL, colourOf } from '../../ui/charts';
import { type Column, DataTable } from '../../ui/DataTable';
import { FormProblem } from '../../ui/FormProblem';
import { formatDate, formatNumber } from '../../ui/format';
import { PageHeader, Section } from '../../ui/Page';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { can } from '../settings/permissions';
import { SCALE, STARTER_QUESTIONS, STATE_BADGE } from './common';
import './pulseSurveys.css';

type Schemas = components['schemas'];
type Survey = Schemas['PulseSurvey'];
type Results = Schemas['PulseSurveyResults'];
type GroupResult = Schemas['PulseGroupResult'];
type TargetKind = Schemas['PulseTargetKind'];
type TrendPoint = Schemas['PulseTrendPoint'];

const HOME = '/paybench-data-lab/pulse-surveys';
const today = (): string => new Date().toISOString().slice(0, 10);
const inDays = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** What stands in the way of the screens: a role without the data lab, or a subscription without pulse surveys. */
function useAccess(edit = false): { allowed: boolean; blocked: ReactNode } {
  const person = usePerson().data?.data;
  if (!person) return { allowed: false, blocked: null };
  if (can(person, 'dataLab', edit ? 'edit' : 'view')) return { allowed: true, blocked: null };
  return {
    allowed: false,
    blocked: (
      <Empty title={edit ? 'Your role does not include running pulse surveys' : 'Your role does not include the data lab'} icon={MessageCircleQuestion}>
        {edit ? 'Creating and closing pulse surveys needs the data lab permission (edit).' : 'Pulse-survey results are part of the data lab.'} An admin can add it to your role.
      </Empty>
    ),
  };
}

function NotSubscribed({ error }: { error: unknown }) {
  return (
    <Empty title="Pulse surveys are not switched on" icon={MessageCircleQuestion} action={<Link href="/paybench-data-lab" className="button">Back to the data lab</Link>}>
      {errorMessage(error)} Paybench support adds them to the subscription.
    </Empty>
  );
}

const Crumb = () => <Link href="/paybench-data-lab">Data lab</Link>;

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

const TARGET_KINDS: readonly { kind: TargetKind; label: string }[] = [
  { kind: 'everyone', label: 'Everyone' },
  { kind: 'department', label: 'Departments' },
  { kind: 'location', label: 'Locations' },
  { kind: 'level', label: 'Levels' },
  { kind: 'managerSubtree', label: 'A manager and everyone below them' },
];

const FIELD_NAMES = { title: 'Title', questions: 'Question', target: 'Sent to', values: 'groups', opensOn: 'Opens on', closesOn: 'Closes on' };

export function NewPulseSurveyScreen() {
  const [, navigate] = useLocation();
  const { add } = useToasts();
  const { allowed, blocked } = useAccess(true);
  const groups = useQuery('/api/data-lab/pulse-surveys/groups', allowed ? {} : null);
  const [title, setTitle] = useState('');
  const [introduction, setIntroduction] = useState('');
  const [questions, setQuestions] = useState<string[]>([STARTER_QUESTIONS[0] ?? '']);
  const [kind, setKind] = useState<TargetKind>('everyone');
  const [values, setValues] = useState<string[]>([]);
  const [opensOn, setOpensOn] = useState(today());
  const [closesOn, setClosesOn] = useState(inDays(14));
  const { run, busy, problem } = useMutation({ failure: 'problem', fieldNames: FIELD_NAMES });

  const options = kind === 'everyone' ? [] : (groups.data?.data[kind] ?? []);
  const reach = kind === 'everyone' ? (groups.data?.data.everyone ?? 0) : options.filter((option) => values.includes(option.value)).reduce((sum, option) => sum + option.people, 0);

  async function submit() {
    const body = { title, introduction: introduction.trim() || null, questions: questions.map((q) => q.trim()).filter(Boolean), target: { kind, values }, opensOn, closesOn };
    const result = await run(() => api.POST('/api/data-lab/pulse-surveys', { body }), { invalidates: '/api/data-lab/pulse-surveys' });
    if (!result.ok) return;
    const draft = result.data.data;
    add('success', `“${draft.title}” was saved as a draft. Open it when it is ready to send.`);
    navigate(`${HOME}/${draft.id}`);
  }

  if (blocked) return <div className="pulse-admin">{blocked}</div>;
  if (groups.error && statusOf(groups.error) === 404) return <NotSubscribed error={groups.error} />;
  return (
    <div className="pulse-admin">
      <PageHeader eyebrow={<Link href={HOME}>Pulse surveys</Link>} title="New pulse survey" description="Saved as a draft: nobody sees it until you open it." />
      <form
        className="settings-form pulse-form"
        aria-label="New pulse survey"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label>
          Title
          <input value={title} required maxLength={200} onChange={(event) => setTitle(event.target.value)} placeholder="Spring pay pulse" />
        </label>
        <label>
          Introduction (optional)
          <textarea value={introduction} maxLength={1000} rows={2} onChange={(event) => setIntroduction(event.target.value)} />
        </label>
        <fieldset className="pulse-questions-edit">
          <legend>Questions, answered from 1 (strongly disagree) to 5 (strongly agree)</legend>
          {questions.map((question, index) => (
            <div key={index} className="pulse-question-edit">
              <label>
                Question {index + 1}
                <input
                  value={question}
                  required
                  minLength={3}
                  maxLength={300}
                  list="pulse-starter-questions"
                  onChange={(event) => setQuestions((current) => current.map((q, at) => (at === index ? event.target.value : q)))}
                />
              </label>
              {questions.length > 1 && (
                <button type="button" className="button ghost small" aria-label={`Remove question ${index + 1}`} onClick={() => setQuestions((current) => current.filter((_, at) => at !== index))}>
                  <Trash2 size={16} aria-hidden="true" />
                </button>
              )}
            </div>
          ))}
          <datalist id="pulse-starter-questions">
            {STARTER_QUESTIONS.map((question) => (
              <option key={question} value={question} />
            ))}
          </datalist>
          {questions.length < 10 && (
            <button type="button" className="button small" onClick={() => setQuestions((current) => [...current, ''])}>
              <Plus size={16} aria-hidden="true" /> Add a question
            </button>
          )}
        </fieldset>
        <label>
          Sent to
          <select
            aria-label="Sent to"
            value={kind}
            onChange={(event) => {
              setKind(TARGET_KINDS.find((entry) => entry.kind === event.target.value)?.kind ?? 'everyone');
              setValues([]);
            }}
          >
            {TARGET_KINDS.map((entry) => (
              <option key={entry.kind} value={entry.kind}>
                {entry.label}
              </option>
            ))}
          </select>
        </label>
        {kind !== 'everyone' && (
          <label>
            {kind === 'managerSubtree' ? 'Manager' : TARGET_KINDS.find((entry) => entry.kind === kind)?.label}
            <select
              aria-label={kind === 'managerSubtree' ? 'Manager' : TARGET_KINDS.find((entry) => entry.kind === kind)?.label}
              multiple={kind !== 'managerSubtree'}
              size={kind === 'managerSubtree' ? undefined : Math.min(8, Math.max(3, options.length))}
              value={kind === 'managerSubtree' ? (values[0] ?? '') : values}
              onChange={(event) => setValues(kind === 'managerSubtree' ? [event.target.value].filter(Boolean) : [...event.target.selectedOptions].map((option) => option.value))}
            >
              {kind === 'managerSubtree' && <option value="">Choose a manager</option>}
              {options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label} ({option.people})
                </option>
              ))}
            </select>
          </label>
        )}
        <p className="muted small-text" aria-live="polite">
          {formatNumber(reach)} {reach === 1 ? 'person' : 'people'} can answer (active employees who can sign in).
          {reach > 0 && reach < 5 ? ' With fewer than 5, results will never show.' : ''}
        </p>
        <div className="pulse-dates">
          <label>
            Opens on
            <input type="date" value={opensOn} required onChange={(event) => setOpensOn(event.target.value)} />
          </label>
          <label>
            Closes on
            <input type="date" value={closesOn} required onChange={(event) => setClosesOn(event.target.value)} />
          </label>
        </div>
        <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save as draft'}
          </button>
          <Link href={HOME} className="button">
            Cancel
          </Link>
        </div>
      </form>
    </div>
  );
}

// ── one survey and its results ─────────────────────────────────────────────────────────────

const scoreBars = (distribution: number[]) => SCALE.map((step, index) => ({ label: `${step.score} · ${step.label}`, value: distribution[index] ?? 0, colour: colourOf('base') }));

function QuestionResult({ question, summary }: { question: Schemas['PulseQuestionResult']; summary: Schemas['PulseScoreSummary'] | undefined }) {
  const shownTrend = question.trend.filter((point) => point.average !== null);
  const trendColumns: Column<TrendPoint>[] = [
    { key: 'survey', header: 'Survey', rowHeader: true, cell: (point) => point.title },
    { key: 'closes', header: 'Closed', label: 'Closed', cell: (point) => (point.state === 'open' ? 'Open now' : formatDate(point.closesOn)) },
    { key: 'average', header: 'Average', label: 'Average', numeric: true, cell: (point) => (point.average === null ? point.message : formatNumber(point.average, 2)) },
    { key: 'answers', header: 'Answers', label: 'Answers', numeric: true, cell: (point) => (point.respondents === null ? '—' : formatNumber(point.respondents)) },
  ];
  return (
    <article className="pulse-result" aria-label={question.text}>
      <h3>{question.text}</h3>
      {summary?.average !== null && summary?.average !== undefined && summary.distribution ? (
        <>
          <p className="pulse-average">
            <strong>{formatNumber(summary.average, 2)}</strong> <span className="muted">average out of 5</span>
          </p>
          <BarList title={`Answers to “${question.text}”`} bars={scoreBars(summary.distribution)} unit={{ kind: 'count' }} categoryLabel="Score" valueLabel="Answers" />
        </>
      ) : (
        <p className="muted">Fewer than 5 answers</p>
      )}
      <h4>Trend</h4>
      {question.trend.length > 1 ? (
        <>
          {shownTrend.length > 1 && <BarList title={`Average over time: “${question.text}”`} bars={shownTrend.map((point) => ({ label: point.title, value: point.average ?? 0, colour: NEUTRAL }))} unit={{ kind: 'number', digits: 2 }} categoryLabel="Survey" valueLabel="Average" />}
          <DataTable columns={trendColumns} rows={question.trend} rowKey={(point) => point.surveyId} caption={`Every survey that asked “${question.text}”`} captionHidden cardsOnPhone />
        </>
      ) : (
        <p className="muted small-text">Asked for the first time: ask it again in a later survey to see a trend.</p>
      )}
    </article>
  );
}

function Breakdown({ breakdown, questions }: { breakdown: Results['breakdowns'][number]; questions: Survey['questions'] }) {
  const columns: Column<GroupResult>[] = [
    { key: 'group', header: breakdown.label, rowHeader: true, cell: (group) => group.label },
    { key: 'answers', header: 'Answers', label: 'Answers', numeric: true, cell: (group) => (group.respondents === null ? '—' : `${formatNumber(group.respondents)} of ${formatNumber(group.audience)}`) },
    ...questions.map((question, index) => ({
      key: question.id,
      header: `Q${index + 1}`,
      label: question.text,
      numeric: true,
      cell: (group: GroupResult) => {
        const average = group.scores.find((score) => score.questionId === question.id)?.average;
        return average === null || average === undefined ? <span className="muted">{index === 0 ? group.message : '—'}</span> : formatNumber(average, 2);
      },
    })),
  ];
  return (
    <Section title={`By ${breakdown.label.toLowerCase()}`} id={`pulse-by-${breakdown.dimension}`}>
      <DataTable columns={columns} rows={breakdown.groups} rowKey={(group) => group.key || '(none)'} caption={`Average score by ${breakdown.label.toLowerCase()}`} captionHidden cardsOnPhone />
    </Section>
  );
}

function ResultsView({ results }: { results: Results }) {
  const { survey, overall } = results;
  if (survey.state === 'draft') {
    return (
      <Empty title="No answers yet" icon={ChartColumn} headingLevel={3}>
        Results appear once the survey is open and at least {results.minimumRespondents} people have answered.
      </Empty>
    );
  }
  return (
    <>
      <Section title="Results" id="pulse-results">
        <p className="pulse-response-rate">
          {formatNumber(survey.respondents)} of {formatNumber(survey.audienceSize ?? 0)} answered.
          {!overall.shown && ` ${overall.message}: results show once ${results.minimumRespondents} people have answered.`}
        </p>
        <div className="pulse-results-grid">
          {results.questions.map((question) => (
            <QuestionResult key={question.questionId} question={question} summary={overall.scores.find((score) => score.questionId === question.questionId)} />
          ))}
        </div>
      </Section>
      {overall.shown && results.breakdowns.map((breakdown) => <Breakdown key={breakdown.dimension} breakdown={breakdown} questions={survey.questions} />)}
      <Section title="Comments" id="pulse-comments">
        {results.comments === null ? (
          <p className="muted">{results.commentsMessage}</p>
        ) : results.comments.length ? (
          <ul className="pulse-comments">
            {results.comments.map((comment, index) => (
              <li key={index}>{comment}</li>
            ))}
          </ul>
        ) : (
          <p className="muted">No comments.</p>
        )}
      </Section>
    </>
  );
}

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
