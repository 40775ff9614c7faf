// @ts-check
// Salary bands, second slice (api/src/bands/): market data beyond the served release.
// - band_settings: one row per company (the annual aging rate composites use); versioned.
// - band_surveys: third-party market data (imported files, the BLS OEWS national survey) with a
//   provider, an effective date and a currency; versioned. At most one BLS survey per company.
// - band_survey_jobs: a survey's jobs by its own code, percentiles in minor units of the survey's currency.
// - band_market_associations: company job ↔ survey job or market cell, with a weight; versioned.
// - band_files / band_imports: uploaded survey and bands files (kept as the uploader's downloads) and
//   their imports (dry run or not, all or nothing, line-numbered problems), run as jobs.
// - bands gain the benchmark they were built from (kept through hand edits and imports).
// Every table carries company_id, so Postgres row-level security covers it.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('band_settings', (t) => {
    t.string('company_id', 64).primary().references('companies.id').onDelete('CASCADE');
    t.integer('aging_rate_bp').notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('band_surveys', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable(); // imported | bls
    t.string('name', 200).notNullable();
    t.string('provider', 200).notNullable();
    t.string('effective_date', 10).notNullable();
    t.string('currency', 3).notNullable();
    t.integer('job_count').notNullable().defaultTo(0);
    t.string('filename', 255).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'effective_date']);
  });
  // The BLS survey is added once per company, whatever races: the same partial index on both engines.
  await knex.raw("create unique index band_surveys_one_bls on band_surveys (company_id) where kind = 'bls'");

  await knex.schema.createTable('band_survey_jobs', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('survey_id', 64).notNullable().references('band_surveys.id').onDelete('CASCADE');
    t.string('code', 100).notNullable();
    t.string('title', 255).notNullable();
    t.string('family', 200).nullable();
    t.string('job_family_id', 64).nullable();
    t.string('level', 100).nullable();
    t.string('location', 200).nullable();
    t.bigInteger('p10').nullable(); // minor units of the survey's currency
    t.bigInteger('p25').nullable();
    t.bigInteger('p50').nullable();
    t.bigInteger('p75').nullable();
    t.bigInteger('p90').nullable();
    t.integer('incumbent_count').nullable();
    t.integer('company_count').nullable();
    t.unique(['survey_id', 'code']);
    t.index(['company_id', 'survey_id']);
  });

  await knex.schema.createTable('band_market_associations', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('company_job_id', 64).notNullable().references('band_company_jobs.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable(); // survey | market
    t.string('survey_id', 64).nullable().references('band_surveys.id');
    t.string('survey_job_code', 100).nullable();
    t.text('market_cell').nullable(); // JSON: { jobFamilyId, levelId, locationId, industryId, companyStageIds }
    t.double('weight').notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'company_job_id']);
    t.index(['company_id', 'survey_id']);
  });

  await knex.schema.createTable('band_files', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('owner_user_id', 64).notNullable();
    t.string('download_id', 64).notNullable();
    t.string('kind', 16).notNullable(); // survey | bands
    t.string('format', 8).notNullable();
    t.string('filename', 255).notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.text('columns').notNullable(); // JSON: the header row
    t.integer('row_count').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['company_id', 'owner_user_id']);
  });

  await knex.schema.createTable('band_imports', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('owner_user_id', 64).notNullable();
    t.string('kind', 16).notNullable(); // survey | bands
    t.string('file_id', 64).nullable();
    t.string('filename', 255).nullable();
    t.string('band_set_id', 64).nullable();
    t.string('survey_id', 64).nullable();
    t.text('survey_input').nullable(); // JSON: name, provider, effective date, currency of the survey to create
    t.boolean('dry_run').notNullable().defaultTo(false);
    t.text('mapping').nullable(); // JSON
    t.string('status', 16).notNullable();
    t.string('job_id', 64).nullable();
    t.integer('row_count').nullable();
    t.text('plan').nullable(); // JSON
    t.text('errors').nullable(); // JSON: the first 1,000 problems
    t.integer('error_count').notNullable().defaultTo(0);
    t.text('message').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('started_at', { useTz: true }).nullable();
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.index(['company_id', 'owner_user_id']);
  });

  await knex.schema.alterTable('bands', (t) => {
    t.bigInteger('benchmark_amount').nullable(); // the zone's benchmark at the build, minor units of the set's currency
    t.integer('benchmark_count').notNullable().defaultTo(0); // sources in it (1 for the market release alone)
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('bands', (t) => {
    t.dropColumn('benchmark_count');
    t.dropColumn('benchmark_amount');
  });
  await knex.schema.dropTableIfExists('band_imports');
  await knex.schema.dropTableIfExists('band_files');
  await knex.schema.dropTableIfExists('band_market_associations');
  await knex.schema.dropTableIfExists('band_survey_jobs');
  await knex.schema.dropTableIfExists('band_surveys');
  await knex.schema.dropTableIfExists('band_settings');
}
