// @ts-check
// Top-down budget allocations of a merit cycle (api/src/meritCycles/allocations.ts): per worksheet
// (a node of the cycle's org tree), the budget of its whole branch, set either as a percentage of the
// branch's eligible pay (percent_bp, basis points) or as an amount (minor units of `currency`, the
// node's currency). A node without a row is allocated the cycle's computed budget. Edits move the
// cycle's version (If-Match on the cycle).

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('merit_cycle_budget_allocations', (t) => {
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('cycle_id', 64).notNullable();
    t.string('worksheet_id', 64).notNullable();
    t.string('method', 16).notNullable(); // percent | amount
    t.integer('percent_bp').nullable();
    t.bigInteger('amount').nullable();
    t.string('currency', 3).notNullable();
    t.string('updated_by', 64).nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['company_id', 'cycle_id', 'worksheet_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTable('merit_cycle_budget_allocations');
}
