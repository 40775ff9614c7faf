// @ts-check
// People, roles, API tokens, release flags, internal-admin sessions, audit, and the identity provider's storage.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('companies', (t) => {
    t.text('onboarding').notNullable().defaultTo('{}'); // JSON: completed onboarding steps
    t.text('enterprise_tags').notNullable().defaultTo('[]'); // JSON array of tags
    t.integer('version').notNullable().defaultTo(1);
  });

  await knex.schema.createTable('users', (t) => {
    t.string('id', 64).primary();
    // Null until the person creates or joins a company (right after sign-up).
    t.string('company_id', 64).nullable().references('companies.id').onDelete('CASCADE');
    t.string('email', 320).notNullable().unique(); // stored lower-cased
    t.string('first_name').notNullable().defaultTo('');
    t.string('last_name').notNullable().defaultTo('');
    t.text('password_hash').nullable(); // scrypt; null for people who sign in elsewhere
    t.boolean('email_verified').notNullable().defaultTo(false);
    t.boolean('is_internal_admin').notNullable().defaultTo(false);
    t.boolean('is_candidate').notNullable().defaultTo(false);
    t.string('status', 16).notNullable().defaultTo('active'); // active | removed
    t.string('external_subject').nullable().unique(); // `sub` at an external issuer
    t.text('preferences').notNullable().defaultTo('{}');
    t.text('onboarding').notNullable().defaultTo('{}');
    t.text('signup_details').notNullable().defaultTo('{}'); // partnerCode, referrer, campaign tracking
    t.timestamp('terms_accepted_at', { useTz: true }).nullable();
    t.timestamp('last_login_at', { useTz: true }).nullable();
    t.timestamp('last_logout_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id']);
  });

  await knex.schema.createTable('roles', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('key', 64).notNullable(); // e.g. admin, compensation_planner
    t.string('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.boolean('is_builtin').notNullable().defaultTo(false);
    t.text('permissions').notNullable(); // JSON: { name: [{ authority, scope }] }
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'key']);
  });

  await knex.schema.createTable('user_roles', (t) => {
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('role_id', 64).notNullable().references('roles.id').onDelete('CASCADE');
    t.primary(['user_id', 'role_id']);
    t.index(['company_id', 'role_id']);
  });

  await knex.schema.createTable('api_tokens', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).nullable().references('companies.id').onDelete('CASCADE');
    t.string('user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('name').notNullable();
    t.string('token_hash', 64).notNullable().unique(); // sha256 of the secret; the secret is shown once
    t.string('token_prefix', 16).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.index(['user_id']);
  });

  await knex.schema.createTable('company_flags', (t) => {
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('flag', 64).notNullable();
    t.boolean('enabled').notNullable();
    t.string('updated_by', 64).nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['company_id', 'flag']);
  });

  await knex.schema.createTable('view_as_sessions', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('admin_user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('target_user_id', 64).nullable().references('users.id').onDelete('CASCADE');
    t.string('mode', 16).notNullable(); // user | company
    t.text('reason').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.timestamp('ended_at', { useTz: true }).nullable();
    t.index(['admin_user_id']);
  });

  await knex.schema.createTable('audit_events', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).nullable().references('companies.id').onDelete('CASCADE');
    t.string('actor_user_id', 64).nullable();
    t.string('action', 64).notNullable();
    t.string('subject_type', 64).nullable();
    t.string('subject_id', 64).nullable();
    t.text('details').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['company_id', 'created_at']);
  });

  await knex.schema.createTable('sign_in_throttle', (t) => {
    t.string('key', 400).primary(); // lower-cased e-mail or client address
    t.integer('failures').notNullable().defaultTo(0);
    t.timestamp('window_started_at', { useTz: true }).notNullable();
    t.timestamp('locked_until', { useTz: true }).nullable();
  });

  await knex.schema.createTable('oidc_models', (t) => {
    t.string('model', 64).notNullable();
    t.string('id', 255).notNullable();
    t.text('payload').notNullable();
    t.string('grant_id', 255).nullable();
    t.string('user_code', 255).nullable();
    t.string('uid', 255).nullable();
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.timestamp('consumed_at', { useTz: true }).nullable();
    t.primary(['model', 'id']);
    t.index(['grant_id']);
    t.index(['user_code']);
    t.index(['uid']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  for (const table of ['oidc_models', 'sign_in_throttle', 'audit_events', 'view_as_sessions', 'company_flags', 'api_tokens', 'user_roles', 'roles', 'users']) {
    await knex.schema.dropTable(table);
  }
  await knex.schema.alterTable('companies', (t) => {
    t.dropColumn('onboarding');
    t.dropColumn('enterprise_tags');
    t.dropColumn('version');
  });
}
