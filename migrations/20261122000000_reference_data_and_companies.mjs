// @ts-check
// Reference data (currencies, exchange rates) and the company, the root of every tenant.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('currencies', (t) => {
    t.string('code', 3).primary();
    t.string('numeric_code', 3).notNullable();
    t.string('name').notNullable();
    t.integer('minor_unit').nullable();
    t.text('entities').notNullable(); // JSON array of country/territory names
  });

  await knex.schema.createTable('forex_rates', (t) => {
    t.string('currency', 3).notNullable();
    t.date('rate_date').notNullable();
    t.string('base', 3).notNullable().defaultTo('EUR');
    // Units of `currency` for one `base`, as published (the ECB quotes up to 6 significant digits).
    t.double('rate').notNullable();
    t.string('source').notNullable();
    t.primary(['currency', 'rate_date']);
  });
  await knex.schema.alterTable('forex_rates', (t) => t.index(['rate_date']));

  await knex.schema.createTable('companies', (t) => {
    t.string('id', 64).primary();
    t.string('key', 64).notNullable().unique();
    t.string('name').notNullable();
    t.text('domains').notNullable(); // JSON array of e-mail domains
    t.string('currency', 3).notNullable().defaultTo('USD');
    // Per-share prices in millionths of the currency unit: sub-cent 409A prices stay exact.
    t.bigInteger('share_price_micros').notNullable().defaultTo(0);
    t.bigInteger('exercise_price_micros').nullable();
    // Company valuation in the currency's minor units.
    t.bigInteger('valuation_minor').nullable();
    t.boolean('is_demo').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('app_meta', (t) => {
    t.string('key', 64).primary();
    t.text('value').notNullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTable('app_meta');
  await knex.schema.dropTable('companies');
  await knex.schema.dropTable('forex_rates');
  await knex.schema.dropTable('currencies');
}
