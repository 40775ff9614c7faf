// @ts-check
// Shared mechanisms of the pay modules (merit cycles, bands, offers, statements):
// - workflow_history: every state change of a workflow subject (a cycle, an offer), who made it and why;
//   written in the transaction of the change, never updated.
// - document_templates: a company's letter and statement templates ({{variable}} placeholders), versioned.
// - document_versions: documents as issued — the rendered content, its HTML and that HTML's SHA-256.
//   Never updated: rendering again makes a new row (a trigger refuses updates on both engines).

/** @param {import('knex').Knex} knex */
const isPostgres = (knex) => knex.client.config.client === 'pg';

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('workflow_history', (t) => {
    t.string('id', 64).primary(); // UUIDv7: ties within a millisecond still read in order
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('workflow', 64).notNullable();
    t.string('subject_type', 64).notNullable();
    t.string('subject_id', 64).notNullable();
    // The subject's version the actor saw (e.g. the worksheet version an approver approved); null when not versioned.
    t.integer('subject_version').nullable();
    t.string('from_state', 64).notNullable();
    t.string('to_state', 64).notNullable();
    t.string('action', 64).notNullable();
    // No foreign key: the history outlives the people in it.
    t.string('actor_user_id', 64).notNullable();
    t.text('comment').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['company_id', 'subject_type', 'subject_id', 'created_at'], 'workflow_history_subject');
  });

  await knex.schema.createTable('document_templates', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('key', 100).notNullable(); // what a module asks for: 'merit.rewardLetter'
    t.string('title', 500).notNullable();
    t.text('body').notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'key']);
  });

  await knex.schema.createTable('document_versions', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('template_id', 64).notNullable().references('document_templates.id');
    t.integer('template_version').notNullable();
    t.string('subject_type', 64).notNullable();
    t.string('subject_id', 64).notNullable();
    t.string('title', 500).notNullable();
    t.text('variables').notNullable(); // JSON: the values the template used, as given
    t.text('content').notNullable(); // JSON: title, branding and blocks — what the HTML and the PDF are both drawn from
    t.text('html').notNullable();
    t.string('html_sha256', 64).notNullable();
    t.string('created_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['company_id', 'subject_type', 'subject_id', 'created_at'], 'document_versions_subject');
  });

  if (isPostgres(knex)) {
    await knex.raw(`create or replace function document_versions_immutable() returns trigger language plpgsql as $$
      begin raise exception 'document versions are immutable: render again for a new version'; end $$`);
    await knex.raw('create trigger document_versions_no_update before update on document_versions for each row execute function document_versions_immutable()');
  } else {
    await knex.raw(`create trigger document_versions_no_update before update on document_versions
      begin select raise(abort, 'document versions are immutable: render again for a new version'); end`);
  }
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('document_versions');
  if (isPostgres(knex)) await knex.raw('drop function if exists document_versions_immutable()');
  await knex.schema.dropTableIfExists('document_templates');
  await knex.schema.dropTableIfExists('workflow_history');
}
