// @ts-check
// People-data imports (HRIS and cap-table files): uploaded files, saved column mappings, import runs;
// and connections to HR and equity systems whose syncs run through the same import.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  // The bytes live in the download storage (a download of the uploader's, expiring with it); this row
  // says what the file is for and what its header row holds.
  await knex.schema.createTable('people_import_files', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('owner_user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('download_id', 64).notNullable().references('downloads.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable(); // employees | equityGrants
    t.string('format', 8).notNullable(); // csv | xlsx
    t.string('filename').notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.text('columns').notNullable(); // JSON array of header names, in file order
    t.integer('row_count').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['company_id', 'owner_user_id']);
  });

  await knex.schema.createTable('people_import_mappings', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable();
    t.string('name', 120).notNullable();
    t.text('mapping').notNullable(); // JSON: Paybench field → column header
    t.string('updated_by', 64).nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'kind', 'name']);
  });

  await knex.schema.createTable('integrations', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('kind', 64).notNullable(); // the connector
    t.string('name', 120).notNullable();
    t.string('import_kind', 16).notNullable(); // employees | equityGrants
    t.string('status', 16).notNullable(); // connected | error
    t.text('status_message').nullable();
    t.timestamp('checked_at', { useTz: true }).nullable();
    t.text('config').notNullable().defaultTo('{}'); // JSON of the fields that are not secret
    t.text('secrets').nullable(); // AES-256-GCM sealed JSON of the secret fields; never returned
    t.text('secret_keys').notNullable().defaultTo('[]'); // JSON: which secret fields hold a value
    t.string('mapping_name', 120).nullable();
    t.integer('sync_interval_hours').nullable();
    t.timestamp('next_sync_at', { useTz: true }).nullable();
    // Scheduled syncs run with this person's permissions, checked when they run.
    t.string('connected_by', 64).nullable().references('users.id').onDelete('SET NULL');
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'name']);
  });

  await knex.schema.createTable('people_import_runs', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('owner_user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable();
    t.string('file_id', 64).nullable().references('people_import_files.id').onDelete('SET NULL');
    t.string('filename').nullable();
    t.string('integration_id', 64).nullable().references('integrations.id').onDelete('SET NULL');
    t.string('trigger', 16).notNullable().defaultTo('manual'); // manual | schedule
    t.string('job_id', 64).nullable();
    t.boolean('dry_run').notNullable().defaultTo(false);
    t.text('mapping').nullable(); // JSON, as used
    t.string('mapping_name', 120).nullable();
    t.string('status', 16).notNullable(); // queued | running | planned | applied | rejected | failed | cancelled
    t.integer('row_count').nullable();
    t.text('plan').nullable(); // JSON
    t.text('errors').nullable(); // JSON: the first 1,000 row problems
    t.integer('error_count').notNullable().defaultTo(0);
    t.text('message').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('started_at', { useTz: true }).nullable();
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.index(['company_id', 'owner_user_id', 'created_at']);
    t.index(['integration_id', 'created_at']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  for (const table of ['people_import_runs', 'integrations', 'people_import_mappings', 'people_import_files']) {
    await knex.schema.dropTableIfExists(table);
  }
}
