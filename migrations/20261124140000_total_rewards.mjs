// @ts-check
// Total rewards (api/src/totalRewards/, module totalRewards): the company's communicate settings,
// one versioned document per company (appearance, sections on/off with their text, equity display,
// future modelling, benefits, user groups, learning-hub articles), each part JSON. A part that is
// NULL is the product's default; the uploaded logo and banner image (data: URLs) have columns of
// their own so the document stays small to read.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('communicate_settings', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.text('appearance').nullable(); // JSON, without the images
    t.text('logo').nullable(); // data: URL
    t.text('banner_image').nullable(); // data: URL
    t.text('sections').nullable(); // JSON: { overview: { enabled, title, text }, … }
    t.text('equity_display').nullable(); // JSON
    t.text('future_modeling').nullable(); // JSON
    t.text('benefits').nullable(); // JSON list
    t.text('user_groups').nullable(); // JSON list
    t.text('learning_hub').nullable(); // JSON
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('communicate_settings');
}
