// @ts-check
// The team table filters, counts, sorts and pages in the database; these indexes let it read a page
// of a large company instead of every row.
// - The default order — by name, case-insensitively — from an index. The expression is the one the
//   team store sorts by (api/src/team/store.ts, NAME_KEY): on Postgres with ICU's root collation when
//   the server has it, as the store does.
// - The count of the matching employees (active by default) from an index alone.

/** @param {import('knex').Knex} knex */
async function nameKey(knex) {
  if (knex.client.config.client !== 'pg') return `lower(trim(first_name || ' ' || last_name))`;
  const icu = await knex('pg_collation').where('collname', 'und-x-icu').first('collname');
  return icu ? `lower((trim(first_name || ' ' || last_name)) collate "und-x-icu")` : `lower(trim(first_name || ' ' || last_name))`;
}

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.raw(`create index employees_company_name_key on employees (company_id, (${await nameKey(knex)}), id)`);
  await knex.raw('create index employees_company_status on employees (company_id, status)');
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.raw('drop index employees_company_status');
  await knex.raw('drop index employees_company_name_key');
}
