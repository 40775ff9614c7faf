// @ts-check
// Salary bands: saved survey column mappings (api/src/bands/surveyMappings.ts). The mapping a person
// confirmed for a provider's file (survey field → column header), kept per company and provider so
// the next file from that provider starts from it; versioned (If-Match). One per company and
// provider, whatever its case or spacing (provider_key). Carries company_id, so Postgres row-level
// security covers it.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('band_survey_mappings', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('provider', 200).notNullable();
    t.string('provider_key', 200).notNullable();
    t.text('mapping').notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'provider_key']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTable('band_survey_mappings');
}
