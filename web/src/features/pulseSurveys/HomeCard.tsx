import { MessageCircleQuestion } from 'lucide-react';
import { Link } from 'wouter';
import { useQuery } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { Section } from '../../ui/Page';
import { formatDate } from '../../ui/format';
import './pulseSurveys.css';

/**
 * The open pulse surveys sent to the person, on their home screen. Shows nothing when there are
 * none (as when the company's data lab has no pulse surveys), or to a candidate (refused).
 */
export function PulseSurveysCard() {
  const { data } = useQuery('/api/data-lab/pulse-surveys/assigned', {});
  const surveys = data?.data ?? [];
  if (!surveys.length) return null;
  return (
    <Section title="Surveys for you" id="home-pulse-surveys">
      <ul className="programme-list pulse-home-list" aria-label="Surveys for you">
        {surveys.map((survey) => (
          <li key={survey.id} className="programme">
            <div className="programme-head">
              <span className="programme-icon">
                <MessageCircleQuestion size={18} aria-hidden="true" />
              </span>
              <h3>{survey.title}</h3>
              {survey.answered ? <Badge tone="success">Answered</Badge> : <Badge tone="info">Waiting for you</Badge>}
            </div>
            <p className="muted small-text">
              {survey.answered
                ? 'Thank you. Your answer is anonymous; results are shown only for groups of at least 5 people.'
                : `${survey.questions.length} ${survey.questions.length === 1 ? 'question' : 'questions'}, about a minute. Open until ${formatDate(survey.closesOn)}.`}
            </p>
            {!survey.answered && (
              <Link href={`/pulse/${survey.id}`} className="button primary small">
                Answer the survey
              </Link>
            )}
          </li>
        ))}
      </ul>
    </Section>
  );
}
