// @ts-check
// Pay equity adjustments sent to a merit cycle still in draft: the cycle holds no rows until it is
// launched, so the raises wait here (minor units of their currency, with their reason) and are
// planned on the rows when the cycle launches. Sending again replaces the set.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('merit_cycle_draft_equity_adjustments', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('cycle_id', 64).notNullable().references('merit_cycles.id').onDelete('CASCADE');
    t.string('employee_id', 64).notNullable().references('employees.id').onDelete('CASCADE');
    t.bigInteger('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.text('reason').notNullable();
    t.string('created_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['cycle_id', 'employee_id']);
    t.index(['company_id', 'cycle_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTable('merit_cycle_draft_equity_adjustments');
}
