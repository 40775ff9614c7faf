import type { Knex } from 'knex';
import { personIdentityRows } from '../../people/reads/contributions.js';
import { assignPersons, type KnownPersons } from '../engine/personKeys.js';

/**
 * The person tag of every active employee of these companies (market/engine/personKeys.ts), keeping
 * the identities seen for the first time: a re-import under new employee ids keeps each person's tag
 * as long as their e-mail, or their name and start date, stayed. Rows are inserted in batches; an
 * identity another build kept meanwhile is left as that build kept it.
 */
export async function personTagsOf(db: Knex, companyIds: string[], key: Uint8Array): Promise<Map<string, number>> {
  const tags = new Map<string, number>();
  if (companyIds.length === 0) return tags;
  const rows = await personIdentityRows(db, companyIds);
  const known = new Map<string, KnownPersons>();
  const stored = (await db('market_person_identities').whereIn('company_id', companyIds).select('company_id', 'identity', 'person')) as { company_id: string; identity: string; person: number }[];
  for (const row of stored) {
    let of = known.get(row.company_id);
    if (!of) known.set(row.company_id, (of = new Map()));
    of.set(row.identity, Number(row.person));
  }
  const added: { company_id: string; identity: string; person: number; created_at: Date }[] = [];
  const now = new Date();
  for (const companyId of companyIds) {
    const employees = rows
      .filter((row) => row.company_id === companyId)
      // The same order every build: which of two employees sharing an identity claims it first does not change.
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((row) => ({ id: row.id, email: row.email, firstName: row.first_name, lastName: row.last_name, startDate: row.start_date }));
    const assigned = assignPersons(key, companyId, { employees, known: known.get(companyId) ?? new Map() });
    for (const [id, person] of assigned.persons) tags.set(id, person);
    for (const { identity, person } of assigned.added) added.push({ company_id: companyId, identity, person, created_at: now });
  }
  for (let i = 0; i < added.length; i += 200) {
    await db('market_person_identities').insert(added.slice(i, i + 200)).onConflict(['company_id', 'identity']).ignore();
  }
  return tags;
}
