// @ts-check
// Employees carry their employing legal entity and their contractual working time: the full-time
// equivalent (0 < fte ≤ 1, 1 for full-time) and, when the HR system gives them, the contractual
// hours a week. Pay equity reports per legal entity (Directive Art. 9, the UK's per-employer rules)
// and computes hourly pay from these hours.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('employees', (t) => {
    t.string('legal_entity', 200).nullable();
    t.decimal('fte', 5, 4).notNullable().defaultTo(1);
    t.decimal('weekly_hours', 5, 2).nullable();
    t.index(['company_id', 'legal_entity']);
  });
  if (knex.client.config.client === 'pg') {
    await knex.raw('ALTER TABLE employees ADD CONSTRAINT employees_fte_range CHECK (fte > 0 AND fte <= 1)');
    await knex.raw('ALTER TABLE employees ADD CONSTRAINT employees_weekly_hours_range CHECK (weekly_hours IS NULL OR (weekly_hours > 0 AND weekly_hours <= 168))');
  }
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  if (knex.client.config.client === 'pg') {
    await knex.raw('ALTER TABLE employees DROP CONSTRAINT IF EXISTS employees_weekly_hours_range');
    await knex.raw('ALTER TABLE employees DROP CONSTRAINT IF EXISTS employees_fte_range');
  }
  await knex.schema.alterTable('employees', (t) => {
    t.dropIndex(['company_id', 'legal_entity']);
    t.dropColumn('weekly_hours');
    t.dropColumn('fte');
    t.dropColumn('legal_entity');
  });
}
