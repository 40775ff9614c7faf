import { ENGINEERS_US } from './requests.js';

/** Ids of a company's own benchmarking records, for the tenancy walk. */
export interface MarketFixtures {
  savedQueryId: string;
  sliceId: string;
}

/** Posts JSON as the company's admin and answers status and body (the caller supplies the HTTP). */
export type PostAsAdmin = (path: string, json: unknown) => Promise<{ status: number; body: unknown }>;

/** A saved report query and a shared slice of one company, made over HTTP by its admin. */
export async function marketFixtures(post: PostAsAdmin): Promise<MarketFixtures> {
  const saved = await post('/api/benchmarking/saved-queries', { name: 'Tenancy probe', request: ENGINEERS_US });
  if (saved.status !== 201) throw new Error(`could not save a query: ${JSON.stringify(saved.body)}`);
  const savedQueryId = (saved.body as { data: { id: string } }).data.id;
  const slice = await post('/api/benchmarking/shares', { title: 'Tenancy probe', savedQueryId });
  if (slice.status !== 201) throw new Error(`could not share a slice: ${JSON.stringify(slice.body)}`);
  return { savedQueryId, sliceId: (slice.body as { data: { id: string } }).data.id };
}
