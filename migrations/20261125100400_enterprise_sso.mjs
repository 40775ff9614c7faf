// @ts-check
// Enterprise sign-in (api/src/identity/sso/): a company's own OpenID provider, the e-mail domains
// routed to it (each domain belongs to one company: the primary key says so across companies), and
// the provider's subjects linked to the people they signed in as.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('sso_connections', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('issuer_url', 2000).notNullable();
    t.string('client_id', 500).notNullable();
    t.text('client_secret_sealed').notNullable(); // AES-256-GCM under the secrets key, never returned
    t.boolean('enabled').notNullable().defaultTo(true);
    t.timestamp('verified_at', { useTz: true }).notNullable(); // when the discovery document last answered
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id']);
  });

  await knex.schema.createTable('sso_domains', (t) => {
    t.string('domain', 253).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('connection_id', 64).notNullable().references('sso_connections.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['company_id']);
    t.index(['connection_id']);
  });

  await knex.schema.createTable('sso_identities', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('connection_id', 64).notNullable().references('sso_connections.id').onDelete('CASCADE');
    t.string('subject', 255).notNullable(); // the provider's `sub`
    t.string('user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('last_sign_in_at', { useTz: true }).notNullable();
    t.unique(['connection_id', 'subject']);
    t.index(['user_id']);
    t.index(['company_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('sso_identities');
  await knex.schema.dropTableIfExists('sso_domains');
  await knex.schema.dropTableIfExists('sso_connections');
}
