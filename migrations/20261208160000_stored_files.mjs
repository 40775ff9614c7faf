// @ts-check
// Files kept in the database (PAYBENCH_STORAGE=database, for small installs): one row per file and
// its content in chunks of at most 256 KiB, so a large file is written and read a chunk at a time.
// Which company a file belongs to is told by the row that names its key (a download, an import):
// the storage itself knows keys only.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('stored_files', (table) => {
    table.string('key', 200).primary();
    table.bigInteger('size_bytes').notNullable();
    table.string('created_at', 32).notNullable();
  });
  await knex.schema.createTable('stored_file_chunks', (table) => {
    table.string('file_key', 200).notNullable().references('key').inTable('stored_files').onDelete('CASCADE');
    table.integer('seq').notNullable();
    table.binary('data').notNullable();
    table.primary(['file_key', 'seq']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTable('stored_file_chunks');
  await knex.schema.dropTable('stored_files');
}
