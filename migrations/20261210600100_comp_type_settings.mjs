// @ts-check
// Comp type settings (api/src/compTypes/): per company, the compensation types it uses and how they
// are named — one row per type the company changed from the default (title, description, disabled).
// A type without a row is enabled under its default title. The set carries one version per company
// (comp_type_settings), edited under If-Match.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('comp_type_settings', (t) => {
    t.string('company_id', 64).primary().references('companies.id').onDelete('CASCADE');
    t.text('types').notNullable(); // JSON: { [typeId]: { title, description, isDisabled } }
    t.string('updated_by', 64).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTable('comp_type_settings');
}
