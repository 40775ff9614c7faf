// @ts-check
// - bands.ranges: a band's optional variable / bonus target / equity ranges (JSON), versioned with the band.
// - band_pay_zones.viewer_user_ids: who, of the people whose `bands` grant has the scope `zones`, sees
//   this zone's bands and employees (JSON array of user ids; people granted `all` see every zone).

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('bands', (t) => {
    t.text('ranges').nullable();
  });
  await knex.schema.alterTable('band_pay_zones', (t) => {
    t.text('viewer_user_ids').notNullable().defaultTo('[]');
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('band_pay_zones', (t) => {
    t.dropColumn('viewer_user_ids');
  });
  await knex.schema.alterTable('bands', (t) => {
    t.dropColumn('ranges');
  });
}
