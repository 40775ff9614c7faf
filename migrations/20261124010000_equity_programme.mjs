// @ts-check
// Whether a participating company offers equity, as it says: without it, a company whose grants were
// never imported is "not known", not "no equity programme", in the equity-practice shares.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('company_market_profiles', (t) => {
    t.string('equity_programme', 8).nullable(); // yes | no | null (not said)
  });
  await knex.schema.alterTable('market_release_contributors', (t) => {
    t.boolean('equity_programme_known').notNullable().defaultTo(true);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('market_release_contributors', (t) => {
    t.dropColumn('equity_programme_known');
  });
  await knex.schema.alterTable('company_market_profiles', (t) => {
    t.dropColumn('equity_programme');
  });
}
