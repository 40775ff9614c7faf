// @ts-check
// A contributed record's currency when it is not its place's own: in a place whose currency has no
// reference rate (Nigeria, Ukraine, …) pay in dollars, euros or another rated currency is kept in US
// dollars. Null: the place's own currency, as every record stored before this was.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('market_release_contributions', (t) => {
    t.string('currency', 3).nullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('market_release_contributions', (t) => {
    t.dropColumn('currency');
  });
}
