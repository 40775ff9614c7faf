import type { components } from '../contract-types.js';
import { formatPercent } from './kinds.js';
import type { BookmarkWithOwner, InsightDetails, InsightRow, InsightStateRow } from './store.js';
import type { DataLabFeature, DataLabSubscriptionRow } from './subscription.js';

type Schemas = components['schemas'];

export function presentSubscription(companyId: string, companyName: string, features: Record<DataLabFeature, boolean>, row: DataLabSubscriptionRow | undefined): Schemas['DataLabSubscription'] {
  return {
    companyId,
    companyName,
    features: { insights: features.insights, agent: features.agent, pulseSurveys: features.pulseSurveys },
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
  };
}

const peopleLabel = (count: number): string => `${count} ${count === 1 ? 'employee' : 'employees'}`;

/** The insight for one reader: the people already cut to their reach, the count and title from them. */
export function presentInsight(row: InsightRow, people: Schemas['DataLabInsightPerson'][], state: InsightStateRow | undefined, now: Date): Schemas['DataLabInsight'] {
  const details = JSON.parse(row.details) as InsightDetails;
  const aboutPeople = row.metric_unit === 'people';
  const value = aboutPeople ? people.length : Number(row.metric_value);
  const snoozedUntil = state?.state === 'snoozed' && state.snoozed_until ? new Date(state.snoozed_until) : null;
  const stateName = state?.state === 'dismissed' ? 'dismissed' : snoozedUntil && snoozedUntil > now ? 'snoozed' : 'open';
  return {
    key: row.insight_key,
    kind: row.kind,
    severity: row.severity,
    title: row.title.replace('{people}', peopleLabel(value)).replace(/^./, (first) => first.toUpperCase()),
    value,
    valueLabel: aboutPeople ? peopleLabel(value) : row.metric_unit === 'percent' ? (row.kind === 'payEquityGap' ? formatPercent(value) : `${value.toFixed(1)}%`) : String(value),
    method: row.method,
    people: aboutPeople ? people : [],
    table: aboutPeople || !details.table ? { columns: [], rows: [] } : details.table,
    link: row.link,
    linkLabel: details.linkLabel,
    state: stateName,
    snoozedUntil: stateName === 'snoozed' && snoozedUntil ? snoozedUntil.toISOString() : null,
    computedAt: new Date(row.computed_at).toISOString(),
  };
}

/** Where a bookmark opens: an insight in the data lab, a screen's address as saved. */
export const bookmarkLink = (row: Pick<BookmarkWithOwner, 'kind' | 'target'>): string => (row.kind === 'insight' ? `/paybench-data-lab?insight=${encodeURIComponent(row.target)}` : row.target);

export function presentBookmark(row: BookmarkWithOwner, userId: string): Schemas['DataLabBookmark'] {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    target: row.target,
    link: bookmarkLink(row),
    shared: Boolean(row.shared),
    ownedByMe: row.owner_user_id === userId,
    ownerName: `${row.owner_first_name ?? ''} ${row.owner_last_name ?? ''}`.trim() || 'A former user',
    version: Number(row.version),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
