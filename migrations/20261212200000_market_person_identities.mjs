// @ts-check
// Who a participant's employee is to the market across re-imports: keyed hashes (never reversible
// without the server's key) of each stable identity of theirs — employee id, work e-mail, name with
// start date — and the person tag it was first given, so a re-import under new ids keeps everyone's
// tag and their move in the market. Internal to release builds; never part of a release.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('market_person_identities', (t) => {
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('identity', 64).notNullable();
    t.integer('person').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.primary(['company_id', 'identity']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTable('market_person_identities');
}
