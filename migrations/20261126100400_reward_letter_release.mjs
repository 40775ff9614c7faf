// @ts-check
// Reward letters released by branch and on a date, reminders, and images kept by their content:
// - reward_letters.released_at: when the letter became its employee's to read (a release to everyone,
//   or to the branch they are in); null while it is not. Letters of cycles released before this
//   migration take the cycle's moment. reminded_at / reminders / last_reminder_id: the reminders
//   e-mailed while it was not confirmed (the id keeps a retried sending from mailing twice).
// - reward_letter_releases: releases planned for a date (to everyone, to managers, or to one branch),
//   carried out by a job at that moment; their outcome stays as history.
// - document_images: images documents draw (the company's logo), stored once per company by the
//   SHA-256 of their bytes and never changed, so a document issued with one keeps drawing it.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('reward_letters', (t) => {
    t.timestamp('released_at', { useTz: true }).nullable();
    t.timestamp('reminded_at', { useTz: true }).nullable();
    t.integer('reminders').notNullable().defaultTo(0);
    t.string('last_reminder_id', 64).nullable();
  });
  await knex('reward_letters')
    .whereIn('cycle_id', knex('reward_letter_cycles').where('state', 'released').select('cycle_id'))
    .update({ released_at: knex('reward_letter_cycles').where('reward_letter_cycles.cycle_id', knex.ref('reward_letters.cycle_id')).select('released_at') });

  await knex.schema.createTable('reward_letter_releases', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('cycle_id', 64).notNullable().references('merit_cycles.id').onDelete('CASCADE');
    t.string('audience', 16).notNullable(); // all | managers | branch
    t.string('branch_employee_id', 64).nullable();
    t.timestamp('release_at', { useTz: true }).notNullable();
    t.string('status', 16).notNullable(); // scheduled | done | cancelled | failed
    t.text('outcome').nullable();
    t.string('job_id', 64).nullable();
    t.string('created_by', 64).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'cycle_id']);
  });

  await knex.schema.createTable('document_images', (t) => {
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('sha256', 64).notNullable();
    t.string('media_type', 32).notNullable();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.binary('bytes').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.primary(['company_id', 'sha256']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('document_images');
  await knex.schema.dropTableIfExists('reward_letter_releases');
  await knex.schema.alterTable('reward_letters', (t) => {
    t.dropColumn('last_reminder_id');
    t.dropColumn('reminders');
    t.dropColumn('reminded_at');
    t.dropColumn('released_at');
  });
}
