// @ts-check
// Employees carry their job code: the HR system's code for their job (ENG-3), as the people import
// reads it. Salary bands matching by job code place an employee in the company job with that code,
// hence the (company, code) index.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('employees', (t) => {
    t.string('job_code', 64).nullable();
    t.index(['company_id', 'job_code']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.alterTable('employees', (t) => {
    t.dropIndex(['company_id', 'job_code']);
    t.dropColumn('job_code');
  });
}
