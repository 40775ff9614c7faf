// @ts-check
// Pulse surveys (api/src/pulseSurveys/): short pay-perception surveys to a group of employees.
// Answers are kept only as counts (per question, group and score) and comments as loose text: no
// row ties an answer to a person, a time or an order. Who has answered is a separate mark on the
// audience, for reminders and one answer per person, with no time on it.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('pulse_surveys', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('title', 200).notNullable();
    t.text('introduction').nullable();
    t.string('state', 16).notNullable(); // draft | open | closed (the pulseSurvey workflow)
    t.string('target_kind', 32).notNullable(); // everyone | department | location | level | managerSubtree
    t.text('target_values').notNullable(); // JSON: department names, location ids, level ids or one employee id
    t.string('opens_on', 10).notNullable(); // YYYY-MM-DD
    t.string('closes_on', 10).notNullable();
    t.integer('audience_size').nullable(); // fixed when the survey opens
    t.integer('reminders_sent').notNullable().defaultTo(0);
    t.timestamp('last_reminded_at', { useTz: true }).nullable();
    t.string('created_by', 64).nullable().references('users.id').onDelete('SET NULL');
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'state']);
  });
  await knex.schema.createTable('pulse_survey_questions', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('survey_id', 64).notNullable().references('pulse_surveys.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.string('text', 300).notNullable();
    t.string('text_key', 300).notNullable(); // the text folded for trends: the same question across surveys
    t.unique(['survey_id', 'position']);
    t.index(['company_id', 'text_key']);
  });
  // Everyone the survey was sent to, fixed when it opens, with the groups results are cut by.
  await knex.schema.createTable('pulse_survey_audience', (t) => {
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('survey_id', 64).notNullable().references('pulse_surveys.id').onDelete('CASCADE');
    t.string('user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('department', 200).notNullable(); // '' when unknown
    t.string('location_id', 64).notNullable();
    t.string('level_id', 64).notNullable();
    t.boolean('answered').notNullable().defaultTo(false);
    t.primary(['survey_id', 'user_id']);
    t.index(['company_id', 'user_id']);
  });
  // Answers as counts: one row per question × group × score. dimension 'all' has group ''.
  await knex.schema.createTable('pulse_survey_tallies', (t) => {
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('survey_id', 64).notNullable().references('pulse_surveys.id').onDelete('CASCADE');
    t.string('question_id', 64).notNullable().references('pulse_survey_questions.id').onDelete('CASCADE');
    t.string('dimension', 16).notNullable(); // all | department | location | level
    t.string('group_key', 200).notNullable();
    t.integer('score').notNullable();
    t.integer('answers').notNullable();
    t.primary(['survey_id', 'question_id', 'dimension', 'group_key', 'score']);
  });
  // Respondents per group (every question is answered, so this is each question's count too).
  await knex.schema.createTable('pulse_survey_respondents', (t) => {
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('survey_id', 64).notNullable().references('pulse_surveys.id').onDelete('CASCADE');
    t.string('dimension', 16).notNullable();
    t.string('group_key', 200).notNullable();
    t.integer('respondents').notNullable();
    t.primary(['survey_id', 'dimension', 'group_key']);
  });
  // Comments with a random id and nothing else: read back sorted by their text.
  await knex.schema.createTable('pulse_survey_comments', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('survey_id', 64).notNullable().references('pulse_surveys.id').onDelete('CASCADE');
    t.text('text').notNullable();
    t.index(['survey_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  for (const table of ['pulse_survey_comments', 'pulse_survey_respondents', 'pulse_survey_tallies', 'pulse_survey_audience', 'pulse_survey_questions', 'pulse_surveys']) {
    await knex.schema.dropTableIfExists(table);
  }
}
