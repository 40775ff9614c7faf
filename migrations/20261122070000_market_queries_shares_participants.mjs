// @ts-check
// Benchmarking beyond the explorer: saved report queries, shared slices, a company's market
// participation profile, and the anonymised records customers contributed to each release.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('market_saved_queries', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('request').notNullable(); // the data explorer's request, JSON
    t.string('created_by', 64).nullable().references('users.id').onDelete('SET NULL');
    t.string('updated_by', 64).nullable().references('users.id').onDelete('SET NULL');
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'updated_at']);
  });

  // A shared slice is a snapshot: the request, the release it ran on, and what it answered then.
  await knex.schema.createTable('market_shared_slices', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable(); // employee | executive
    t.string('title', 200).notNullable();
    t.text('request').notNullable();
    t.text('result').notNullable();
    t.string('release_id', 64).notNullable();
    t.string('release_version', 64).notNullable();
    t.string('saved_query_id', 64).nullable();
    t.string('created_by', 64).nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.string('revoked_by', 64).nullable().references('users.id').onDelete('SET NULL');
    t.index(['company_id', 'created_at']);
  });

  // What a contributing company looks like to market filters (companies.market_participant is the opt-in).
  await knex.schema.createTable('company_market_profiles', (t) => {
    t.string('company_id', 64).primary().references('companies.id').onDelete('CASCADE');
    t.string('company_stage', 64).notNullable();
    t.string('ownership_group', 64).notNullable();
    t.string('industry', 64).notNullable(); // a sub-industry id
    t.string('updated_by', 64).nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });

  // Contributions are anonymised on the way in: no company id, no names, only a participant number
  // within the release. A release is rebuilt from its generator parameters plus these rows.
  await knex.schema.createTable('market_release_contributors', (t) => {
    t.string('release_id', 64).notNullable().references('market_releases.id').onDelete('CASCADE');
    t.integer('participant').notNullable();
    t.string('company_stage', 64).notNullable();
    t.string('ownership_group', 64).notNullable();
    t.string('industry', 64).notNullable();
    t.string('headquarters', 64).notNullable();
    t.double('valuation_usd').notNullable().defaultTo(0);
    // The company's equity practice, read from its grants (null where it has none to read).
    t.boolean('grants_equity').notNullable().defaultTo(false);
    t.string('grant_type', 32).nullable();
    t.string('vesting_schedule', 32).nullable();
    t.string('vesting_cliff', 32).nullable();
    t.string('vesting_frequency', 32).nullable();
    t.string('grant_timings', 200).notNullable().defaultTo(''); // comma-separated grant timing ids
    t.primary(['release_id', 'participant']);
  });
  await knex.schema.createTable('market_release_contributions', (t) => {
    t.increments('id').primary();
    t.string('release_id', 64).notNullable().references('market_releases.id').onDelete('CASCADE');
    t.integer('participant').notNullable();
    t.string('job_family_id', 64).notNullable();
    t.string('level_id', 64).notNullable();
    t.string('location_id', 64).notNullable();
    // Whole units of the location's currency; null when the employee has none.
    t.integer('base').notNullable();
    t.integer('variable').nullable();
    t.integer('annual_bonus').nullable();
    t.integer('total_cash').notNullable();
    t.integer('new_hire_equity').nullable();
    t.index(['release_id']);
  });

  await knex.schema.alterTable('market_releases', (t) => {
    t.integer('contributed_companies').notNullable().defaultTo(0);
    t.integer('contributed_records').notNullable().defaultTo(0);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('market_releases', (t) => {
    t.dropColumn('contributed_companies');
    t.dropColumn('contributed_records');
  });
  for (const table of ['market_release_contributions', 'market_release_contributors', 'company_market_profiles', 'market_shared_slices', 'market_saved_queries']) {
    await knex.schema.dropTableIfExists(table);
  }
}
