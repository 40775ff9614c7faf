// @ts-check
// Local-currency pay zones (api/src/bands/zones.ts, build.ts):
// - band_pay_zones.currency: the currency a zone's bands are in; null: the band set's currency.
// - bands.currency, band_grade_bands.currency: the currency each band's minor units are in. Bands
//   written before were all in their set's currency, which is filled in.

const BAND_TABLES = ['bands', 'band_grade_bands'];

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('band_pay_zones', (t) => {
    t.string('currency', 3).nullable();
  });
  for (const table of BAND_TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.string('currency', 3).nullable();
    });
    await knex.raw(`update ${table} set currency = (select band_sets.currency from band_sets where band_sets.id = ${table}.band_set_id)`);
  }
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  for (const table of [...BAND_TABLES, 'band_pay_zones']) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('currency');
    });
  }
}
