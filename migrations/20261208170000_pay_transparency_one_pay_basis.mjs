// @ts-check
// Pay transparency answers with pay equity's definition of pay: people data records annual
// full-time-equivalent rates and hourly pay is over pay equity's full-time hours (40 × 52), so the
// pay-transparency settings no longer hold their own weekly hours or part-time FTE.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('pay_transparency_settings', (t) => {
    t.dropColumn('weekly_hours_tenths');
    t.dropColumn('part_time_fte_bp');
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('pay_transparency_settings', (t) => {
    t.integer('weekly_hours_tenths').notNullable().defaultTo(400);
    t.integer('part_time_fte_bp').notNullable().defaultTo(5000);
  });
}
