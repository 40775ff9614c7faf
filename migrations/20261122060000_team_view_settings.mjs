// @ts-check
// Team-view settings: which columns the employee table shows and in what order, what the comp
// timeline and the equity-details chart show. One row per company (the default, owner_key
// 'company') and one per person who changed theirs (owner_key = their user id). Each section is
// JSON; a person's row holds only the sections they changed (NULL = use the company's).

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('team_view_settings', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    // 'company' for the company default, else the user id (a NULL could not be unique on both engines).
    t.string('owner_key', 64).notNullable();
    t.string('user_id', 64).nullable().references('users.id').onDelete('CASCADE');
    t.text('columns').nullable();
    t.text('comp_timeline').nullable();
    t.text('equity_details').nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'owner_key']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('team_view_settings');
}
