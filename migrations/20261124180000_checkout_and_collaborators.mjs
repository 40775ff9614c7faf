// @ts-check
// Buying premium benchmarking (api/src/billing/): the invoice requests a checkout session records
// for Paybench staff, and which companies have premium benchmarking since when.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('billing_checkout_requests', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('reference', 32).notNullable().unique();
    t.string('provider', 32).notNullable(); // the payment provider that recorded it
    t.string('plan', 32).notNullable(); // premium_annual | premium_monthly
    t.string('requested_by_user_id', 64).nullable().references('users.id').onDelete('SET NULL');
    t.string('requested_by_name', 400).notNullable(); // kept when the person is removed
    t.string('invoice_to', 320).notNullable();
    t.timestamp('requested_at', { useTz: true }).notNullable();
    t.string('status', 16).notNullable().defaultTo('requested'); // requested | fulfilled
    t.timestamp('fulfilled_at', { useTz: true }).nullable();
    t.string('fulfilled_by_user_id', 64).nullable().references('users.id').onDelete('SET NULL');
    t.index(['company_id', 'status']);
    t.index(['status', 'requested_at']);
  });
  await knex.schema.createTable('company_premium_benchmarking', (t) => {
    t.string('company_id', 64).primary().references('companies.id').onDelete('CASCADE');
    t.string('plan', 32).notNullable();
    t.timestamp('since', { useTz: true }).notNullable();
    t.string('checkout_request_id', 64).nullable().references('billing_checkout_requests.id').onDelete('SET NULL');
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('company_premium_benchmarking');
  await knex.schema.dropTableIfExists('billing_checkout_requests');
}
