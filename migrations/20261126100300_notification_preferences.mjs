// @ts-check
// Notification preferences (api/src/notifications/preferences.ts): a person's choice, per planning
// event, of e-mail and in-app notices. One versioned document per person; an event not in it is on.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('notification_preferences', (t) => {
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.text('preferences').notNullable(); // JSON: { [event]: { email, inApp } }
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['company_id', 'user_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTable('notification_preferences');
}
