// @ts-check
// A contributed record's person: a keyed hash of its employee's id within its company (32 bits, never
// reversible without the server's key), so the same person moves the same way in every release
// however their colleagues change. Null: records stored before this, which move by their rank.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('market_release_contributions', (t) => {
    t.integer('person').nullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('market_release_contributions', (t) => {
    t.dropColumn('person');
  });
}
