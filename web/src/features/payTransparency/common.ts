import type { components } from '../../../../openapi.d.ts';
import type { Tone } from '../../ui/Badge';

type PayRequest = components['schemas']['PayInformationRequest'];

/** A request's state in words and colour: overdue is said, never only coloured. */
export function requestBadge(request: Pick<PayRequest, 'state' | 'overdue'>): { text: string; tone: Tone } {
  if (request.state === 'delivered') return { text: 'Answered', tone: 'success' };
  return request.overdue ? { text: 'Overdue', tone: 'danger' } : { text: 'Being prepared', tone: 'info' };
}

/** The UTC day of a timestamp, as `formatDate` takes it (null stays null). */
export const dayOf = (timestamp: string | null | undefined): string | null => (timestamp ? timestamp.slice(0, 10) : null);
