import type { components } from '../../../../openapi.d.ts';
import type { Tone } from '../../ui/Badge';
import { formatMoney } from '../../ui/format';

export type JobPosting = components['schemas']['JobPosting'];
export type PostingState = components['schemas']['JobPostingState'];
export type PostingLocation = components['schemas']['JobPostingLocation'];
export type PostingRange = components['schemas']['JobPostingRange'];

const STATE_LABELS: Record<PostingState, string> = { draft: 'Draft', pendingApproval: 'Waiting for approval', open: 'Open', closed: 'Closed' };
const STATE_TONES: Record<PostingState, Tone> = { draft: 'neutral', pendingApproval: 'warning', open: 'success', closed: 'neutral' };

export const stateLabel = (state: PostingState): string => STATE_LABELS[state];
export const stateTone = (state: PostingState): Tone => STATE_TONES[state];

/** "$150,000 – $200,000", or a dash. */
export const rangeText = (range: PostingRange | null | undefined): string => (range ? `${formatMoney(range.min)} – ${formatMoney(range.max)}` : '—');
