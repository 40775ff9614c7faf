// @ts-check
// Contractors go into a release as records of their own kind, which market filters include only on
// request; interns stay out. Records stored before are employees.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('market_release_contributions', (t) => {
    t.string('employment_type', 16).notNullable().defaultTo('employee');
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('market_release_contributions', (t) => {
    t.dropColumn('employment_type');
  });
}
