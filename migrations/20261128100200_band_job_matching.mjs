// @ts-check
// band_settings.job_matching: how employees map to company jobs (api/src/bands/placement.ts):
// familyLevel (the default, as before), titleLevel, title or jobCode.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('band_settings', (t) => {
    t.string('job_matching', 16).notNullable().defaultTo('familyLevel');
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('band_settings', (t) => {
    t.dropColumn('job_matching');
  });
}
