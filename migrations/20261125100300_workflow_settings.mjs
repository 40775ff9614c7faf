// @ts-check
// Workflow settings (api/src/workflowSettings/): who approves what, as data the modules read.
// - workflow_settings: one document per company — the merit-cycle approval chains a new cycle
//   starts from (JSON: branch employee or null for the whole company, reviewers in order) and the
//   approvers a band set's publication needs, in order (JSON list of user ids; empty: none).
// - band_set_approvals: the approvers a band set waits for since it was submitted for publication
//   (the rule as it was then) and their decisions; one row per band set, replaced on each submission.
// - companies.stock_exchange_mic: the ISO 10383 MIC of the exchange the company is listed on.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('workflow_settings', (t) => {
    t.string('company_id', 64).primary().references('companies.id').onDelete('CASCADE');
    t.text('merit_chains').notNullable(); // JSON list of { branchEmployeeId, reviewerUserIds }
    t.text('band_publication_approvers').notNullable(); // JSON list of user ids, in order
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('band_set_approvals', (t) => {
    t.string('band_set_id', 64).primary().references('band_sets.id').onDelete('CASCADE');
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.text('approver_user_ids').notNullable(); // JSON list, in order
    t.text('decisions').notNullable(); // JSON list of { userId, decision, at }
    t.string('submitted_by', 64).notNullable();
    t.timestamp('submitted_at', { useTz: true }).notNullable();
    t.index(['company_id']);
  });
  await knex.schema.alterTable('companies', (t) => {
    t.string('stock_exchange_mic', 4).nullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('companies', (t) => {
    t.dropColumn('stock_exchange_mic');
  });
  await knex.schema.dropTable('band_set_approvals');
  await knex.schema.dropTable('workflow_settings');
}
