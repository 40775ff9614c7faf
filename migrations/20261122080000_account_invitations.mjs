// @ts-check
// Invitations of provisioned accounts (a one-time link to choose a password), and API tokens that
// follow their owner into a company.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('account_invitations', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique(); // sha256 of the secret in the e-mailed link
    t.string('invited_by', 64).nullable(); // users.id of who provisioned the account
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('accepted_at', { useTz: true }).nullable();
    t.index(['company_id', 'user_id']);
  });

  // Tokens created before their owner had a company were stored without one; they are the company's
  // now (row-level security shows a company's requests only the company's rows).
  await knex('api_tokens')
    .whereNull('company_id')
    .update({ company_id: knex.raw('(select users.company_id from users where users.id = api_tokens.user_id)') });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTable('account_invitations');
}
