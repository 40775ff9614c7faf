// @ts-check
// Access requests (api/src/access/): a person asks their company's admins for a module or a
// permission they lack, with why; an admin approves (granting a role) or declines, once.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('access_requests', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('requester_user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('module', 64).nullable(); // a module of the contract, when the request is for one
    t.text('permissions').notNullable(); // JSON: [{ name, authority }] asked for
    t.text('reason').notNullable();
    t.string('status', 16).notNullable().defaultTo('pending'); // pending | approved | declined
    t.string('decided_by_user_id', 64).nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('decided_at', { useTz: true }).nullable();
    t.string('granted_role_id', 64).nullable().references('roles.id').onDelete('SET NULL');
    t.text('note').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'status', 'created_at']);
    t.index(['company_id', 'requester_user_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('access_requests');
}
