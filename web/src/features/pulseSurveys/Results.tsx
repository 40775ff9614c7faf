import { ChartColumn } from 'lucide-react';
import { BarList, NEUTRAL, colourOf } from '../../ui/charts';
import { type Column, DataTable } from '../../ui/DataTable';
import { formatDate, formatNumber } from '../../ui/format';
import { Section } from '../../ui/Page';
import { Empty } from '../../ui/States';
import { type GroupResult, type Results, type Schemas, type Survey, type TrendPoint, SCALE } from './common';

// A survey's results: each question's scores, and the breakdowns by group.

export const scoreBars = (distribution: number[]) => SCALE.map((step, index) => ({ label: `${step.score} · ${step.label}`, value: distribution[index] ?? 0, colour: colourOf('base') }));

export function QuestionResult({ question, summary }: { question: Schemas['PulseQuestionResult']; summary: Schemas['PulseScoreSummary'] | undefined }) {
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

export function Breakdown({ breakdown, questions }: { breakdown: Results['breakdowns'][number]; questions: Survey['questions'] }) {
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

export function ResultsView({ results }: { results: Results }) {
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
