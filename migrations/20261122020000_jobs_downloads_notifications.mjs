// @ts-check
// Durable background jobs, the files they produce, notifications, and analytics events.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('jobs', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('owner_user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('type', 64).notNullable();
    t.string('status', 16).notNullable(); // queued | running | succeeded | failed | cancelled
    t.integer('progress').notNullable().defaultTo(0);
    t.text('message').nullable();
    t.text('input').notNullable().defaultTo('{}');
    t.text('result').nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('max_attempts').notNullable().defaultTo(3);
    t.timestamp('run_after', { useTz: true }).notNullable();
    t.string('locked_by', 128).nullable();
    t.timestamp('heartbeat_at', { useTz: true }).nullable();
    t.boolean('cancel_requested').notNullable().defaultTo(false);
    t.string('origin_socket_id', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.index(['status', 'run_after']);
    t.index(['company_id', 'owner_user_id', 'created_at']);
  });

  await knex.schema.createTable('downloads', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('owner_user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('job_id', 64).nullable().references('jobs.id').onDelete('SET NULL');
    t.string('kind', 64).notNullable(); // usersExport, benchmarkExport, bulkEmployeeComp, compensationReport …
    t.string('filename').notNullable();
    t.string('content_type').notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.string('storage_key').notNullable();
    // Besides the owner, people holding this permission (view) may fetch it.
    t.string('permission', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });

  await knex.schema.createTable('notification_settings', (t) => {
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    // Empty string for the company's own settings (webhook, defaults); a user id for a person's.
    t.string('user_id', 64).notNullable();
    t.text('settings').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['company_id', 'user_id']);
  });

  await knex.schema.createTable('outbox_emails', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).nullable().references('companies.id').onDelete('CASCADE');
    t.string('to_address', 320).notNullable();
    t.string('subject').notNullable();
    t.text('text_body').notNullable();
    t.string('status', 16).notNullable(); // held (no SMTP configured) | sent | failed
    t.text('error').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['created_at']);
  });

  await knex.schema.createTable('analytics_events', (t) => {
    t.string('id', 64).primary();
    t.string('kind', 16).notNullable(); // track | identify | page
    t.string('anonymous_id', 128).nullable();
    t.string('user_id', 64).nullable();
    t.string('name', 200).nullable(); // event (track) or page name
    t.text('payload').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.index(['received_at']);
  });

  await knex.schema.alterTable('companies', (t) => {
    t.boolean('market_participant').notNullable().defaultTo(false);
    t.timestamp('market_data_submitted_at', { useTz: true }).nullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('companies', (t) => {
    t.dropColumn('market_participant');
    t.dropColumn('market_data_submitted_at');
  });
  for (const table of ['analytics_events', 'outbox_emails', 'notification_settings', 'downloads', 'jobs']) {
    await knex.schema.dropTable(table);
  }
}
