// @ts-check
// The change log of people records (api/src/people/changes.ts): one row per field changed on an
// employee, a pay record (compensation_records) or an equity grant, with the value before and after
// (JSON text: a string, a number, a Money object or null), who changed it, when, and where the change
// came from ('app' for an edit in Paybench, 'import' for a file import, 'sync' for an HRIS sync).
// A record added has no old values; a record deleted has no new ones.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('people_changes', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('employee_id', 64).notNullable();
    t.string('entity', 16).notNullable(); // employee | payRecord | grant
    t.string('entity_id', 64).notNullable();
    t.string('field', 64).notNullable();
    t.text('old_value').nullable(); // JSON
    t.text('new_value').nullable(); // JSON
    t.string('changed_by', 64).nullable(); // the user; null for a system change
    t.timestamp('changed_at', { useTz: true }).notNullable();
    t.string('source', 16).notNullable(); // app | import | sync
    t.index(['company_id', 'employee_id', 'changed_at'], 'people_changes_employee');
    t.index(['company_id', 'source', 'changed_at'], 'people_changes_source');
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('people_changes');
}
