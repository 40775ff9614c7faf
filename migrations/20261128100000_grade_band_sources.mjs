// @ts-check
// Grade bands built from market data (api/src/bands/build.ts) say where their figures came from, as
// job bands do: `source` (JSON: the percentile, the zone's differential and each company job's
// benchmark the grade's midpoint averages), `benchmark_amount` (the zone's benchmark in minor units of
// the set's currency) and `benchmark_count` (how many jobs it averages). Null for a grade band entered
// by hand or imported.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('band_grade_bands', (t) => {
    t.text('source').nullable();
    t.bigInteger('benchmark_amount').nullable();
    t.integer('benchmark_count').nullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('band_grade_bands', (t) => {
    t.dropColumn('source');
    t.dropColumn('benchmark_amount');
    t.dropColumn('benchmark_count');
  });
}
