// @ts-check
// The insights agent (api/src/insightsAgent/): a person's sessions with the agent, their questions
// and answers (with the answer's citations), and every contract operation the agent called for an
// answer with its input and status.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('agent_sessions', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('title', 200).notNullable();
    t.boolean('titled').notNullable().defaultTo(false); // named by its creator (else by its first question)
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'user_id', 'updated_at']);
  });
  await knex.schema.createTable('agent_messages', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('session_id', 64).notNullable().references('agent_sessions.id').onDelete('CASCADE');
    t.string('role', 16).notNullable(); // user | assistant
    t.text('content').notNullable();
    t.text('citations').notNullable(); // JSON: [{ operationId, label, link }]
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['company_id', 'session_id', 'created_at']);
  });
  await knex.schema.createTable('agent_tool_calls', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('session_id', 64).notNullable().references('agent_sessions.id').onDelete('CASCADE');
    // The answer it served; null until the answer is saved (it is saved after its tool calls).
    t.string('message_id', 64).nullable().references('agent_messages.id').onDelete('CASCADE');
    t.string('operation_id', 100).notNullable();
    t.string('method', 8).notNullable();
    t.string('path', 500).notNullable();
    t.text('input').notNullable(); // JSON: the query or body sent
    t.integer('status').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['company_id', 'session_id', 'created_at']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('agent_tool_calls');
  await knex.schema.dropTableIfExists('agent_messages');
  await knex.schema.dropTableIfExists('agent_sessions');
}
