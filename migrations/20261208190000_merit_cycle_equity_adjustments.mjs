// Pay equity adjustments planned in a merit cycle: the raise pay equity's cost to close sent to one
// employee's row (minor units of the employee's currency) and its reason, kept apart from merit and
// promotion so a later send replaces it rather than adding to it.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('merit_cycle_employees', (t) => {
    t.bigInteger('equity_adjustment_amount').nullable();
    t.text('equity_adjustment_reason').nullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('merit_cycle_employees', (t) => {
    t.dropColumn('equity_adjustment_reason');
    t.dropColumn('equity_adjustment_amount');
  });
}
