// @ts-check
// Salary bands (api/src/bands/):
// - band_pay_zones: geographic zones with a differential (basis points) relative to the anchor zone,
//   matching rules (JSON: countries, metros) and one catch-all; versioned.
// - band_company_jobs: the company's jobs, one per market family × level (the level gives the track); versioned.
// - band_sets: draft | live | archived (workflow `bandSet`, history in workflow_history), a currency,
//   an effective date and the philosophy they were built with; at most one live per company.
// - bands: min / mid / max per company job × pay zone in minor units of the set's currency, with the
//   market cell they were built from (JSON); versioned.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('band_pay_zones', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.integer('differential_bp').notNullable().defaultTo(0);
    t.boolean('is_anchor').notNullable().defaultTo(false);
    t.boolean('is_catch_all').notNullable().defaultTo(false);
    t.text('rules').notNullable().defaultTo('[]'); // JSON: [{ country, metros? }]
    t.integer('position').notNullable().defaultTo(0);
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'name']);
  });

  await knex.schema.createTable('band_company_jobs', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('job_family_id', 64).notNullable();
    t.string('level_id', 64).notNullable();
    t.string('track', 16).notNullable();
    t.string('title', 200).notNullable();
    t.string('job_code', 64).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'job_family_id', 'level_id']);
    t.unique(['company_id', 'job_code']); // several nulls are allowed on both engines
  });

  await knex.schema.createTable('band_sets', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('status', 16).notNullable(); // draft | live | archived
    t.string('currency', 3).notNullable();
    t.string('effective_date', 10).notNullable();
    t.text('philosophy').nullable(); // JSON: what the last build used
    t.timestamp('published_at', { useTz: true }).nullable();
    t.string('published_by', 64).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'status']);
  });
  // One live set per company, whatever races: the same partial index on both engines.
  await knex.raw("create unique index band_sets_one_live on band_sets (company_id) where status = 'live'");

  await knex.schema.createTable('bands', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('band_set_id', 64).notNullable().references('band_sets.id').onDelete('CASCADE');
    t.string('company_job_id', 64).notNullable().references('band_company_jobs.id');
    t.string('pay_zone_id', 64).notNullable().references('band_pay_zones.id');
    t.bigInteger('min_amount').notNullable(); // minor units of the set's currency
    t.bigInteger('mid_amount').notNullable();
    t.bigInteger('max_amount').notNullable();
    t.text('source').nullable(); // JSON: release, market cell, percentile, value, differential
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['band_set_id', 'company_job_id', 'pay_zone_id']);
    t.index(['company_id', 'company_job_id']);
    t.index(['company_id', 'pay_zone_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('bands');
  await knex.schema.dropTableIfExists('band_sets');
  await knex.schema.dropTableIfExists('band_company_jobs');
  await knex.schema.dropTableIfExists('band_pay_zones');
}
