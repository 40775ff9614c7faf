// @ts-check
// Who manages whom among a company's users, as the users import and export carry it (a manager's e-mail).
// The HR org tree of employees lives on employees.manager_id; this is the sign-in side, for scripts.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('users', (t) => {
    t.string('manager_user_id', 64).nullable().references('users.id').onDelete('SET NULL');
    t.index(['manager_user_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('users', (t) => {
    t.dropIndex(['manager_user_id']);
    t.dropColumn('manager_user_id');
  });
}
