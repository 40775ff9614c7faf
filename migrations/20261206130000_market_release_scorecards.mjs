// @ts-check
// A market release's privacy scorecard (api/src/market/engine/scorecard.ts): the attack battery run
// against it and the utility cost of its figures, computed when it is built, stored as JSON with it.
// A release without one (built before) is scored when an internal admin publishes it.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('market_releases', (t) => {
    t.text('privacy_scorecard').nullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('market_releases', (t) => {
    t.dropColumn('privacy_scorecard');
  });
}
