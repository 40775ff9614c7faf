// @ts-check
// The company's chat app installed through OAuth (api/src/notifications/chatApp/): the one-time
// states of authorizations under way, and the installation with its sealed token and channel.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('chat_app_oauth_states', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    // The sign-in session or API token that started it: only that credential may finish it.
    t.string('credential', 200).notNullable();
    t.string('state_hash', 64).notNullable().unique(); // sha256 of the state sent to the chat app
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.index(['company_id', 'user_id']);
  });
  await knex.schema.createTable('chat_app_installations', (t) => {
    t.string('company_id', 64).primary().references('companies.id').onDelete('CASCADE');
    t.string('provider', 32).notNullable();
    t.string('workspace_id', 200).nullable();
    t.string('workspace_name', 200).nullable();
    t.text('token_sealed').notNullable(); // the access token, sealed (kernel/secrets.ts)
    t.string('channel_id', 200).nullable();
    t.string('channel_name', 200).nullable();
    t.string('installed_by', 64).nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('installed_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('chat_app_installations');
  await knex.schema.dropTableIfExists('chat_app_oauth_states');
}
