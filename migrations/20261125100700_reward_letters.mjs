// @ts-check
// Reward letters (api/src/rewardLetters/, module rewardLetters), per merit cycle:
// - reward_letter_cycles: one row per closed cycle: the letters' state in their release (workflow
//   `rewardLetters`: draft → managers → released), the cycle's template (a document template of the
//   company, key `rewardLetter.<cycle id>`), the message every letter carries, when the letters were
//   rendered and released; versioned.
// - reward_letters: one row per employee whose base changed: who (employee, their sign-in, their
//   manager in the cycle's tree), the old and new base in their currency (minor units), the document
//   version issued (immutable; a template edit before release issues new versions), when the
//   employee first opened it and when they confirmed it.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('reward_letter_cycles', (t) => {
    t.string('cycle_id', 64).primary().references('merit_cycles.id').onDelete('CASCADE');
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('state', 16).notNullable();
    t.string('template_id', 64).nullable();
    t.text('message').notNullable().defaultTo('');
    t.integer('letters').notNullable().defaultTo(0);
    t.timestamp('rendered_at', { useTz: true }).nullable();
    t.timestamp('released_to_managers_at', { useTz: true }).nullable();
    t.timestamp('released_at', { useTz: true }).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id']);
  });

  await knex.schema.createTable('reward_letters', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('cycle_id', 64).notNullable().references('merit_cycles.id').onDelete('CASCADE');
    t.string('employee_id', 64).notNullable();
    t.string('user_id', 64).nullable();
    t.string('manager_employee_id', 64).nullable();
    t.string('manager_name', 400).nullable();
    t.string('first_name').notNullable();
    t.string('last_name').notNullable();
    t.string('title').notNullable();
    t.string('currency', 3).notNullable();
    t.bigInteger('old_base').notNullable();
    t.bigInteger('new_base').notNullable();
    t.string('document_version_id', 64).notNullable();
    t.timestamp('viewed_at', { useTz: true }).nullable();
    t.timestamp('confirmed_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['cycle_id', 'employee_id']);
    t.index(['company_id', 'user_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('reward_letters');
  await knex.schema.dropTableIfExists('reward_letter_cycles');
}
