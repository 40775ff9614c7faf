// @ts-check
// The domain-event outbox: each row is written in the transaction of the change it describes and
// delivered to the subscribers afterwards by the job worker (at least once).

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('domain_events', (t) => {
    t.string('id', 64).primary(); // UUIDv7: delivery goes in the order they happened
    t.string('company_id', 64).nullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 64).notNullable();
    t.string('actor_user_id', 64).nullable();
    t.string('subject_type', 64).nullable();
    t.string('subject_id', 64).nullable();
    t.text('payload').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable();
    // Delivery: waiting until available_at, claimed by a worker until claimed_until, then delivered or given up.
    t.timestamp('available_at', { useTz: true }).notNullable();
    t.string('claimed_by', 128).nullable();
    t.timestamp('claimed_until', { useTz: true }).nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error').nullable();
    t.timestamp('delivered_at', { useTz: true }).nullable();
    t.timestamp('failed_at', { useTz: true }).nullable();
    t.index(['delivered_at', 'failed_at', 'available_at']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTable('domain_events');
}
