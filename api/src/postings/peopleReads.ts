import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

/* What job postings (api/src/postings) read of the people tables: the employer's head count, never a person. */

/** How many active employees the company has (a starting hire is not one yet), for the pay-transparency size thresholds. */
export async function activeHeadcount(db: Knex, scope: CompanyScope): Promise<number> {
  const row = (await db('employees').where({ company_id: scope.companyId, status: 'active' }).count({ count: '*' }).first()) as { count: number | string } | undefined;
  return Number(row?.count ?? 0);
}

/** Active employees by recorded country and catalog location, for thresholds that count the employees in a state or city. */
export async function activeHeadcountByPlace(db: Knex, scope: CompanyScope): Promise<{ countryCode: string | null; locationId: string | null; count: number }[]> {
  const rows = (await db('employees')
    .where({ company_id: scope.companyId, status: 'active' })
    .groupBy('country_code', 'location_id')
    .select('country_code', 'location_id')
    .count({ count: '*' })) as { country_code: string | null; location_id: string | null; count: number | string }[];
  return rows.map((row) => ({ countryCode: row.country_code, locationId: row.location_id, count: Number(row.count) }));
}
