// @ts-check
// Market data releases (what each API node rebuilds in memory) and each company's benchmarking settings.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  // Market data is shared by every company: releases carry no company_id.
  await knex.schema.createTable('market_releases', (t) => {
    t.string('id', 64).primary();
    t.string('version', 64).notNullable().unique();
    t.string('status', 16).notNullable(); // draft | published
    t.boolean('pinned').notNullable().defaultTo(false);
    // A release stores how to rebuild its rows, not the rows: the demo market's generator parameters.
    t.string('source_kind', 32).notNullable(); // demo
    t.integer('source_seed').notNullable();
    t.integer('source_records').notNullable();
    t.integer('record_count').notNullable();
    t.integer('company_count').notNullable();
    t.timestamp('built_at', { useTz: true }).notNullable();
    t.timestamp('published_at', { useTz: true }).nullable();
    t.index(['status', 'published_at']);
  });

  await knex.schema.createTable('company_benchmarking_settings', (t) => {
    t.string('company_id', 64).primary().references('companies.id').onDelete('CASCADE');
    t.boolean('override_base_compensation_requirement').notNullable().defaultTo(false);
    t.boolean('override_equity_requirement').notNullable().defaultTo(false);
    t.boolean('use_synthetic_location_insights_data').notNullable().defaultTo(false);
    t.string('location', 32).nullable(); // Europe | Canada | United States | null
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('company_benchmarking_settings');
  await knex.schema.dropTableIfExists('market_releases');
}
