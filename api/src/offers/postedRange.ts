import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

/*
 * The range an open job posting published for an offer's job and place (api/src/postings): an offer
 * is checked against it as well as against the band. Read here from the postings table, by the
 * company job's family and level, so offers need not import the postings area (which builds on
 * offers' approval rules).
 */

export interface PostedRange {
  postingId: string;
  title: string;
  place: string;
  min: number;
  max: number;
  currency: string;
}

interface PostedPlace {
  locationId: string | null;
  name: string;
  currency: string;
  range: { min: number; max: number } | null;
}

function parsePlaces(text: string): PostedPlace[] {
  try {
    return JSON.parse(text) as PostedPlace[];
  } catch {
    return [];
  }
}

/** The newest posting (open, unless `states` says otherwise) of a company job at this family and level that names the offer's location with a range. */
export async function postedRangeFor(db: Knex, scope: CompanyScope, offer: { jobFamilyId: string; levelId: string; locationId: string }, states: readonly string[] = ['open']): Promise<PostedRange | null> {
  const rows = (await db('job_postings')
    .join('band_company_jobs as j', function on() {
      this.on('j.id', '=', 'job_postings.company_job_id').andOn('j.company_id', '=', 'job_postings.company_id');
    })
    .where({ 'job_postings.company_id': scope.companyId, 'j.job_family_id': offer.jobFamilyId, 'j.level_id': offer.levelId })
    .whereIn('job_postings.state', [...states])
    .orderBy('job_postings.created_at', 'desc')
    .select('job_postings.id', 'job_postings.title', 'job_postings.state', 'job_postings.locations')) as { id: string; title: string; state: string; locations: string }[];
  // In the order of `states` (an open posting before a closed one), newest first within each.
  const ordered = [...rows].sort((a, b) => states.indexOf(a.state) - states.indexOf(b.state));
  for (const row of ordered) {
    const places = parsePlaces(row.locations);
    const place = places.find((candidate) => candidate.locationId === offer.locationId && candidate.range);
    if (place?.range) return { postingId: row.id, title: row.title, place: place.name, min: place.range.min, max: place.range.max, currency: place.currency };
  }
  return null;
}
