// @ts-check
// Collaborators outside the company invited to one shared slice (api/src/market/shares/):
// a read-only, expiring, revocable link per invitation, and every time it was opened.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('market_slice_collaborators', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('slice_id', 64).notNullable().references('market_shared_slices.id').onDelete('CASCADE');
    t.string('email', 320).notNullable();
    t.string('token_hash', 64).notNullable().unique(); // sha256 of the secret in the e-mailed link
    t.string('invited_by', 64).nullable().references('users.id').onDelete('SET NULL');
    t.string('invited_by_name', 400).notNullable(); // kept when the person is removed
    t.timestamp('invited_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.string('revoked_by', 64).nullable().references('users.id').onDelete('SET NULL');
    t.index(['company_id', 'slice_id']);
  });
  await knex.schema.createTable('market_slice_collaborator_opens', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('collaborator_id', 64).notNullable().references('market_slice_collaborators.id').onDelete('CASCADE');
    t.timestamp('opened_at', { useTz: true }).notNullable();
    t.string('address', 64).nullable();
    t.string('user_agent', 400).nullable();
    t.index(['collaborator_id', 'opened_at']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('market_slice_collaborator_opens');
  await knex.schema.dropTableIfExists('market_slice_collaborators');
}
