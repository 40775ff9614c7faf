import { Scale } from 'lucide-react';
import { Link } from 'wouter';
import { useQuery } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { Section } from '../../ui/Page';
import { formatDate } from '../../ui/format';
import { dayOf, requestBadge } from './common';
import './payTransparency.css';

/**
 * On the home screen: the person's right to their pay information, and their latest request's
 * state (an answer delivered says so). Nothing when the company does not have the module (404), for
 * a sign-in without an employee record, or for a candidate (403).
 */
export function PayInformationCard() {
  const { data } = useQuery('/api/pay-transparency/me', {}, { shouldRetryOnError: false });
  const mine = data?.data;
  if (!mine?.hasEmployeeRecord) return null;
  const latest = mine.requests[0];
  const badge = latest ? requestBadge(latest) : null;
  return (
    <Section title="Your pay information" id="home-pay-information">
      <div className="programme">
        <div className="programme-head">
          <span className="programme-icon">
            <Scale size={18} aria-hidden="true" />
          </span>
          <h3>{latest?.state === 'delivered' ? 'Your answer is ready' : latest ? 'Your request is being answered' : 'Know where your pay stands'}</h3>
          {badge && <Badge tone={badge.tone}>{badge.text}</Badge>}
        </div>
        <p className="muted small-text">
          {latest
            ? latest.state === 'delivered'
              ? `Answered on ${formatDate(dayOf(latest.deliveredAt))}.`
              : `Due by ${formatDate(latest.dueOn)}.`
            : `${mine.notice ? `Your right to know, as announced on ${formatDate(dayOf(mine.notice.sentAt))}: you` : 'You'} may ask for your pay level and the average pay of women and men doing the same work.`}
        </p>
        <Link href="/pay-information" className="button small">
          {latest?.state === 'delivered' ? 'Read the answer' : 'Your pay information'}
        </Link>
      </div>
    </Section>
  );
}
