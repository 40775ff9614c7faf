import { CircleCheck, Lock, MessageCircleQuestion } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, statusOf, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { FormProblem } from '../../ui/FormProblem';
import { formatDate } from '../../ui/format';
import { PageHeader } from '../../ui/Page';
import { Empty, Loaded } from '../../ui/States';
import { SCALE } from './common';
import './pulseSurveys.css';

type Questionnaire = components['schemas']['PulseQuestionnaire'];

const QUESTIONNAIRE = '/api/data-lab/pulse-surveys/{pulseSurveyId}/questionnaire';

function Thanks() {
  return (
    <Empty title="Thank you, your answer is in" icon={CircleCheck} action={<Link href="/home" className="button">Back to home</Link>}>
      It was stored without your name. Results are shown only for groups of at least 5 people, so nobody can tell what you answered.
    </Empty>
  );
}

function AnswerForm({ survey }: { survey: Questionnaire }) {
  const [scores, setScores] = useState<Record<string, number>>({});
  const [comment, setComment] = useState('');
  const { run, busy, problem } = useMutation({ failure: 'problem' });
  const [sent, setSent] = useState(false);
  const missing = survey.questions.filter((question) => scores[question.id] === undefined).length;

  async function submit() {
    const body = { scores: survey.questions.map((question) => ({ questionId: question.id, score: scores[question.id] ?? 0 })), comment: comment.trim() || null };
    // Busy until the survey is asked again, so the form cannot be sent twice before it turns into the thanks.
    const result = await run(() => api.POST('/api/data-lab/pulse-surveys/{pulseSurveyId}/answers', { params: { path: { pulseSurveyId: survey.id } }, body }), {
      invalidates: [QUESTIONNAIRE, '/api/data-lab/pulse-surveys/assigned'],
      hold: 'invalidated',
    });
    if (result.ok) setSent(true);
  }

  if (sent) return <Thanks />;
  return (
    <form
      className="pulse-answer"
      aria-label={survey.title}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {survey.questions.map((question) => (
        <fieldset key={question.id} className="pulse-question">
          <legend>
            <span className="pulse-question-number">{question.position}.</span> {question.text}
          </legend>
          <div className="pulse-scale" role="radiogroup" aria-label={question.text}>
            {SCALE.map((step) => (
              <label key={step.score} className={scores[question.id] === step.score ? 'pulse-step chosen' : 'pulse-step'}>
                <input type="radio" name={question.id} value={step.score} aria-label={`${step.score}: ${step.label}`} checked={scores[question.id] === step.score} onChange={() => setScores((current) => ({ ...current, [question.id]: step.score }))} />
                <span className="pulse-step-score">{step.score}</span>
                <span className="pulse-step-label">{step.label}</span>
              </label>
            ))}
          </div>
        </fieldset>
      ))}
      <label className="pulse-comment">
        Anything to add? (optional)
        <textarea value={comment} maxLength={2000} rows={3} onChange={(event) => setComment(event.target.value)} />
      </label>
      <p className="muted small-text pulse-private">
        <Lock size={14} aria-hidden="true" /> Anonymous: your answer is stored without your name, and results show only for groups of at least 5 people. Avoid naming yourself in the comment.
      </p>
      <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
      <button type="submit" className="button primary pulse-send" disabled={busy || missing > 0}>
        {missing > 0 ? `Answer ${missing} more ${missing === 1 ? 'question' : 'questions'}` : busy ? 'Sending…' : 'Send my answer'}
      </button>
    </form>
  );
}

/** An employee answers a pulse survey sent to them: one question per block, big tap targets, on a phone first. */
export function PulseAnswerScreen() {
  const { surveyId = '' } = useParams<{ surveyId: string }>();
  const { data, error, mutate } = useQuery(QUESTIONNAIRE, { params: { path: { pulseSurveyId: surveyId } } });
  if (error && statusOf(error) === 404) {
    return (
      <div className="pulse-page">
        <Empty title="This survey is not for you" icon={MessageCircleQuestion} action={<Link href="/home" className="button">Back to home</Link>}>
          {errorMessage(error) === 'The content could not be found.' ? 'It was not sent to you, or it no longer exists.' : errorMessage(error)}
        </Empty>
      </div>
    );
  }
  return (
    <div className="pulse-page">
      <Loaded data={data?.data} error={error} retry={() => void mutate()} label="Loading the survey">
        {(survey) => (
          <>
            <PageHeader eyebrow="Pulse survey" title={survey.title} description={survey.introduction ?? `Open until ${formatDate(survey.closesOn)}. From 1 (strongly disagree) to 5 (strongly agree).`} />
            {survey.answered ? (
              <Thanks />
            ) : !survey.open ? (
              <Empty title="This survey is not taking answers" icon={MessageCircleQuestion} action={<Link href="/home" className="button">Back to home</Link>}>
                It closed on {formatDate(survey.closesOn)}, or has not opened yet.
              </Empty>
            ) : (
              <AnswerForm survey={survey} />
            )}
          </>
        )}
      </Loaded>
    </div>
  );
}
