// @ts-check
// Pay equity (api/src/payEquity/): the company's point-factor evaluation of its jobs (Directive
// Art. 4: skills, effort, responsibility, working conditions), which forms the categories of
// workers, one versioned record per company; and the Article 10 joint pay assessments: a category
// of a reference year whose gap is 5 % or more, with the justification or remediation plan
// recorded and the six-month clock.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('pay_equity_evaluations', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.text('factors').notNullable(); // JSON: [{ key, name, weight, levels, description }]
    t.text('jobs').notNullable(); // JSON: [{ jobId, scores: { factorKey: level }, evidence }]
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id']);
  });
  await knex.schema.createTable('pay_equity_assessments', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('year').notNullable();
    t.string('category_id', 200).notNullable();
    t.string('category_name', 300).notNullable();
    t.integer('gap_bp').notNullable(); // the category's mean gap when flagged, in basis points (512 = 5.12 %)
    t.string('status', 16).notNullable(); // open | justified | remediation | closed
    t.text('justification').nullable();
    t.text('remediation_plan').nullable();
    t.string('due_date', 10).notNullable(); // six months after it was flagged
    t.string('reminded_on', 10).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'year', 'category_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('pay_equity_assessments');
  await knex.schema.dropTableIfExists('pay_equity_evaluations');
}
