// @ts-check
// An offer may name the hiring manager its hire will report to (an employee of the company). An
// accepted hire whose start date is ahead is an employee with status `starting` (not active)
// until a scheduled job makes them active on that date; the index serves that job and the team
// view's "Starting soon" list.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('offers', (t) => {
    t.string('hiring_manager_id', 64).nullable();
  });
  await knex.schema.alterTable('employees', (t) => {
    t.index(['company_id', 'status', 'start_date'], 'employees_company_status_start');
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('employees', (t) => {
    t.dropIndex(['company_id', 'status', 'start_date'], 'employees_company_status_start');
  });
  await knex.schema.alterTable('offers', (t) => {
    t.dropColumn('hiring_manager_id');
  });
}
