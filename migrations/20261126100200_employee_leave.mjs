// @ts-check
// A dated leave on the employee (parental, sabbatical, …): from its first day to its last, both
// counted; no last day while it is open. Merit cycles' "on leave" eligibility rule reads it.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('employees', (t) => {
    t.string('leave_start_date', 10).nullable();
    t.string('leave_end_date', 10).nullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('employees', (t) => {
    t.dropColumn('leave_start_date');
    t.dropColumn('leave_end_date');
  });
}
