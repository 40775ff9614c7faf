import { MessageCircleQuestion, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, statusOf, useQuery } from '../../api/client';
import { type Problem, useMutation } from '../../api/queries';
import { FormProblem } from '../../ui/FormProblem';
import { formatNumber } from '../../ui/format';
import { PageHeader } from '../../ui/Page';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { HOME, useAccess, NotSubscribed } from './access';
import { type Survey, type TargetKind, STARTER_QUESTIONS } from './common';

// Writing a pulse survey, new or a draft: its questions, who it goes to and when it runs.

export const today = (): string => new Date().toISOString().slice(0, 10);

export const inDays = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export const TARGET_KINDS: readonly { kind: TargetKind; label: string }[] = [
  { kind: 'everyone', label: 'Everyone' },
  { kind: 'department', label: 'Departments' },
  { kind: 'location', label: 'Locations' },
  { kind: 'level', label: 'Levels' },
  { kind: 'managerSubtree', label: 'A manager and everyone below them' },
];

export const FIELD_NAMES = { title: 'Title', questions: 'Question', target: 'Sent to', values: 'groups', opensOn: 'Opens on', closesOn: 'Closes on' };

export function NewPulseSurveyScreen() {
  const [, navigate] = useLocation();
  const { add } = useToasts();
  const { allowed, blocked } = useAccess(true);
  const groups = useQuery('/api/data-lab/pulse-surveys/groups', allowed ? {} : null);
  const { run, busy, problem } = useMutation({ failure: 'problem', fieldNames: FIELD_NAMES });

  async function submit(body: SurveyBody) {
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
      <SurveyForm initial={EMPTY_DRAFT} groups={groups.data?.data} label="New pulse survey" submitLabel="Save as draft" cancelTo={HOME} busy={busy} problem={problem} onSubmit={submit} />
    </div>
  );
}

/**
 * A draft survey's edit (a typo in a question, another group, other dates) until it is opened, at
 * the version read: someone else's newer save is refused, and what was typed stays.
 */
export function EditPulseSurveyScreen() {
  const { surveyId = '' } = useParams<{ surveyId: string }>();
  const [, navigate] = useLocation();
  const { add } = useToasts();
  const { allowed, blocked } = useAccess(true);
  const path = { params: { path: { pulseSurveyId: surveyId } } };
  const survey = useQuery('/api/data-lab/pulse-surveys/{pulseSurveyId}', allowed ? path : null);
  const groups = useQuery('/api/data-lab/pulse-surveys/groups', allowed ? {} : null);
  const { run, busy, problem } = useMutation({
    failure: 'problem',
    fieldNames: FIELD_NAMES,
    fallback: (status) => (status === 409 || status === 412 ? 'Someone else changed this draft first. Reload and try again.' : undefined),
  });
  const back = `${HOME}/${surveyId}`;

  async function save(version: number, body: SurveyBody) {
    const result = await run(() => api.PATCH('/api/data-lab/pulse-surveys/{pulseSurveyId}', { params: { path: { pulseSurveyId: surveyId }, header: { 'If-Match': `"${version}"` } }, body }), {
      invalidates: (path) => path.startsWith('/api/data-lab/pulse-surveys'),
    });
    if (!result.ok) return;
    add('success', `“${result.data.data.title}” was saved.`);
    navigate(back);
  }

  if (blocked) return <div className="pulse-admin">{blocked}</div>;
  if (groups.error && statusOf(groups.error) === 404) return <NotSubscribed error={groups.error} />;
  return (
    <div className="pulse-admin">
      <Loaded data={survey.data?.data} error={survey.error} retry={() => void survey.mutate()} label="Loading the survey">
        {(shown) => (
          <>
            <PageHeader eyebrow={<Link href={back}>{shown.title}</Link>} title="Edit the draft" description="Nobody sees it until you open it." />
            {shown.state === 'draft' ? (
              <SurveyForm initial={draftOf(shown)} groups={groups.data?.data} label="Edit the draft" submitLabel="Save the draft" cancelTo={back} busy={busy} problem={problem} onSubmit={(body) => void save(shown.version, body)} />
            ) : (
              <Empty title="This survey is no longer a draft" icon={MessageCircleQuestion} action={<Link href={back} className="button">Back to the survey</Link>}>
                Once a survey is open its questions, group and dates stay as they were sent.
              </Empty>
            )}
          </>
        )}
      </Loaded>
    </div>
  );
}

type SurveyBody = components['schemas']['PulseSurveyInput'];
type Groups = components['schemas']['PulseSurveyGroups'];

/** What the form holds: the survey's fields as typed. */
interface SurveyDraft {
  title: string;
  introduction: string;
  questions: string[];
  kind: TargetKind;
  values: string[];
  opensOn: string;
  closesOn: string;
}

const EMPTY_DRAFT: SurveyDraft = { title: '', introduction: '', questions: [STARTER_QUESTIONS[0] ?? ''], kind: 'everyone', values: [], opensOn: today(), closesOn: inDays(14) };

const draftOf = (survey: Survey): SurveyDraft => ({
  title: survey.title,
  introduction: survey.introduction ?? '',
  questions: survey.questions.map((question) => question.text),
  kind: survey.target.kind,
  values: survey.target.values,
  opensOn: survey.opensOn,
  closesOn: survey.closesOn,
});

const bodyOf = (draft: SurveyDraft): SurveyBody => ({
  title: draft.title,
  introduction: draft.introduction.trim() || null,
  questions: draft.questions.map((q) => q.trim()).filter(Boolean),
  target: { kind: draft.kind, values: draft.values },
  opensOn: draft.opensOn,
  closesOn: draft.closesOn,
});

interface SurveyFormProps {
  initial: SurveyDraft;
  groups: Groups | undefined;
  label: string;
  submitLabel: string;
  cancelTo: string;
  busy: boolean;
  problem: Problem | null;
  onSubmit: (body: SurveyBody) => void;
}

/** The survey's questions, who it goes to and when it runs: the new survey's form, and a draft's. */
function SurveyForm({ initial, groups, label, submitLabel, cancelTo, busy, problem, onSubmit }: SurveyFormProps) {
  const [title, setTitle] = useState(initial.title);
  const [introduction, setIntroduction] = useState(initial.introduction);
  const [questions, setQuestions] = useState<string[]>(initial.questions);
  const [kind, setKind] = useState<TargetKind>(initial.kind);
  const [values, setValues] = useState<string[]>(initial.values);
  const [opensOn, setOpensOn] = useState(initial.opensOn);
  const [closesOn, setClosesOn] = useState(initial.closesOn);

  const options = kind === 'everyone' ? [] : (groups?.[kind] ?? []);
  const reach = kind === 'everyone' ? (groups?.everyone ?? 0) : options.filter((option) => values.includes(option.value)).reduce((sum, option) => sum + option.people, 0);

  return (
      <form
        className="settings-form pulse-form"
        aria-label={label}
        onSubmit={(event) => {
          event.preventDefault();
          void onSubmit(bodyOf({ title, introduction, questions, kind, values, opensOn, closesOn }));
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
            {busy ? 'Saving…' : submitLabel}
          </button>
          <Link href={cancelTo} className="button">
            Cancel
          </Link>
        </div>
      </form>
  );
}
