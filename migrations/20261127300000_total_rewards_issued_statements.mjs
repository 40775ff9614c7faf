// @ts-check
// Issued total-rewards statements (api/src/totalRewards/issued.ts): one row per statement issued, beside
// the immutable document version that holds it (same id): whom it was issued to (the employee, and
// their name as it was then), its title, the day it is as of, who issued it and when. Admins list what
// was issued from here; the statement itself stays the document version. Statements issued before this
// table existed are copied from their document versions.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('total_rewards_issued_statements', (t) => {
    t.string('id', 64).primary(); // the document version's id
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('employee_id', 64).notNullable();
    t.string('first_name').notNullable();
    t.string('last_name').notNullable();
    t.string('title', 500).notNullable();
    t.string('as_of', 10).notNullable();
    t.string('issued_by', 64).nullable();
    t.timestamp('issued_at', { useTz: true }).notNullable();
    t.index(['company_id', 'issued_at', 'id'], 'total_rewards_issued_statements_newest');
    t.index(['company_id', 'employee_id']);
  });

  const versions = await knex('document_versions')
    .leftJoin('employees', function joinEmployee() {
      this.on('employees.id', '=', 'document_versions.subject_id').andOn('employees.company_id', '=', 'document_versions.company_id');
    })
    .where('document_versions.subject_type', 'totalRewardsStatement')
    .select('document_versions.id', 'document_versions.company_id', 'document_versions.subject_id', 'document_versions.title', 'document_versions.variables', 'document_versions.created_by', 'document_versions.created_at', 'employees.first_name', 'employees.last_name');
  const rows = versions.map((version) => {
    /** @type {{ asOf?: unknown }} */
    const variables = JSON.parse(version.variables);
    return {
      id: version.id,
      company_id: version.company_id,
      employee_id: version.subject_id,
      first_name: version.first_name ?? '',
      last_name: version.last_name ?? '',
      title: version.title,
      as_of: String(variables.asOf ?? '').slice(0, 10),
      issued_by: version.created_by,
      issued_at: version.created_at,
    };
  });
  for (let at = 0; at < rows.length; at += 200) await knex('total_rewards_issued_statements').insert(rows.slice(at, at + 200));
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('total_rewards_issued_statements');
}
