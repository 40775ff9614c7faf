// @ts-check
// Band sets published to a merit cycle (api/src/bands/sets.ts): `band_sets.merit_cycle_id` names the
// cycle a set in state `cycle` serves; at most one such set per cycle (the same partial index on both
// engines). The live set is untouched by it.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('band_sets', (t) => {
    t.string('merit_cycle_id', 64).nullable();
  });
  await knex.raw("create unique index band_sets_one_per_cycle on band_sets (company_id, merit_cycle_id) where status = 'cycle'");
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.raw('drop index if exists band_sets_one_per_cycle');
  await knex.schema.alterTable('band_sets', (t) => {
    t.dropColumn('merit_cycle_id');
  });
}
