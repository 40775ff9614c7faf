// @ts-check
// Plausibility checks of a release build: per contributing company, what the checks found and whether
// its contribution went in or was held back (quarantined); an internal admin's decision on a hold
// (release it into the next build, or keep it) with the reason, and the build that applied it.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('market_release_screenings', (t) => {
    t.string('id', 64).primary();
    t.string('release_id', 64).notNullable().references('market_releases.id').onDelete('CASCADE');
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('outcome', 16).notNullable(); // passed | quarantined | released
    t.integer('records').notNullable();
    t.integer('previous_records').nullable();
    // JSON: [{ check, message, cell, otherCompanyId }]
    t.text('findings').notNullable();
    t.string('decision', 16).nullable(); // release | keep
    t.text('decision_reason').nullable();
    t.string('decided_by', 64).nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('decided_at', { useTz: true }).nullable();
    // The build that took a released contribution in; a decision stands until then.
    t.string('applied_release_id', 64).nullable().references('market_releases.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['release_id', 'company_id']);
    t.index(['company_id', 'created_at']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('market_release_screenings');
}
