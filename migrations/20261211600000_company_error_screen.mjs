// @ts-check
// The text an internal admin sets for a company's error screen (the spec's remote override of the
// error boundary's title and description, §4): while set, the screen a render failure shows carries
// it instead of the error's own words — e.g. during an incident. Null: no override.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('companies', (t) => {
    t.string('error_screen_title', 120).nullable();
    t.text('error_screen_description').nullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('companies', (t) => {
    t.dropColumn('error_screen_title');
    t.dropColumn('error_screen_description');
  });
}
