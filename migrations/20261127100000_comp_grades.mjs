// @ts-check
// Comp grades (api/src/bands/grades.ts):
// - band_grades: the company's grades ("G1".."G12"): a key unique per company, a name, an order; versioned.
// - band_company_jobs.grade_id: the grade a company job is assigned (optional).
// - band_grade_bands: min / mid / max per grade × pay zone of a band set, in minor units of the set's
//   currency, with optional variable / bonus / equity ranges (JSON); versioned. A company job with a
//   grade and no band of its own in a zone is priced by its grade's band there.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('band_grades', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('key', 32).notNullable();
    t.string('name', 200).notNullable();
    t.integer('position').notNullable().defaultTo(0);
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'key']);
  });

  await knex.schema.alterTable('band_company_jobs', (t) => {
    t.string('grade_id', 64).nullable().references('band_grades.id');
  });

  await knex.schema.createTable('band_grade_bands', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('band_set_id', 64).notNullable().references('band_sets.id').onDelete('CASCADE');
    t.string('grade_id', 64).notNullable().references('band_grades.id');
    t.string('pay_zone_id', 64).notNullable().references('band_pay_zones.id');
    t.bigInteger('min_amount').notNullable();
    t.bigInteger('mid_amount').notNullable();
    t.bigInteger('max_amount').notNullable();
    t.text('ranges').nullable(); // JSON: bonus target %, variable target, equity range
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['band_set_id', 'grade_id', 'pay_zone_id']);
    t.index(['company_id', 'grade_id']);
    t.index(['company_id', 'pay_zone_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTable('band_grade_bands');
  await knex.schema.alterTable('band_company_jobs', (t) => {
    t.dropForeign(['grade_id']);
    t.dropColumn('grade_id');
  });
  await knex.schema.dropTable('band_grades');
}
