// @ts-check
// Corrections to pay records and grant terms are edits of shared records: like employees, they carry a
// version so a stale edit is refused instead of overwriting someone else's. Rows written without one
// (imports) start at 1. Also an index for the employee list's name order.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('compensation_records', (t) => {
    t.integer('version').nullable().defaultTo(1);
    t.timestamp('updated_at', { useTz: true }).nullable();
  });
  await knex.schema.alterTable('equity_grants', (t) => {
    t.integer('version').nullable().defaultTo(1);
  });
  await knex.schema.alterTable('employees', (t) => {
    t.index(['company_id', 'last_name', 'first_name', 'id'], 'employees_company_name_order');
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('employees', (t) => t.dropIndex(['company_id', 'last_name', 'first_name', 'id'], 'employees_company_name_order'));
  await knex.schema.alterTable('equity_grants', (t) => t.dropColumn('version'));
  await knex.schema.alterTable('compensation_records', (t) => {
    t.dropColumn('updated_at');
    t.dropColumn('version');
  });
}
