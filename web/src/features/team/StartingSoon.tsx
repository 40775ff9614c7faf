import { CalendarClock } from 'lucide-react';
import { Link } from 'wouter';
import { useQuery } from '../../api/client';
import { formatDate } from '../../ui/format';

/**
 * Accepted hires who have not started yet, soonest first. They are not in the head count or any
 * figure above until their start date, when they become active on their own.
 */
export function StartingSoon() {
  const { data } = useQuery('/api/team/starting-soon');
  const hires = data?.data ?? [];
  if (!hires.length) return null;
  return (
    <section className="team-section" aria-labelledby="starting-soon">
      <h2 id="starting-soon">
        <CalendarClock size={18} aria-hidden="true" /> Starting soon
      </h2>
      <p className="team-muted">Not counted above until their first day; they become active on their start date (UTC).</p>
      <ul className="team-starting">
        {hires.map((hire) => (
          <li key={hire.employeeId} data-testid="starting-soon-hire">
            <Link href={`/team/employees?employee=${hire.employeeId}`}>
              {hire.firstName} {hire.lastName}
            </Link>
            <span>
              {hire.title}
              {hire.department ? ` · ${hire.department}` : ''}
              {hire.manager ? ` · reports to ${hire.manager.name}` : ''}
            </span>
            <strong>Starting on {formatDate(hire.startDate)}</strong>
            {hire.offerId && <Link href={`/offers/${hire.offerId}`}>The offer</Link>}
          </li>
        ))}
      </ul>
    </section>
  );
}
