// @ts-check
// Invitations an admin revoked, and one-time links to reset a forgotten password.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('account_invitations', (t) => {
    t.timestamp('revoked_at', { useTz: true }).nullable();
  });

  // A reset belongs to a person, not to a company: people without a company can reset too, and the
  // link is used before anyone is signed in.
  await knex.schema.createTable('password_resets', (t) => {
    t.string('id', 64).primary();
    t.string('user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique(); // sha256 of the secret in the e-mailed link
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.index(['user_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTable('password_resets');
  await knex.schema.alterTable('account_invitations', (t) => {
    t.dropColumn('revoked_at');
  });
}
