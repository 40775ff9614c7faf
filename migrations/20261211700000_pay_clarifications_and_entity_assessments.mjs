// @ts-check
// Pay transparency: a worker who finds a delivered answer inaccurate or incomplete asks for
// clarification (Directive Art. 7(5)) and receives HR's reasoned reply, with its own due date and
// reminder; a reply may carry the figures prepared again.
// Pay equity: Article 10 joint pay assessments are per employer (legal entity): a category is
// flagged for a reference year within one legal entity ('' for the company as a whole, the group
// view of a company that records none).

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('pay_information_clarifications', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('request_id', 64).notNullable().references('pay_information_requests.id').onDelete('CASCADE');
    t.string('state', 16).notNullable(); // open | replied
    t.text('question').notNullable(); // what the worker finds inaccurate or incomplete
    t.string('asked_on', 10).notNullable();
    t.string('due_on', 10).notNullable(); // two months after asked_on
    t.string('reminder_on', 10).notNullable(); // two weeks before due_on
    t.text('reply').nullable(); // HR's reasoned reply
    t.text('answer').nullable(); // JSON: the answer prepared again for the reply (PayInformationAnswer), when HR chose to
    t.string('replied_by', 64).nullable();
    t.timestamp('replied_at', { useTz: true }).nullable();
    t.timestamp('reminded_at', { useTz: true }).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'request_id']);
    t.index(['company_id', 'state', 'due_on']);
  });

  await knex.schema.alterTable('pay_equity_assessments', (t) => {
    t.string('legal_entity', 200).notNullable().defaultTo('');
  });
  await knex.schema.alterTable('pay_equity_assessments', (t) => {
    t.dropUnique(['company_id', 'year', 'category_id']);
    t.unique(['company_id', 'year', 'legal_entity', 'category_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('pay_equity_assessments', (t) => {
    t.dropUnique(['company_id', 'year', 'legal_entity', 'category_id']);
  });
  await knex('pay_equity_assessments').whereNot('legal_entity', '').delete();
  await knex.schema.alterTable('pay_equity_assessments', (t) => {
    t.dropColumn('legal_entity');
    t.unique(['company_id', 'year', 'category_id']);
  });
  await knex.schema.dropTableIfExists('pay_information_clarifications');
}
