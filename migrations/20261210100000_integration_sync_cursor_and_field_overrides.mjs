// Live HR connectors: where an incremental sync continues from (the system's own "changed since"
// time a sync read up to, used once that sync is applied), the conflicts a sync reports, and the people fields an
// admin set in Paybench that a sync must not overwrite.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('people_import_runs', (t) => {
    t.text('sync_cursor').nullable(); // the system's time this sync read up to; the next after an applied one continues from it
    t.text('conflicts').nullable(); // JSON: fields where Paybench's value was kept over the system's
    t.boolean('incremental').notNullable().defaultTo(false); // read only what changed since the last applied sync
  });
  await knex.schema.createTable('people_field_overrides', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('employee_id', 64).notNullable().references('employees.id').onDelete('CASCADE');
    t.string('field', 64).notNullable(); // a people-import field name (title, baseSalary…)
    t.text('value').notNullable(); // as the field is written in an import ('' for empty)
    t.string('set_by', 64).nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('set_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'employee_id', 'field']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('people_field_overrides');
  await knex.schema.alterTable('people_import_runs', (t) => {
    t.dropColumn('incremental');
    t.dropColumn('conflicts');
    t.dropColumn('sync_cursor');
  });
}
