// @ts-check
// Notices before a planning window closes (api/src/meritCycles/windowNotices.ts): the lead time a
// cycle gives (hours before a window's close), and who was told of which close, so that a notice
// goes once per person and window, and a moved close date is told again.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('merit_cycles', (t) => {
    t.integer('closing_notice_hours').notNullable().defaultTo(24);
  });
  await knex.schema.createTable('merit_cycle_window_notices', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('cycle_id', 64).notNullable().references('merit_cycles.id').onDelete('CASCADE');
    t.string('stage', 16).notNullable(); // planning | review
    t.string('closes_at', 32).notNullable(); // the close told of (ISO 8601, UTC)
    t.string('user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('sent_at', { useTz: true }).notNullable();
    t.unique(['cycle_id', 'stage', 'closes_at', 'user_id']);
    t.index(['company_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTable('merit_cycle_window_notices');
  await knex.schema.alterTable('merit_cycles', (t) => {
    t.dropColumn('closing_notice_hours');
  });
}
